/**
 * `prepareToolCall` asked for each part of its answer: the text dispatched after a rename alone,
 * a syntax repair alone or nothing at all; what a validator is handed and how its verdict is
 * completed; the order of the changes; the errors `rejectRefused` makes of each kind of refusal;
 * the cut-off message; and a passing call carrying no message.
 */
import { describe, expect, test } from 'vitest';
import { InvalidArgsError, parseArgs, prepareToolCall, stringifyArgs, type ArgsValidator } from '../src/index.js';
import { deepFreeze } from './_helpers/fixtures.js';

const SCHEMA = deepFreeze({ type: 'object', properties: { line: { type: 'integer' }, filePath: { type: 'string' } }, required: ['line'] });

describe('the text dispatched', () => {
  test('a rename alone: the dispatched text has the declared name, and so has the display', () => {
    const call = prepareToolCall('{"Line": 5, "filePath": "a.go"}', SCHEMA, { renameUnambiguous: true, toolName: 'goto' });
    expect(call).toMatchObject({ ok: true, json: '{"line":5,"filePath":"a.go"}', display: 'goto({"line":5,"filePath":"a.go"})' });
    expect(call.changes).toEqual([{ path: '/line', from: '"Line"', to: '"line"', rule: 'rename-key' }]);
    expect(call.args).toEqual({ line: 5, filePath: 'a.go' });
  });

  test('nothing to rename or coerce: the text itself, white space and all', () => {
    const raw = '{ "line" : 5 }';
    expect(prepareToolCall(raw, SCHEMA, { renameUnambiguous: true }).json).toBe(raw);
  });

  test('parsed arguments with nothing to change are written out, with or without a schema', () => {
    for (const schema of [SCHEMA, undefined, null]) {
      const call = prepareToolCall(parseArgs('{ "line" : 5 }'), schema);
      expect(call).toMatchObject({ ok: true, json: '{"line":5}', display: '{"line":5}', changes: [] });
    }
  });

  test('a syntax repair alone, with or without a schema: the repaired text, its changes first', () => {
    const broken = "{'line': 5.0, 'filePath': 'a.go',}";
    const repaired = prepareToolCall(broken, undefined, { lenient: { syntax: true } });
    expect(repaired).toMatchObject({ ok: true, json: '{"line": 5.0, "filePath": "a.go"}' });
    expect(repaired.changes.map((change) => change.rule)).toEqual(['quotes', 'trailing-comma']);
    const coerced = prepareToolCall("{'Line': 5.0,}", SCHEMA, { lenient: { syntax: true }, renameUnambiguous: true });
    expect(coerced.json).toBe('{"line":5}');
    expect(coerced.changes.map((change) => change.rule)).toEqual(['quotes', 'trailing-comma', 'rename-key', 'integer-literal']);
  });

  test('without the syntax rule, the same text is not JSON', () => {
    expect(prepareToolCall("{'line': 5}", SCHEMA).ok).toBe(false);
  });
});

describe('a validator', () => {
  const recorded = (verdict: ReturnType<ArgsValidator>) => {
    const calls: unknown[][] = [];
    const validate: ArgsValidator = (...args) => (calls.push(args), verdict);
    return { calls, validate };
  };

  test('is handed the coerced arguments, the schema, the tool name when there is one, and rejectUndeclared', () => {
    const { calls, validate } = recorded({ ok: true });
    prepareToolCall('{"line":5.0}', SCHEMA, { validate, toolName: 'goto', rejectUndeclared: true });
    prepareToolCall('{"line":5.0}', SCHEMA, { validate });
    expect(calls.map(([args, schema, options]) => [stringifyArgs(args), schema === SCHEMA, options])).toEqual([
      ['{"line":5}', true, { toolName: 'goto', rejectUndeclared: true }],
      ['{"line":5}', true, { rejectUndeclared: false }],
    ]);
  });

  test('a failing verdict with nothing else: no errors, no keys, and the message written here', () => {
    const call = prepareToolCall('{"line":5}', SCHEMA, { validate: () => ({ ok: false }), toolName: 'goto' });
    expect(call).toMatchObject({ ok: false, errors: [], undeclared: [] });
    expect(call.message).toBe('Invalid parameters for tool "goto": the arguments do not match the tool schema.\nCorrect the parameters and call the tool again.');
  });

  test('a failing verdict with errors: they are described when it has no message, and its own message wins', () => {
    const errors = [{ path: '/line', keyword: 'maximum', message: 'must be <= 3' }];
    const described = prepareToolCall('{"line":5}', SCHEMA, { validate: () => ({ ok: false, errors }) });
    expect(described.errors).toEqual(errors);
    expect(described.message).toBe('Invalid parameters: the arguments do not match the tool schema.\n/line: must be <= 3; you sent 5.\nCorrect the parameters and call the tool again.');
    const own = prepareToolCall('{"line":5}', SCHEMA, { validate: () => ({ ok: false, errors, message: 'no.' }) });
    expect(own.message).toBe('no.');
  });

  test('a passing verdict: ok, and no message at all', () => {
    const call = prepareToolCall('{"line":5}', SCHEMA, { validate: () => ({ ok: true, errors: [{ path: '', keyword: 'x', message: 'ignored' }] }) });
    expect(call).toMatchObject({ ok: true, errors: [], undeclared: [] });
    expect('message' in call).toBe(false);
  });

  test('with a validator, rejectUndeclared and rejectRefused are its business', () => {
    const call = prepareToolCall('{"lineNo":5,"line":5.5}', SCHEMA, { validate: () => ({ ok: true }), rejectUndeclared: true, rejectRefused: true });
    expect(call).toMatchObject({ ok: true, errors: [], undeclared: [] });
  });
});

