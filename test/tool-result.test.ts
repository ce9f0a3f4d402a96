/**
 * `repairToolResult`: the rows of fixtures/results/ (raw result text in, raw text out, byte for
 * byte), each run on the text and on the object `parseArgs` reads from it; then what no row can
 * say: purity, the same reference when nothing changed, text that is not JSON, repeated keys,
 * hostile values and previews.
 */
import { describe, expect, test } from 'vitest';
import { ArgsParseError, parseArgs, stringifyArgs, type Change, type CoerceOptions, type Refusal } from '../src/index.js';
import { repairToolResult, type ToolResultRepairOptions } from '../src/mcp.js';
import { applyTextEdits } from '../src/coerce/text-edits.js';
import { toolResultEdits } from '../src/report/tool-result.js';
import { validateArgs } from '../src/validate.js';
import { deepFreeze, loadFixtures } from './_helpers/fixtures.js';

interface ResultCase {
  readonly name: string;
  readonly schema: unknown;
  /** The result as raw JSON text. */
  readonly input: string;
  readonly expected: string;
  readonly options?: { readonly integerRange?: CoerceOptions['integerRange']; readonly validate?: boolean };
  readonly changes: readonly Change[];
  readonly refusals: readonly Partial<Refusal>[];
  /** What the validator found, when `structuredContent` was dropped. */
  readonly errors?: readonly { readonly path: string; readonly keyword: string }[];
}

const optionsOf = (row: ResultCase): ToolResultRepairOptions => ({
  ...(row.options?.integerRange === undefined ? {} : { integerRange: row.options.integerRange }),
  ...(row.options?.validate === true ? { validate: validateArgs, toolName: 'tool' } : {}),
});

describe.each(loadFixtures<ResultCase>('results'))('$file', ({ cases }) => {
  test.each(cases)('text: $name', (row) => {
    const repaired = repairToolResult(row.input, row.schema, optionsOf(row));
    expect(repaired.result).toBe(row.expected);
    expect(repaired.changes).toEqual(row.changes);
    expect(repaired.refusals).toHaveLength(row.refusals.length);
    row.refusals.forEach((refusal, i) => expect(repaired.refusals[i]).toMatchObject(refusal));
    expect(repaired.errors.map(({ path, keyword }) => ({ path, keyword }))).toEqual(row.errors ?? []);
    if (row.expected === row.input) expect(repaired.result).toBe(row.input);
  });

  test.each(cases)('edits: $name', (row) => {
    const { edits, ...report } = toolResultEdits(row.input, row.schema, optionsOf(row));
    const { result: _result, ...told } = repairToolResult(row.input, row.schema, optionsOf(row));
    expect(applyTextEdits(row.input, edits)).toBe(row.expected);
    expect(report).toEqual(told);
    // Only what changes is rewritten: no edit replaces a span by the same text.
    for (let i = 0; i < edits.length; i++) expect(edits.text(i)).not.toBe(row.input.slice(edits.start(i), edits.end(i)));
  });

  test.each(cases)('object: $name', (row) => {
    const input = deepFreeze(parseArgs(row.input));
    const repaired = repairToolResult(input, row.schema, optionsOf(row));
    expect(stringifyArgs(repaired.result)).toBe(stringifyArgs(parseArgs(row.expected)));
    expect(repaired.changes).toEqual(row.changes);
    expect(repaired.refusals.map(({ path, reason }) => ({ path, reason }))).toEqual(row.refusals.map(({ path, reason }) => ({ path, reason })));
    expect(repaired.errors.map(({ path, keyword }) => ({ path, keyword }))).toEqual(row.errors ?? []);
    if (row.changes.length === 0) expect(repaired.result).toBe(input);
  });
});

const COUNT = { type: 'object', properties: { count: { type: 'integer' } }, required: ['count'] };

