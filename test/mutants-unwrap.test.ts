/**
 * The lenient `unwrap` rule (src/coerce/unwrap.ts), one behaviour per test, each under a name of its
 * own: the rows of `fixtures/lenient/unwrap.json` cover the same ground, but as `test.each` cases
 * whose cut names Stryker's per-test coverage cannot tell apart, so its run let their mutants live.
 */
import { beforeEach, describe, expect, test, vi } from 'vitest';
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

describe('unwrap: the readings given to the gate', () => {
  test('a wrapper gives two readings: the object inside, taken whole, and the wrapper as sent, which the root does not take', async () => {
    const { unwrapReadings } = await import('../src/coerce/unwrap.js');
    const { planFor } = await import('../src/schema/plan.js');
    const inner = { path: 'a' };
    const args = { input: inner };
    expect(unwrapReadings(args, planFor(read)!, undefined)).toEqual([
      { rule: 'unwrap', path: '', value: inner, fit: 'whole', keys: ['input'] },
      { rule: 'as-sent', path: '', value: args, fit: 'none', keys: [] },
    ]);
  });

  test('no wrapper gives no reading at all', async () => {
    const { unwrapReadings } = await import('../src/coerce/unwrap.js');
    const { planFor } = await import('../src/schema/plan.js');
    expect(unwrapReadings({ result: { path: 'a' } }, planFor(read)!, undefined)).toEqual([]);
  });
});

describe('unwrap: the schema echoed around the arguments, {"properties": {…}}', () => {
  test('properties beside required, with no type, is unwrapped', () => {
    expect(unwrapped({ properties: { path: 'a' }, required: ['path'] })).toEqual({ path: 'a' });
  });

  test('properties beside a type other than object is no wrapper', () => {
    expect(unwrapped({ properties: { path: 'a' }, type: 'array' })).toBeUndefined();
  });
});

describe('unwrap: a key named "undefined"', () => {
  // A JavaScript lookup with an `undefined` key reads the key "undefined": neither the envelope
  // nor the tool-name refusal may take such a key for theirs.
  test('{"undefined": {…}} is no wrapper', () => {
    expect(unwrapped({ undefined: { path: 'a' } })).toBeUndefined();
  });

  test('{"undefined": {…}} with no tool name given is not refused as keyed by the tool name', () => {
    expect(coerceArgs({ undefined: { path: 'a' } }, read, { lenient: true }).refusals).toEqual([]);
  });
});

/** The one refusal `coerceArgs` makes of `args` under lenient rules, its message after "left as it is: ". */
function envelopeWhy(args: unknown, schema: object = read, toolName?: string): string | undefined {
  const { refusals } = coerceArgs(args, schema, toolName === undefined ? { lenient: true } : { lenient: true, toolName });
  if (refusals.length === 0) return undefined;
  expect(refusals).toHaveLength(1);
  expect(refusals[0]).toMatchObject({ path: '', reason: 'unconvertible', expected: ['object'], value: args });
  return refusals[0]!.message.split('at the root was left as it is: ')[1];
}

