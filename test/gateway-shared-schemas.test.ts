import { describe, expect, it } from 'vitest';
import { coerceArgs } from '../src/index.js';
import { SharedSchemas, ToolSchemas } from '../src/adapters/shared/tool-schemas.js';

const listing = (): unknown[] => JSON.parse('[{"name":"add","inputSchema":{"type":"object","properties":{"a":{"type":"integer"}}}},{"name":"say","inputSchema":{"type":"object","properties":{"text":{"type":"string"}}}}]') as unknown[];

describe('schemas shared by the gateway sessions', () => {
  it('gives two sessions that list the same schema text one object, and keeps different schemas apart', () => {
    const shared = new SharedSchemas(16);
    const first = new ToolSchemas(shared);
    const second = new ToolSchemas(shared);
    first.store(listing(), true);
    second.store(listing(), true);
    expect(second.get('add')).toBe(first.get('add'));
    expect(second.get('say')).toBe(first.get('say'));
    expect(first.get('add')).not.toBe(first.get('say'));
    expect(shared.size).toBe(2);
    // The shared object repairs as the session's own would.
    expect(coerceArgs({ a: 7.0 }, second.get('add')).value).toEqual({ a: 7 });
  });

  it('keeps a session without a shared store on its own objects', () => {
    const first = new ToolSchemas();
    const second = new ToolSchemas();
    first.store(listing(), true);
    second.store(listing(), true);
    expect(second.get('add')).not.toBe(first.get('add'));
    expect(second.get('add')).toEqual(first.get('add'));
  });

  it('tells schemas apart by their whole text: one changed keyword is another schema', () => {
    const shared = new SharedSchemas(16);
    const integer = shared.intern({ type: 'object', properties: { a: { type: 'integer' } } });
    const number = shared.intern({ type: 'object', properties: { a: { type: 'number' } } });
    expect(number).not.toBe(integer);
    expect(coerceArgs({ a: 7.0 }, number).value).toEqual({ a: 7.0 });
  });

  it('forgets the least recently listed schema past its bound, and never more', () => {
    const shared = new SharedSchemas(2);
    const a = { const: 'a' };
    const b = { const: 'b' };
    expect(shared.intern(a)).toBe(a);
    expect(shared.intern(b)).toBe(b);
    expect(shared.intern({ const: 'a' })).toBe(a); // a is now the most recent
    expect(shared.intern({ const: 'c' })).toEqual({ const: 'c' }); // b goes
    expect(shared.size).toBe(2);
    expect(shared.intern({ const: 'a' })).toBe(a);
    const b2 = { const: 'b' };
    expect(shared.intern(b2)).toBe(b2);
  });

  it('passes a schema that is not an object through as it is', () => {
    const shared = new SharedSchemas(4);
    expect(shared.intern(true)).toBe(true);
    expect(shared.intern(undefined)).toBe(undefined);
    expect(shared.intern(null)).toBe(null);
    expect(shared.size).toBe(0);
  });
});