describe('repairToolResult: what the rows cannot say', () => {
  test('without an output schema nothing is read: not even text that is not JSON', () => {
    for (const schema of [undefined, null]) {
      expect(repairToolResult('{"structuredContent":{"count":5.0}}', schema)).toEqual({ result: '{"structuredContent":{"count":5.0}}', changes: [], refusals: [], errors: [] });
      expect(repairToolResult('not json', schema).parseError).toBeUndefined();
    }
  });

  test('text that is not JSON comes back as it is, with the parse error', () => {
    const repaired = repairToolResult('{"structuredContent":{"count":5.0}', COUNT);
    expect(repaired.result).toBe('{"structuredContent":{"count":5.0}');
    expect(repaired.changes).toEqual([]);
    expect(repaired.parseError).toBeInstanceOf(ArgsParseError);
    expect(repaired.parseError!.truncated).toBe(false);
  });

  test('a key repeated inside structuredContent with two values is refused, its position told in the result', () => {
    const text = '{"content":[],"structuredContent":{"count":1,"count":2}}';
    const repaired = repairToolResult(text, COUNT);
    expect(repaired.result).toBe(text);
    expect(repaired.parseError!.reason).toBe("Duplicate key 'count'");
    expect(text.slice(repaired.parseError!.position)).toBe('"count":2}}');
    expect(repaired.parseError!.message).toBe(`[schema-coerce] invalid JSON at line 1 column ${repaired.parseError!.position! + 1} (position ${repaired.parseError!.position}): Duplicate key 'count'`);
  });

  test.each([
    ['structuredContent', '{"structuredContent":{"count":5.0},"structuredContent":{"count":5.0}}'],
    ['isError', '{"isError":false,"structuredContent":{"error":1},"isError":true}'],
  ])('a result naming %s twice is left as it is: readers disagree on which counts', (name, text) => {
    const repaired = repairToolResult(text, COUNT, { validate: validateArgs });
    expect(repaired.result).toBe(text);
    expect(repaired.changes).toEqual([]);
    expect(repaired.refusals).toEqual([
      { path: `/${name}`, value: undefined, reason: 'ambiguous', expected: [], message: `the result names "${name}" more than once, and readers disagree on which one counts: it was left as it is` },
    ]);
  });

  test('another repeated key does not move the spans of structuredContent', () => {
    const text = '{"structuredContent":{"count":5.0},"content":[],"content":[],"isError":true}';
    expect(repairToolResult(text, COUNT, { validate: validateArgs }).result).toBe('{"structuredContent":{"count":5},"content":[],"content":[],"isError":true}');
    expect(repairToolResult('{"content":[1],"structuredContent":{"x":1},"content":[1],"isError":true}', COUNT, { validate: validateArgs }).result).toBe('{"content":[1],"content":[1],"isError":true}');
  });

  test('an object result keeps every other member, its own order and a __proto__ key as data', () => {
    const result = deepFreeze(JSON.parse('{"__proto__":{"polluted":true},"content":[],"structuredContent":{"count":1.5,"n":2},"isError":true}') as Record<string, unknown>);
    const repaired = repairToolResult(result, COUNT, { validate: validateArgs });
    expect(Object.keys(repaired.result)).toEqual(['__proto__', 'content', 'isError']);
    expect(Object.getPrototypeOf(repaired.result)).toBe(Object.prototype);
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
    expect(repaired.errors.map((error) => error.keyword)).toEqual(['type']);
  });

  test('plain numbers (JSON.parse) are checked too: a fraction is refused, a whole one is already an integer', () => {
    const plain = deepFreeze({ content: [], structuredContent: { count: 2.5 } });
    expect(repairToolResult(plain, COUNT).refusals.map((refusal) => refusal.reason)).toEqual(['not-whole']);
    const whole = deepFreeze({ content: [], structuredContent: { count: 5 } });
    expect(repairToolResult(whole, COUNT).result).toBe(whole);
  });

  test('what is not an object with structuredContent, and a result without it, come back as they are', () => {
    for (const value of [null, 5, [1], new Map(), { content: [] }, { structuredContent: undefined }]) {
      expect(repairToolResult(value, COUNT, { validate: validateArgs })).toEqual({ result: value, changes: [], refusals: [], errors: [] });
    }
  });

  test('a validator is handed the repaired structuredContent, the schema, the tool name, and undeclared keys allowed', () => {
    const seen: unknown[] = [];
    const validate = (value: unknown, schema: unknown, options: object) => {
      seen.push(stringifyArgs(value), schema, options);
      return { ok: true };
    };
    repairToolResult('{"isError":true,"structuredContent":{"count":5.0}}', COUNT, { validate, toolName: 'files' });
    expect(seen).toEqual(['{"count":5}', COUNT, { rejectUndeclared: false, toolName: 'files' }]);
    seen.length = 0;
    repairToolResult({ isError: true, structuredContent: {} }, COUNT, { validate });
    expect(seen[2]).toStrictEqual({ rejectUndeclared: false });
  });

  test('a validator that gives no errors still has its verdict followed', () => {
    const repaired = repairToolResult({ isError: true, structuredContent: { count: 1 } }, COUNT, { validate: () => ({ ok: false }) });
    expect(repaired.result).toEqual({ isError: true });
    expect(repaired.errors).toEqual([]);
  });

  test('a dropped structuredContent is shown by the beginning of its JSON text, at most 200 characters', () => {
    const long = { note: 'x'.repeat(500) };
    const repaired = repairToolResult({ isError: true, structuredContent: long }, COUNT, { validate: validateArgs });
    expect(repaired.changes[0]!.from).toBe(`{"note":"${'x'.repeat(190)}…`);
    expect(repaired.changes[0]!.from).toHaveLength(200);
    const text = repairToolResult(`{"isError":true,"structuredContent":${JSON.stringify(long)}}`, COUNT, { validate: validateArgs });
    expect(text.changes[0]!.from).toBe(repaired.changes[0]!.from);
  });

  test('one that contains itself is dropped all the same, and said so', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic['self'] = cyclic;
    const repaired = repairToolResult({ isError: true, structuredContent: cyclic }, COUNT, { validate: validateArgs });
    expect(repaired.result).toEqual({ isError: true });
    expect(repaired.changes).toEqual([{ path: '/structuredContent', from: '(a value that contains itself)', to: '', rule: 'error-structured-content' }]);
  });

  test('a result whose reading throws is left as it is, with the reason', () => {
    const hostile = { get structuredContent(): unknown { throw new Error('no'); } };
    expect(repairToolResult(hostile, COUNT).refusals).toEqual([
      { path: '', value: hostile, reason: 'unreadable', expected: [], message: 'the result was left as it is: reading it threw (no)' },
    ]);
    const late = { structuredContent: { count: 1.5 }, get other(): unknown { throw 'later'; } };
    const repaired = repairToolResult(late, COUNT);
    expect(repaired.result).toBe(late);
    expect(repaired.refusals.map((refusal) => refusal.reason)).toEqual(['not-whole']);
    const copying = { structuredContent: { error: 1 }, isError: true, get other(): unknown { throw new Error('on copy'); } };
    expect(repairToolResult(copying, COUNT, { validate: validateArgs }).refusals[0]!.message).toBe('the result was left as it is: reading it threw (on copy)');
  });

  test('an error of the library\'s own is thrown, not reported as the result\'s', () => {
    const validate = () => {
      throw new TypeError('a bug');
    };
    expect(() => repairToolResult({ isError: true, structuredContent: {} }, COUNT, { validate })).toThrow('a bug');
    expect(() => repairToolResult('{"isError":true,"structuredContent":{}}', COUNT, { validate })).toThrow('a bug');
  });
});