describe('without a validator', () => {
  test('an undeclared key and a refused value, both in one message', () => {
    const call = prepareToolCall('{"lineNo":5,"line":5.5}', SCHEMA, { rejectUndeclared: true, rejectRefused: true });
    expect(call.ok).toBe(false);
    expect(call.undeclared).toEqual([{ path: '/lineNo', key: 'lineNo' }]);
    expect(call.errors).toEqual([{ path: '/line', keyword: 'type', message: 'must be a whole number' }]);
    expect(call.message).toBe(
      'Invalid parameters: the parameter names do not match the tool schema.\n' +
        'Expected parameters: line (integer, required), filePath (string). You sent undeclared key(s): lineNo.\n' +
        '/line: must be a whole number; you sent 5.5.\nCorrect the parameters and call the tool again.',
    );
  });

  test.each([
    ['a type no conversion reaches', { anyOf: [{ type: 'integer' }, { type: 'null' }] }, '"x"', { keyword: 'type', message: 'must be null or integer' }],
    ['an integer out of range', { type: 'integer' }, '1e400', { keyword: 'type', message: 'must be integer' }],
    ['a value outside the enum', { enum: ['a', 'b'] }, '"c"', { keyword: 'enum', message: 'must be one of "a", "b"' }],
    ['a value under a schema that allows none', { type: 'string', enum: [] }, '"c"', { keyword: 'schema', message: 'cannot be checked' }],
  ])('rejectRefused: %s', (_name, property, value, issue) => {
    const call = prepareToolCall(`{"p":${value}}`, { properties: { p: property } }, { lenient: true, rejectRefused: true });
    expect(call.refusals).toHaveLength(1);
    expect(call.errors).toEqual([{ path: '/p', ...issue }]);
    expect(call.ok).toBe(false);
  });
});

describe('text cut off', () => {
  test('is never dispatched nor completed, and the message says where it ends', () => {
    const call = prepareToolCall('{"line": 5, "filePath": "a.g', SCHEMA, { toolName: 'goto' });
    expect(call).toMatchObject({ ok: false, args: undefined, json: '{"line": 5, "filePath": "a.g', changes: [], display: 'goto({"line": 5, "filePath": "a.g)' });
    expect(call.parseError?.truncated).toBe(true);
    expect(call.message).toBe(
      `Invalid parameters for tool "goto": the arguments were cut off before they were complete (they end at line 1 column ${call.parseError?.column}: ${call.parseError?.reason}), most likely at the output-token limit.\n` +
        'Nothing was run. Send shorter arguments, or do the work in smaller steps (for example, write a large file in several calls), and call the tool again.',
    );
    expect(call.parseError?.column).toBe(29);
  });
});

describe('every field of the answer', () => {
  test('no schema: the validator is never asked, and nothing is reported', () => {
    let asked = 0;
    for (const schema of [undefined, null]) {
      const call = prepareToolCall('{"n": 5.0}', schema, { validate: () => (asked++, { ok: false, message: 'no.' }), rejectUndeclared: true, rejectRefused: true });
      expect(call).toStrictEqual({ ok: true, args: call.args, json: '{"n": 5.0}', display: '{"n": 5.0}', changes: [], refusals: [], errors: [], undeclared: [] });
    }
    expect(asked).toBe(0);
  });

  test('a call that does not go on reports nothing but its message (and its parse error)', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic['self'] = cyclic;
    const unwritable = prepareToolCall(cyclic, SCHEMA);
    expect(unwritable).toStrictEqual({
      ok: false, args: cyclic, json: '', display: '', changes: [], refusals: [], errors: [], undeclared: [],
      message: 'Invalid parameters: the arguments cannot be written as JSON (they contain themselves).',
    });
    const broken = prepareToolCall('{"line": 5,]', SCHEMA);
    expect({ ...broken, message: undefined, parseError: undefined }).toStrictEqual({
      ok: false, args: undefined, json: '{"line": 5,]', display: '{"line": 5,]', changes: [], refusals: [], errors: [], undeclared: [], message: undefined, parseError: undefined,
    });
    expect(broken.parseError?.position).toBe(11);
  });

  test('the validator is handed no toolName field at all when there is none', () => {
    const seen: unknown[] = [];
    prepareToolCall('{"line":5}', SCHEMA, { validate: (_a, _s, options) => (seen.push(options), { ok: true }) });
    expect(seen).toStrictEqual([{ rejectUndeclared: false }]);
  });

  test('a failing validator\'s own verdict stands even when two keys meant one declared name', () => {
    const schema = { type: 'object', properties: { thoughtNumber: { type: 'integer' } } };
    const call = prepareToolCall('{"thought_number":1,"ThoughtNumber":2}', schema, { renameUnambiguous: true, validate: () => ({ ok: false, message: 'no.', undeclared: [] }) });
    expect(call).toMatchObject({ ok: false, message: 'no.', undeclared: [] });
  });

  test('InvalidArgsError carries the call and its message, or a plain one', () => {
    const call = prepareToolCall('{"line":"x"}', SCHEMA, { validate: () => ({ ok: false, message: 'no.' }) });
    const error = new InvalidArgsError(call);
    expect([error.name, error.message, error.detail, error.call]).toEqual(['InvalidArgsError', '[schema-coerce] no.', 'no.', call]);
    const { message: _none, ...silent } = call;
    expect(new InvalidArgsError(silent as typeof call).message).toBe('[schema-coerce] invalid tool arguments');
  });
});