describe('envelope refusals: what each says', () => {
  test('an envelope holding an undeclared key names every key of the envelope, comma separated', () => {
    expect(envelopeWhy({ name: 'read_file', arguments: { path: 'a', mode: 'x' } }, read, 'read_file')).toBe(
      'they are inside an envelope ("name", "arguments") that holds a key the tool does not declare ("mode"); send the arguments alone, as one object of the tool\'s declared parameters',
    );
  });

  test('arguments keyed by the tool name are refused, saying to send the object under it', () => {
    expect(envelopeWhy({ read_file: { path: 'a' } }, read, 'read_file')).toBe('they are keyed by the tool\'s own name ("read_file"); send the object under it alone, as the arguments');
  });

  test('the tool name keying something that is no object is not refused', () => {
    expect(envelopeWhy({ read_file: 'a' }, read, 'read_file')).toBeUndefined();
  });

  test('the tool name as one key of two is not refused as keyed by the tool name', () => {
    expect(envelopeWhy({ read_file: { path: 'a' }, id: '1' }, read, 'read_file')).toBeUndefined();
  });

  test('a whole tool call (type function with parameters) is refused, saying to send only the arguments', () => {
    expect(envelopeWhy({ type: 'function', name: 'read_file', parameters: { path: 'a' } })).toBe(
      'they are a whole tool call in an envelope ({"type": "function", …}); send only the arguments object, with the tool\'s declared parameters as its keys',
    );
  });

  test('type function with arguments, or with function, is a whole tool call too', () => {
    expect(envelopeWhy({ type: 'function', arguments: { path: 'a' }, id: 'c1' })).toMatch(/^they are a whole tool call/);
    expect(envelopeWhy({ type: 'function', function: { name: 'read_file' } })).toMatch(/^they are a whole tool call/);
  });

  test('type function with no parameters, arguments or function is not refused', () => {
    expect(envelopeWhy({ type: 'function', name: 'read_file' })).toBeUndefined();
  });

  test('a multi_tool_use.parallel wrapper (tool_uses) is refused, saying to call each tool on its own', () => {
    expect(envelopeWhy({ tool_uses: [{ recipient_name: 'functions.read_file', parameters: { path: 'a' } }] })).toBe(
      'they are a multi_tool_use.parallel wrapper of several calls; call each tool on its own, each with its own arguments object',
    );
  });

  test('one call of such a wrapper (recipient_name beside its parameters) is refused the same way', () => {
    expect(envelopeWhy({ recipient_name: 'functions.read_file', parameters: { path: 'a' } })).toMatch(/^they are a multi_tool_use\.parallel wrapper/);
  });

  test("an engine's kept text under _raw_arguments (SGLang) is refused, saying to send the arguments again", () => {
    expect(envelopeWhy({ _raw_arguments: '{"path": "a' })).toBe(
      'they are the text a serving engine or framework could not parse as JSON, kept under "_raw_arguments" in place of the arguments (its text may be cut off or malformed); send the arguments again, as one complete JSON object',
    );
  });

  test('each spelling of the kept-text key holding a string is refused; holding no string, or beside another key, it is not', () => {
    for (const key of ['_raw_arguments', '__raw_arguments', '__raw_arguments__']) expect(envelopeWhy({ [key]: "{'path': 'a'}" }), key).toMatch(/^they are the text a serving engine/);
    expect(envelopeWhy({ _raw_arguments: { path: 'a' } })).toBeUndefined();
    expect(envelopeWhy({ _raw_arguments: 'x', id: '1' })).toBeUndefined();
    expect(envelopeWhy({ raw_arguments: 'x' })).toBeUndefined();
  });

  test('a wrapper key holding a string (DeepSeek V4 DSML) is refused, saying what it holds and what to send', () => {
    expect(envelopeWhy({ arguments: 'ls -la /workspace' })).toBe(
      'they are a wrapper ("arguments") holding a string, not an object of the tool\'s parameters; send the arguments alone, as one object with the tool\'s declared parameters as its keys',
    );
  });

  test('each wrapper key holding no object is refused, naming what it holds; an echoed properties holding none is not', () => {
    const held: readonly (readonly [unknown, string])[] = [
      ['x', 'a string'],
      [5, 'a number'],
      [true, 'a boolean'],
      [[1], 'an array'],
      [null, 'null'],
    ];
    for (const key of ['arguments', 'parameters', 'input', 'args']) {
      for (const [value, words] of held) expect(envelopeWhy({ [key]: value }), `${key} ${words}`).toContain(`wrapper (${JSON.stringify(key)}) holding ${words}, not an object`);
    }
    expect(envelopeWhy({ properties: 'x' })).toBeUndefined();
    expect(envelopeWhy({ arguments: 'x', id: '1' })).toBeUndefined();
  });

  test('a wrapper holding a number read losslessly (5.0, a 20-digit integer) names a number', () => {
    for (const text of ['{"arguments": 5.0}', '{"arguments": 12345678901234567890}']) {
      const call = prepareToolCall(text, read, { lenient: true });
      expect(call.refusals.map((refusal) => refusal.message).join(), text).toContain('holding a number, not an object');
    }
  });

  test('no refusal where the root declares one of the envelope keys', () => {
    const schema = { ...read, properties: { ...read.properties, read_file: { type: 'object' }, type: { type: 'string' } } };
    expect(envelopeWhy({ read_file: { path: 'a' } }, schema, 'read_file')).toBeUndefined();
    expect(envelopeWhy({ type: 'function', parameters: { path: 'a' } }, schema)).toBeUndefined();
    expect(envelopeWhy({ _raw_arguments: 'x' }, { ...read, properties: { ...read.properties, _raw_arguments: { type: 'string' } } })).toBeUndefined();
    expect(envelopeWhy({ arguments: 'x' }, { ...read, properties: { ...read.properties, arguments: { type: 'string' } } })).toBeUndefined();
  });
});

