/**
 * The schema-level rules of what models send: separator text is never wrapped, optional nulls,
 * wrappers and flattened keys. The rows of `fixtures/lenient` and `fixtures/wild` carry most
 * cases as data; these tests check what a row cannot: bytes kept, messages, every entry point.
 */
import { describe, expect, test } from 'vitest';
import { coerceArgs, coerceArgsJson, parseArgs, prepareToolCall, stringifyArgs } from '../src/index.js';
import { coerceArgsJsonEdits } from '../src/coerce/coerce.js';
import { listOf } from './_helpers/text-edits.js';
import { validateArgs } from '../src/validate.js';
import { deepFreeze } from './_helpers/fixtures.js';
import { runCli } from './_helpers/run.js';

const tags = { type: 'object', properties: { note_types: { type: 'array', items: { type: 'string' } }, limit: { type: 'integer' } } };

describe('separator text is never wrapped', () => {
  test('the refusal names the position and asks for an array', () => {
    const { refusals } = coerceArgs(parseArgs('{"note_types":"note,task"}'), tags, { lenient: true });
    expect(refusals.map(({ path, reason, expected, message }) => ({ path, reason, expected, message }))).toEqual([
      {
        path: '/note_types',
        reason: 'ambiguous',
        expected: ['array'],
        message: '"note,task" at /note_types was left as it is: it has more than one reading the schema accepts: ["note,task"] (wrap-in-array), ["note","task"] (list-split); expected array',
      },
    ]);
  });

  test('the text path keeps every byte but the span that converts', () => {
    expect(coerceArgsJson('{ "note_types" : "note, task",\n  "limit": "5" }', tags, { lenient: true })).toBe('{ "note_types" : "note, task",\n  "limit": 5 }');
  });

  test('prepareToolCall with rejectRefused names both readings and asks for one', () => {
    const call = prepareToolCall('{"note_types":"note;task"}', tags, { lenient: true, rejectRefused: true, toolName: 'search_notes' });
    expect(call.ok).toBe(false);
    expect(call.json).toBe('{"note_types":"note;task"}');
    expect(call.message).toContain('/note_types: has more than one reading the schema accepts: ["note;task"] (wrap-in-array), ["note","task"] (list-split); send exactly one; you sent "note;task".');
  });
});

const read = deepFreeze({
  type: 'object',
  properties: {
    path: { type: 'string' },
    offset: { type: 'integer' },
    limit: { type: 'integer' },
    filter: { type: 'object', properties: { glob: { type: 'string' }, depth: { type: 'integer' } } },
  },
  required: ['path'],
  additionalProperties: false,
});

