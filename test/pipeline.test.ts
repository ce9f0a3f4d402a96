import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { describe, expect, test } from 'vitest';
import { coerceArgsJson, formatToolCall, parseArgs, prepareToolCall } from '../src/index.js';
import { validateArgs } from '../src/validate.js';

const SCHEMA = {
  type: 'object',
  properties: { line: { type: 'integer' }, column: { type: 'integer' }, filePath: { type: 'string' } },
  required: ['line', 'filePath'],
};

describe('prepareToolCall', () => {
  test.each([
    ['true', true, 'true'],
    ['a string', 'ajv', 'ajv'],
    ['the validator module instead of its function', { validateArgs }, 'an object'],
    ['null', null, 'null'],
  ])('validate: %s is a TypeError, never a call that reads as validated', (_name, validate, got) => {
    for (const args of ['{"line":"five","filePath":"a.go"}', 'not json', { line: 'five' }]) {
      expect(() => prepareToolCall(args, SCHEMA, { validate } as never)).toThrow(new TypeError(
        `[schema-coerce] prepareToolCall: validate must be a function (validateArgs from 'schema-coerce/validate') or false, not ${got}`,
      ));
    }
  });

  test('validate: a function checks, false and absent do not, and neither throws', () => {
    const five = '{"line":"five","filePath":"a.go"}';
    expect(prepareToolCall(five, SCHEMA, { validate: validateArgs, toolName: 'goto' })).toMatchObject({ ok: false, message: expect.stringContaining('/line') });
    expect(prepareToolCall(five, SCHEMA, { validate: false }).ok).toBe(true);
    expect(prepareToolCall(five, SCHEMA, {}).ok).toBe(true);
  });

  test('text in: dispatch text and display text come from the same coerced value', () => {
    const raw = '{"line":5.0,"column":1.0,"filePath":"server.go"}';
    const call = prepareToolCall(raw, SCHEMA, { toolName: 'get_symbol_info' });
    expect(call).toMatchObject({ ok: true, json: '{"line":5,"column":1,"filePath":"server.go"}', errors: [], undeclared: [] });
    expect(call.display).toBe(`get_symbol_info(${call.json})`);
    expect(call.json).toBe(coerceArgsJson(raw, SCHEMA));
    expect(call.display).toBe(formatToolCall('get_symbol_info', parseArgs(raw), SCHEMA));
    expect(call.changes.map((c) => c.path)).toEqual(['/line', '/column']);
    expect(call.message).toBeUndefined();
  });

  test('unchanged text is dispatched byte-identical', () => {
    const raw = '{ "line": 5, "filePath": "a.go" }';
    expect(prepareToolCall(raw, SCHEMA).json).toBe(raw);
  });

  test('parsed arguments are accepted too', () => {
    const call = prepareToolCall(parseArgs('{"line":2.0,"filePath":"a"}'), SCHEMA);
    expect(call.json).toBe('{"line":2,"filePath":"a"}');
  });

  test('no schema: everything passes through, ok', () => {
    const raw = '{"line": 5.0}';
    const call = prepareToolCall(raw, undefined, { toolName: 't', validate: validateArgs, rejectUndeclared: true });
    expect(call).toMatchObject({ ok: true, json: raw, display: `t(${raw})`, changes: [], refusals: [] });
  });

  test('text that is not JSON: not ok, a message with the position, no throw', () => {
    const call = prepareToolCall('{"line": 5.0,]', SCHEMA, { toolName: 'get_symbol_info' });
    expect(call.ok).toBe(false);
    expect(call.args).toBeUndefined();
    expect(call.json).toBe('{"line": 5.0,]');
    expect(call.message).toBe(
      'Invalid parameters for tool "get_symbol_info": the arguments are not valid JSON (at line 1 column 14: Expected a quoted object key but got "]").\n' +
        'Send the arguments as one JSON object and call the tool again.',
    );
  });

  test('cyclic arguments: not ok, no throw', () => {
    const cyclic: Record<string, unknown> = { line: 1 };
    cyclic['self'] = cyclic;
    for (const schema of [SCHEMA, undefined]) {
      const call = prepareToolCall(cyclic, schema, { toolName: 't' });
      expect(call).toMatchObject({ ok: false, json: '', message: expect.stringContaining('cannot be written as JSON') });
    }
  });

  test('lenient coercion, then validation', () => {
    const call = prepareToolCall('{"line":"5","filePath":"a.go"}', SCHEMA, { lenient: true, validate: validateArgs });
    expect(call).toMatchObject({ ok: true, json: '{"line":5,"filePath":"a.go"}' });
  });

  test('validation failure: not ok, the errors and the model-facing message', () => {
    const call = prepareToolCall('{"line":"five","filePath":"a.go"}', SCHEMA, { lenient: true, validate: validateArgs, toolName: 'goto' });
    expect(call.ok).toBe(false);
    expect(call.refusals.map((r) => [r.path, r.reason])).toEqual([['/line', 'unconvertible']]);
    expect(call.errors.map((e) => [e.path, e.keyword])).toEqual([['/line', 'type']]);
    expect(call.message).toBe(
      'Invalid parameters for tool "goto": the arguments do not match the tool schema.\n/line: must be integer; you sent "five".\nCorrect the parameters and call the tool again.',
    );
  });

  test('rejectUndeclared works without a validator', () => {
    const call = prepareToolCall('{"lineNumber":5,"filePath":"a.go"}', SCHEMA, { rejectUndeclared: true, toolName: 'goto' });
    expect(call.ok).toBe(false);
    expect(call.undeclared).toEqual([{ path: '/lineNumber', key: 'lineNumber', suggestion: 'line' }]);
    expect(call.message).toContain('Expected parameters: line (integer, required), column (integer), filePath (string, required). You sent undeclared key(s): lineNumber (did you mean line?).');
  });

  test('renameUnambiguous renames first, so the renamed key is coerced by its own schema', () => {
    const schema = { type: 'object', properties: { thoughtNumber: { type: 'integer' } }, required: ['thoughtNumber'] };
    const call = prepareToolCall('{"thought_number":3.0}', schema, { renameUnambiguous: true, validate: validateArgs, rejectUndeclared: true });
    expect(call).toMatchObject({ ok: true, json: '{"thoughtNumber":3}' });
    expect(call.changes.map((c) => c.rule)).toEqual(['rename-key', 'integer-literal']);
  });

  test('a rename alone is dispatched: the text has the new name, not only the report', () => {
    const schema = { type: 'object', properties: { thoughtNumber: { type: 'integer' } } };
    for (const lenient of [false, true]) {
      const call = prepareToolCall('{"thought_number": 1}', schema, { renameUnambiguous: true, lenient });
      expect(call).toMatchObject({ ok: true, json: '{"thoughtNumber":1}', args: { thoughtNumber: expect.anything() } });
      expect(call.changes).toEqual([{ path: '/thoughtNumber', from: '"thought_number"', to: '"thoughtNumber"', rule: 'rename-key' }]);
    }
  });

  test('two keys that mean one declared name are refused with both named, never one value dropped (#29)', () => {
    const schema = { properties: { thoughtNumber: { type: 'integer' } } };
    const text = '{"thought_number":1,"ThoughtNumber":2}';
    const call = prepareToolCall(text, schema, { renameUnambiguous: true, toolName: 'think' });
    expect(call.ok).toBe(false);
    expect(call.json).toBe(text);
    expect(call.changes).toEqual([]);
    expect(call.undeclared).toEqual([
      { path: '/thought_number', key: 'thought_number', suggestion: 'thoughtNumber' },
      { path: '/ThoughtNumber', key: 'ThoughtNumber', suggestion: 'thoughtNumber' },
    ]);
    expect(call.message).toBe(
      'Invalid parameters for tool "think": the parameter names do not match the tool schema.\n' +
        'Expected parameters: thoughtNumber (integer). You sent undeclared key(s): thought_number (did you mean thoughtNumber?), ThoughtNumber (did you mean thoughtNumber?).\n' +
        'Correct the parameters and call the tool again.',
    );
    // A validator's own verdict comes first; without renaming, the keys are only undeclared.
    expect(prepareToolCall(text, schema, { renameUnambiguous: true, validate: validateArgs, rejectUndeclared: true }).undeclared).toHaveLength(2);
    expect(prepareToolCall(text, schema).ok).toBe(true);
  });

  test('the MCP SDK\'s own Ajv provider plugs in', () => {
    const provider = new AjvJsonSchemaValidator();
    const verdict = validateArgs(parseArgs('{"line":"x","filePath":"a"}'), SCHEMA, { provider, toolName: 'goto' });
    expect(verdict).toMatchObject({ ok: false, validator: 'provider' });
    if (!verdict.ok) expect(verdict.message).toContain('must be integer');
    expect(validateArgs(parseArgs('{"line":9007199254740993,"filePath":"a"}'), SCHEMA, { provider })).toEqual({ ok: true, validator: 'provider' });
  });

  test('a provider that throws on the arguments fails closed, not fatal', () => {
    const provider = { getValidator: () => () => { throw new Error('broken'); } };
    expect(validateArgs({ line: 1, filePath: 'a' }, SCHEMA, { provider })).toMatchObject({ ok: false, validator: 'provider', reason: expect.stringContaining('broken') });
  });
});

