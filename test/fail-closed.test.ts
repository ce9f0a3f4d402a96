import { describe, expect, test } from 'vitest';
import { parseArgs, prepareToolCall } from '../src/index.js';
import { validateArgs } from '../src/validate.js';

// Only a schema that does not compile may be skipped; arguments that cannot be checked fail.
const nested = { type: 'array', items: { $ref: '#' } };

describe('validateArgs fails closed on arguments it cannot check', () => {
  test('a 100,000-deep array is refused with a reason and a message for the model', () => {
    const args = parseArgs('['.repeat(100_000) + ']'.repeat(100_000));
    const result = validateArgs(args, nested, { toolName: 'deep' });
    expect(result).toMatchObject({ ok: false, validator: 'ajv-2020', reason: 'the validator ran out of stack' });
    if (result.ok) return;
    expect(result.errors).toEqual([{ path: '', keyword: 'unchecked', message: expect.stringContaining('could not be checked against the schema') }]);
    expect(result.message).toMatch(/^Invalid parameters for tool "deep": the arguments do not match the tool schema\.\narguments: could not be checked against the schema \(the validator ran out of stack\); send them less deeply nested; you sent \[\[\[/);
  });

  test('prepareToolCall does not dispatch what validation could not check', () => {
    const text = '['.repeat(100_000) + ']'.repeat(100_000);
    const call = prepareToolCall(text, nested, { validate: validateArgs });
    expect(call.ok).toBe(false);
    expect(call.message).toContain('could not be checked against the schema');
  });

  test('cyclic arguments under a recursive schema are refused, and the message does not try to print them', () => {
    const args: unknown[] = [];
    args.push(args);
    const result = validateArgs(args, nested);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message).toContain('arguments: could not be checked against the schema');
  });

  test('arguments that throw when read are refused', () => {
    const args = { get line(): never { throw new Error('hostile getter'); } };
    const result = validateArgs(args, { type: 'object', properties: { line: { type: 'integer' } } });
    expect(result).toMatchObject({ ok: false, validator: 'skipped', reason: expect.stringContaining('hostile getter') });
  });

  test('a provider whose validator throws on the arguments fails closed', () => {
    const provider = { getValidator: () => () => { throw new RangeError('too deep'); } };
    expect(validateArgs([], nested, { provider })).toMatchObject({ ok: false, validator: 'provider', reason: 'the validator provider threw: too deep' });
  });

  test('a provider that cannot compile the schema skips, as an uncompilable schema does', () => {
    const provider = { getValidator: () => { throw new Error('bad schema'); } };
    expect(validateArgs([], nested, { provider })).toEqual({ ok: true, validator: 'skipped', reason: 'the validator provider could not compile the schema: bad schema' });
  });
});