describe('toolResultEdits: the text core the proxy splices', () => {
  const TOTAL = { type: 'object', properties: { total: { type: 'integer' } } };

  test('edits only the spans that change, at their places in the result', () => {
    const text = '{"content":[{"type":"text","text":"5.0"}],"structuredContent":{"total":5.0,"n":2.0}}';
    const { edits, changes } = toolResultEdits(text, { type: 'object', properties: { total: { type: 'integer' }, n: { type: 'integer' } } });
    expect(Array.from({ length: edits.length }, (_, i) => [edits.start(i), edits.end(i), edits.text(i)])).toEqual([
      [text.indexOf('5.0,') + 1, text.indexOf('5.0,') + 3, ''],
      [text.indexOf('2.0') + 1, text.indexOf('2.0') + 3, ''],
    ]);
    expect(changes.map((change) => change.path)).toEqual(['/structuredContent/total', '/structuredContent/n']);
  });

  test('the coercion\'s lenient rules apply when asked for (the proxy\'s --lenient), and not otherwise', () => {
    const text = '{"structuredContent":{"total":"7"}}';
    expect(applyTextEdits(text, toolResultEdits(text, TOTAL, { lenient: true }).edits)).toBe('{"structuredContent":{"total":7}}');
    expect(toolResultEdits(text, TOTAL).edits.length).toBe(0);
  });

  test('the tool\'s name goes to the validator, never to the coercion: a result named after its tool is not unwrapped', () => {
    const text = '{"structuredContent":{"name":"stats","input":{"total":5}}}';
    const schema = { type: 'object', properties: { total: { type: 'integer' } }, required: ['total'], additionalProperties: false };
    expect(toolResultEdits(text, schema, { lenient: true, toolName: 'stats' }).edits.length).toBe(0);
  });

  test('nothing to do: no edit, and nothing told', () => {
    for (const [text, schema] of [['{"structuredContent":{"total":5}}', TOTAL], ['{"structuredContent":{"total":5.0}}', undefined], ['{"content":[]}', TOTAL]] as const) {
      expect(toolResultEdits(text, schema)).toEqual({ edits: expect.objectContaining({ length: 0 }), changes: [], refusals: [], errors: [] });
    }
  });
});