describe('rejectRefused: what coercion refused fails the call, without a validator', () => {
  const schema = { type: 'object', properties: { line: { type: 'integer' }, format: { enum: ['markdown', 'html'] } } };

  test('a value no safe conversion fixes is named in the message, and the call is not ok', () => {
    const call = prepareToolCall('{"line":"five","format":"Customer"}', schema, { lenient: true, rejectRefused: true, toolName: 'open' });
    expect(call.ok).toBe(false);
    expect(call.errors).toStrictEqual([
      { path: '/line', keyword: 'type', message: 'must be integer' },
      { path: '/format', keyword: 'enum', message: 'must be one of "markdown", "html"' },
    ]);
    expect(call.message).toContain('/line: must be integer; you sent "five".');
    expect(call.message).toContain('/format: must be one of "markdown", "html"; you sent "Customer".');
  });

  test('a fraction at an integer position is named as not whole', () => {
    const call = prepareToolCall('{"line":5.5}', schema, { rejectRefused: true });
    expect(call.ok).toBe(false);
    expect(call.errors).toStrictEqual([{ path: '/line', keyword: 'type', message: 'must be a whole number' }]);
  });

  test('without it, or when nothing was refused, the call stays ok', () => {
    expect(prepareToolCall('{"line":"five"}', schema, { lenient: true }).ok).toBe(true);
    const call = prepareToolCall('{"line":"5","format":"HTML"}', schema, { lenient: true, rejectRefused: true });
    expect(call).toMatchObject({ ok: true, json: '{"line":5,"format":"html"}', errors: [] });
  });
});
