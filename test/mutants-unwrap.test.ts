/**
 * The lenient `unwrap` rule (src/coerce/unwrap.ts), one behaviour per test, each under a name of its
 * own: the rows of `fixtures/lenient/unwrap.json` cover the same ground, but as `test.each` cases
 * whose cut names Stryker's per-test coverage cannot tell apart, so its run let their mutants live.
 */
import { describe, expect, test } from 'vitest';
import { coerceArgs, prepareToolCall } from '../src/index.js';

const read = {
  type: 'object',
  properties: { path: { type: 'string' }, limit: { type: 'integer' } },
  required: ['path'],
  additionalProperties: false,
} as const;

function unwrapped(args: unknown, schema: object = read, toolName?: string): unknown {
  const result = coerceArgs(args, schema, toolName === undefined ? { lenient: true } : { lenient: true, toolName });
  return result.changes.some((change) => change.rule === 'unwrap') ? result.value : undefined;
}

describe('unwrap: which objects are wrappers', () => {
  test('each of the four wrapper keys alone is unwrapped', () => {
    for (const key of ['arguments', 'parameters', 'input', 'args']) {
      const call = prepareToolCall(JSON.stringify({ [key]: { path: 'a', limit: '2' } }), read, { lenient: true });
      expect(call).toMatchObject({ ok: true, json: '{"path":"a","limit":2}' });
      expect(call.changes.map((change) => change.rule)).toEqual(['unwrap', 'string-to-integer']);
    }
  });

  test('a one-key object under another key ("result") is no wrapper', () => {
    expect(unwrapped({ result: { path: 'a' } })).toBeUndefined();
  });

  test('a wrapper holding an array, or a string that is not the strict JSON text of an object, is left as it is', () => {
    expect(unwrapped({ arguments: [{ path: 'a' }] })).toBeUndefined();
    for (const held of [[], 5, null, true, '{}x', '5']) expect(coerceArgs({ arguments: held }, read, { lenient: true }).changes).toEqual([]);
    expect(unwrapped({ arguments: 'ls -la' })).toBeUndefined();
    expect(unwrapped({ arguments: '[{"path":"a"}]' })).toBeUndefined();
    expect(unwrapped({ arguments: '"{\\"path\\":\\"a\\"}"' })).toBeUndefined();
    // Text that needs a repair to read (a Python dict, a cut-off object) would be a change no rule reports.
    expect(unwrapped({ arguments: "{'path': 'a'}" })).toBeUndefined();
    expect(unwrapped({ arguments: '{"path":"a"' })).toBeUndefined();
  });

  test('a wrapper holding the strict JSON text of an object (DeepSeek V4 through vLLM) is unwrapped, its numbers as written', () => {
    const call = prepareToolCall(JSON.stringify({ arguments: '{"path":"a","limit":5.0}' }), read, { lenient: true });
    expect(call).toMatchObject({ ok: true, json: '{"path":"a","limit":5}' });
    expect(call.changes.map((change) => [change.rule, change.path, change.from, change.to])).toEqual([['unwrap', '', '"arguments"', ''], ['integer-literal', '/limit', '5.0', '5']]);
    expect(unwrapped({ arguments: ' {"path":"a"}\n' })).toEqual({ path: 'a' });
  });

  test('the JSON text of an object with a key the tool does not declare is refused with the envelope message, never unwrapped', () => {
    const result = coerceArgs({ arguments: '{"path":"a","mode":"x"}' }, read, { lenient: true });
    expect(result.value).toEqual({ arguments: '{"path":"a","mode":"x"}' });
    expect(result.refusals).toHaveLength(1);
    expect(result.refusals[0]!.message).toContain('holds a key the tool does not declare ("mode")');
  });

  test('the JSON text is not unwrapped where the root is open or declares the wrapper key', () => {
    expect(unwrapped({ arguments: '{"path":"a"}' }, { ...read, additionalProperties: true })).toBeUndefined();
    expect(unwrapped({ arguments: '{"path":"a"}' }, { ...read, properties: { ...read.properties, arguments: { type: 'string' } } })).toBeUndefined();
  });

  test('a wrapper key beside another key is no wrapper when no tool name is given', () => {
    expect(unwrapped({ arguments: { path: 'a' }, path: 'b' })).toBeUndefined();
    expect(unwrapped({ name: 'read_file', arguments: { path: 'a' } })).toBeUndefined();
  });
});

describe('unwrap: the whole call repeated, {"name": <the tool>, "arguments": {…}}', () => {
  test('name first or second, equal to the tool name, is unwrapped', () => {
    expect(unwrapped({ name: 'read_file', arguments: { path: 'a' } }, read, 'read_file')).toEqual({ path: 'a' });
    expect(unwrapped({ input: { path: 'a' }, name: 'read_file' }, read, 'read_file')).toEqual({ path: 'a' });
  });

  test('the name of another tool is no wrapper', () => {
    expect(unwrapped({ name: 'write_file', arguments: { path: 'a' } }, read, 'read_file')).toBeUndefined();
  });

  test('two keys, neither of them "name", are no wrapper even with the tool name given', () => {
    expect(unwrapped({ tool: 'read_file', arguments: { path: 'a' } }, read, 'read_file')).toBeUndefined();
  });

  test('name beside a key that wraps nothing ("result") is no wrapper', () => {
    expect(unwrapped({ name: 'read_file', result: { path: 'a' } }, read, 'read_file')).toBeUndefined();
  });

  test('three keys, a wrapper key last, are no wrapper', () => {
    expect(unwrapped({ path: 'b', limit: 1, arguments: { path: 'a' } }, read, 'read_file')).toBeUndefined();
    expect(unwrapped({ path: 'b', limit: 1, arguments: { path: 'a' } })).toBeUndefined();
  });

  test('three keys with the tool name are no wrapper', () => {
    expect(unwrapped({ name: 'read_file', arguments: { path: 'a' }, id: '1' }, read, 'read_file')).toBeUndefined();
  });
});

describe('unwrap: the schema decides', () => {
  test('a root that declares a wrapper key keeps the wrapper', () => {
    const schema = { type: 'object', properties: { input: { type: 'object' }, path: { type: 'string' } } };
    expect(unwrapped({ arguments: { path: 'a' } }, schema)).toBeUndefined();
  });

  test('a root that declares "name" keeps the repeated call', () => {
    const schema = { type: 'object', properties: { name: { type: 'string' }, path: { type: 'string' } } };
    expect(unwrapped({ name: 't', arguments: { path: 'a' } }, schema, 't')).toBeUndefined();
  });

  test('an inner key the root does not declare keeps the wrapper', () => {
    expect(unwrapped({ arguments: { path: 'a', mode: 'r' } })).toBeUndefined();
  });

  test('an open root (additionalProperties allowed) keeps the wrapper', () => {
    const schema = { type: 'object', properties: { path: { type: 'string' } }, additionalProperties: true };
    expect(unwrapped({ arguments: { path: 'a' } }, schema)).toBeUndefined();
  });

  test('the value returned is the very object inside, and the change names the wrapper', () => {
    const inner = { path: 'a' };
    const result = coerceArgs({ args: inner }, read, { lenient: true });
    expect(result.value).toBe(inner);
    expect(result.changes).toEqual([expect.objectContaining({ path: '', rule: 'unwrap', from: '"args"' })]);
  });
});

describe('unwrap: arguments built in JavaScript', () => {
  test('a "name" key holding undefined, with no tool name given, is no repeated call', () => {
    expect(unwrapped({ name: undefined, arguments: { path: 'a' } })).toBeUndefined();
  });
});