describe('every entry point', () => {
  const cases = [
    ['optional nulls', '{"path":"a","offset":null,"limit":null}', '{"path":"a"}', ['optional-null', 'optional-null']],
    ['a wrapper', '{"arguments":{"path":"a","limit":"5"}}', '{"path":"a","limit":5}', ['unwrap', 'string-to-integer']],
    ['flattened keys', '{"path":"a","filter.glob":"*.ts","filter.depth":2}', '{"path":"a","filter":{"glob":"*.ts","depth":2}}', ['flattened-key', 'flattened-key']],
  ] as const;

  test.each(cases)('%s: coerceArgsJson, the proxy\'s edits, prepareToolCall with Ajv', (_name, input, output, rules) => {
    expect(coerceArgsJson(input, read, { lenient: true })).toBe(output);
    expect(listOf(coerceArgsJsonEdits(input, read, { lenient: true }))).toEqual([{ start: 0, end: input.length, text: output }]);
    const call = prepareToolCall(input, read, { lenient: true, validate: validateArgs, rejectUndeclared: true, toolName: 'read_file' });
    expect(call).toMatchObject({ ok: true, json: output, display: `read_file(${output})` });
    expect(call.changes.map((change) => change.rule)).toEqual(rules);
    // Without the rules the same arguments fail validation: the repairs are what makes them pass.
    const strict = prepareToolCall(input, read, { validate: validateArgs, rejectUndeclared: true });
    expect(strict.ok).toBe(false);
  });

  test.each(cases)('%s: the CLI with --lenient', (_name, input, output, rules) => {
    const run = runCli(['--lenient', '--report', '-s', JSON.stringify(read), input]);
    expect(run.status).toBe(0);
    expect(run.stdout).toBe(`${output}\n`);
    expect(run.stderr.trim().split('\n').map((line) => (JSON.parse(line) as { rule: string }).rule)).toEqual(rules);
  });

  test('the tool\'s name, given to prepareToolCall, unwraps a repeated call', () => {
    const text = '{"name":"read_file","arguments":{"path":"a"}}';
    expect(prepareToolCall(text, read, { lenient: true, toolName: 'read_file' })).toMatchObject({ ok: true, json: '{"path":"a"}' });
    expect(prepareToolCall(text, read, { lenient: true, toolName: 'write_file' }).json).toBe(text);
    expect(coerceArgsJson(text, read, { lenient: true, toolName: 'read_file' })).toBe('{"path":"a"}');
  });

  test('nothing to reshape: the same reference and the same text come back', () => {
    const args = deepFreeze(parseArgs('{"path":"a","filter":{"glob":"*"}}'));
    expect(coerceArgs(args, read, { lenient: true }).value).toBe(args);
    const text = '{ "path": "a", "note.x": 1 }';
    expect(coerceArgsJson(text, read, { lenient: true })).toBe(text);
  });

  test('an undeclared key that spells no path leaves the text path its bytes', () => {
    expect(coerceArgsJson('{ "path": "a", "x": 1, "limit": "5" }', read, { lenient: true })).toBe('{ "path": "a", "x": 1, "limit": 5 }');
  });

  test('a text the object path must decide keeps its bytes when the rules change nothing', () => {
    // A required null and a key that only looks flattened are handed to the object path, which changes nothing.
    for (const text of ['{ "path": null }', '{ "path": "a", "nope.x": 1 }', '{ "arguments": { "path": "a", "x": 1 } }']) {
      expect(coerceArgsJson(text, read, { lenient: true })).toBe(text);
      expect(coerceArgsJsonEdits(text, read, { lenient: true }).length).toBe(0);
    }
  });
});

describe('linear in depth', () => {
  test('an optional null and a flattened key 5,000 objects down', () => {
    const depth = 5000;
    const schema = { $defs: { node: { type: 'object', properties: { next: { $ref: '#/$defs/node' }, leaf: { type: 'object', properties: { n: { type: 'integer' } } }, gone: { type: 'string' } } } }, $ref: '#/$defs/node' };
    const text = '{"next":'.repeat(depth) + '{"gone":null,"leaf.n":"1"}' + '}'.repeat(depth);
    const out = coerceArgsJson(text, schema, { lenient: true });
    expect(out).toBe('{"next":'.repeat(depth) + '{"leaf":{"n":1}}' + '}'.repeat(depth));
    const { changes } = coerceArgs(parseArgs(text), schema, { lenient: true });
    expect(changes.map((change) => change.rule)).toEqual(['optional-null', 'flattened-key', 'string-to-integer']);
    expect(changes[0]!.path).toBe('/next'.repeat(depth) + '/gone');
  });
});

describe('pure', () => {
  test('frozen arguments and schemas, reshaped: the input is never touched', () => {
    const args = deepFreeze(parseArgs('{"arguments":{"path":"a","offset":null,"filter.depth":"2"}}'));
    const before = stringifyArgs(args);
    // The inner object has an undeclared (flattened) key, so the wrapper stays; the inside is not walked.
    expect(stringifyArgs(coerceArgs(args, read, { lenient: true }).value)).toBe(before);
    const inner = deepFreeze(parseArgs('{"path":"a","offset":null,"filter.depth":"2"}'));
    expect(stringifyArgs(coerceArgs(inner, read, { lenient: true }).value)).toBe('{"path":"a","filter":{"depth":2}}');
    expect(stringifyArgs(inner)).toBe('{"path":"a","offset":null,"filter.depth":"2"}');
  });
});