describe('unwrap on a fresh import (the wrapper keys and schema keywords are module constants)', () => {
  // Built once when the module loads: a list built wrong is seen only by a test that loads it.
  beforeEach(() => {
    vi.resetModules();
  });

  async function freshUnwrap(args: unknown): Promise<unknown> {
    const fresh = await import('../src/index.js');
    const result = fresh.coerceArgs(args, read, { lenient: true });
    return result.changes.some((change) => change.rule === 'unwrap') ? result.value : undefined;
  }

  test('each wrapper key alone, and properties alone, is unwrapped', async () => {
    for (const key of ['arguments', 'parameters', 'input', 'args', 'properties']) expect(await freshUnwrap({ [key]: { path: 'a' } }), key).toEqual({ path: 'a' });
  });

  test('each wrapper key beside the tool name is unwrapped', async () => {
    const fresh = await import('../src/index.js');
    for (const key of ['arguments', 'parameters', 'input', 'args']) {
      expect(fresh.coerceArgs({ name: 't', [key]: { path: 'a' } }, read, { lenient: true, toolName: 't' }).value, key).toEqual({ path: 'a' });
    }
  });

  test('properties beside each schema keyword is unwrapped', async () => {
    const beside: Record<string, unknown> = { type: 'object', required: ['path'], title: 'Read', description: 'Reads a file', $schema: 'https://json-schema.org/draft/2020-12/schema', additionalProperties: false };
    for (const [keyword, value] of Object.entries(beside)) expect(await freshUnwrap({ properties: { path: 'a' }, [keyword]: value }), keyword).toEqual({ path: 'a' });
  });

  test('an empty key is no wrapper, alone or beside properties', async () => {
    expect(await freshUnwrap({ '': { path: 'a' } })).toBeUndefined();
    expect(await freshUnwrap({ properties: { path: 'a' }, '': 'x' })).toBeUndefined();
  });
});

describe('envelope refusals on a fresh import (the raw-text keys are a module constant)', () => {
  beforeEach(() => {
    vi.resetModules();
  });

  async function freshWhy(args: unknown): Promise<string | undefined> {
    const fresh = await import('../src/index.js');
    const refusal = fresh.coerceArgs(args, read, { lenient: true }).refusals.find((one) => one.path === '');
    return refusal?.message.split('at the root was left as it is: ')[1];
  }

  test("each engine's raw-text key holding text is refused, naming the key", async () => {
    for (const key of ['_raw_arguments', '__raw_arguments', '__raw_arguments__']) {
      expect(await freshWhy({ [key]: '{"path": "a"' }), key).toBe(
        `they are the text a serving engine or framework could not parse as JSON, kept under ${JSON.stringify(key)} in place of the arguments (its text may be cut off or malformed); send the arguments again, as one complete JSON object`,
      );
    }
    expect(await freshWhy({ _raw_arguments_: 'x' })).toBeUndefined();
  });

  test('a wrapper holding no object names what it holds, a boolean and a string among them', async () => {
    const words = (what: string) => `they are a wrapper ("arguments") holding ${what}, not an object of the tool's parameters; send the arguments alone, as one object with the tool's declared parameters as its keys`;
    expect(await freshWhy({ arguments: true })).toBe(words('a boolean'));
    expect(await freshWhy({ arguments: 'ls -la' })).toBe(words('a string'));
    expect(await freshWhy({ arguments: [] })).toBe(words('an array'));
    expect(await freshWhy({ arguments: null })).toBe(words('null'));
  });
});
