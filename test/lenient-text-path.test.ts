import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { coerceArgs, coerceArgsJson, parseArgs, stringifyArgs, type CoerceOptions } from '../src/index.js';
import { scanJson, scanningPlain } from '../src/json/scanner.js';
import { coerceArgsJsonEdits, type TextEdits } from '../src/coerce/coerce.js';
import { listOf } from './_helpers/text-edits.js';

// Lenient mode on the text path: only the spans that change are rewritten, every other byte kept.

/** `text` with `edits` applied, the plain way. */
const applyEdits = (text: string, compact: TextEdits): string => {
  const edits = listOf(compact)!;
  let output = '';
  let from = 0;
  for (const edit of edits) {
    expect(edit.start).toBeGreaterThanOrEqual(from);
    output += text.slice(from, edit.start) + edit.text;
    from = edit.end;
  }
  return output + text.slice(from);
};
const typed = (type: string) => ({ type });
const schema = {
  type: 'object',
  properties: {
    page: typed('integer'), deleted: typed('boolean'), note: typed('string'), ratio: typed('number'),
    tags: { type: 'array', items: typed('string') }, ids: { type: 'array', items: typed('integer') },
    flags: { type: 'array', items: { type: ['boolean', 'null'] } },
  },
};

const ROWS: [name: string, input: string, expected: string][] = [
  ['a numeric string, white space kept', '{ "page" : "2" ,\n  "note": "x" }', '{ "page" : 2 ,\n  "note": "x" }'],
  ['a boolean string and a wrapped scalar', '{\n\t"deleted": "false",\n\t"tags": "urgent"\n}', '{\n\t"deleted": false,\n\t"tags": ["urgent"]\n}'],
  ['JSON text in a string, parsed and coerced, written compact', '{"ids": "[1271, 2106.0]",  "note": "keep  me"}', '{"ids": [1271,2106],  "note": "keep  me"}'],
  ['a number where a string is wanted', '{"note": 4.50 }', '{"note": "4.50" }'],
  ['an integer literal restored among lenient rows', '{"page": 3.0, "ratio": "0.5"}', '{"page": 3, "ratio": 0.5}'],
  ['escapes elsewhere are copied as they came', '{"note": "\\u0041", "page": "7"}', '{"note": "\\u0041", "page": 7}'],
  ['true wrapped where only an array is accepted, what follows kept', '{"flags": true , "note": "t"}', '{"flags": [true] , "note": "t"}'],
  ['false wrapped, what follows kept', '{"flags": false , "note": "f"}', '{"flags": [false] , "note": "f"}'],
  ['a refused string keeps its escapes as written', '{"page": "\\u0061bc", "ids": "7"}', '{"page": "\\u0061bc", "ids": [7]}'],
  ['a refused value stays, byte for byte', '{"page": "abc" , "deleted": "no"}', '{"page": "abc" , "deleted": "no"}'],
];

test.each(ROWS)('%s', (_name, input, expected) => {
  const output = coerceArgsJson(input, schema, { lenient: true });
  expect(output).toBe(expected);
  // The proxy writes the same output as the input's bytes with the rewritten spans spliced in.
  const edits = coerceArgsJsonEdits(input, schema, { lenient: true });
  expect(applyEdits(input, edits)).toBe(expected);
  expect(edits.length > 0).toBe(expected !== input);
  for (const edit of listOf(edits)!) expect(input.slice(edit.start, edit.end)).not.toBe(edit.text);
  // The same decisions as the object path, value for value.
  expect(stringifyArgs(parseArgs(output))).toBe(stringifyArgs(coerceArgs(parseArgs(input), schema, { lenient: true }).value));
});

test('nothing to change gives the input string back', () => {
  const input = '{ "page": 2, "tags": ["a"] }';
  expect(coerceArgsJson(input, schema, { lenient: true })).toBe(input);
  expect(coerceArgsJsonEdits(input, schema, { lenient: true }).length).toBe(0);
});

test.each([
  ['more rewrites than one chunk of output holds', `[${Array.from({ length: 5000 }, (_, i) => `${i}.0`).join(', ')}]`, { type: 'array', items: { type: 'integer' } }, {}],
  ['double-encoded arguments under the syntax rule', JSON.stringify('{"page": 3.0}'), schema, { lenient: true }],
  ['a schema whose reading throws: the text as it is', '{"page": 3.0}', new Proxy({}, { get: () => { throw new Error('hostile'); } }), {}],
] as const)('the edits give what coerceArgsJson returns: %s', (_name, input, rowSchema, options) => {
  expect(applyEdits(input, coerceArgsJsonEdits(input, rowSchema, options))).toBe(coerceArgsJson(input, rowSchema, options));
});

test('a repeated key with equal values: the edits rewrite each occurrence alike, the same value coerceArgsJson reads', () => {
  const input = '{"page": 2.0, "page": 2.0}';
  const edited = applyEdits(input, coerceArgsJsonEdits(input, schema));
  expect(edited).toBe('{"page": 2, "page": 2}');
  expect(parseArgs(edited)).toEqual(parseArgs(coerceArgsJson(input, schema)));
  expect(() => coerceArgsJsonEdits('{"page": 2.0, "page": 3.0}', schema)).toThrow(/Duplicate key 'page'/);
});

test('the edits refuse what coerceArgsJson refuses', () => {
  expect(() => coerceArgsJsonEdits('{"page": 1.0', schema)).toThrow(/cut off|end of input/i);
});

test('a repeated key is read by the object model and written back compact', () => {
  expect(coerceArgsJson('{"page": "2", "page": "2"}', schema, { lenient: true })).toBe('{"page":2}');
});

test('a schema that throws when read leaves the text as it is, and text that is not JSON (or cut off) still throws', () => {
  const hostile = new Proxy({}, { get: () => { throw new Error('hostile'); }, ownKeys: () => { throw new Error('hostile'); } });
  expect(coerceArgsJson('{"page": "2"}', hostile, { lenient: true })).toBe('{"page": "2"}');
  expect(() => coerceArgsJson('{"page": ]', hostile, { lenient: true })).toThrow(/invalid JSON/);
  expect(() => coerceArgsJson('{"page": ', hostile, { lenient: true })).toThrow(/the arguments were cut off/);
});

// `scanningPlain`: the proxy has checked the text holds no character below U+0020, and its
// strings are read by native searches for the closing quote and the next backslash. Same edits,
// same errors.
describe('coerceArgsJsonEdits on plain text', () => {
  /** What `coerceArgsJsonEdits` gives: its edits, or the message it throws. */
  const outcome = (text: string, plain: boolean, options: CoerceOptions): unknown => {
    if (plain) scanningPlain(text);
    try {
      return listOf(coerceArgsJsonEdits(text, schema, options));
    } catch (error) {
      return (error as Error).message;
    } finally {
      scanningPlain(undefined);
    }
  };
  /** Text pieces that make strings with and without escapes, bad escapes, and broken JSON. */
  const piece = fc.constantFrom('{', '}', '[', ']', ',', ':', '"', '\\', '\\"', '\\\\', '\\n', '\\u0041', '\\u00', '\\x', 'a', 'é', ' ', '1', '2.0', '"page"', '"ids"', '"note"', '"[1, 2.0]"', '"2"', 'true', '\u0001');

  test('reads every text as the full scan does', () => {
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 24 }), fc.boolean(), (pieces, lenient) => {
        const text = pieces.join('');
        if (/[\u0000-\u001f]/.test(text)) return; // not plain: the proxy never says so
        const options = { lenient };
        expect(outcome(text, true, options)).toEqual(outcome(text, false, options));
      }),
      { seed: 20261130, numRuns: 10_000 },
    );
  });

  test('a text scanned again from its start is read as the first time (the object model reads a text the text path gave up on)', () => {
    const text = '{"note":"a\\"b","page":1,"tags":["x"]}';
    /** The tokens one scan of `text` reports. */
    const tokens = (): string[] => {
      const seen: string[] = [];
      const record = (kind: string) => (start: number, end: number): void => void seen.push(`${kind} ${text.slice(start, end)}`);
      try {
        scanJson(text, { open: () => undefined, close: () => undefined, key: (key) => void seen.push(`key ${key}`), string: record('string'), number: record('number'), literal: () => undefined });
      } catch (error) {
        seen.push((error as Error).message);
      }
      return seen;
    };
    const full = tokens();
    scanningPlain(text);
    try {
      expect(tokens()).toEqual(full);
      expect(tokens()).toEqual(full);
    } finally {
      scanningPlain(undefined);
    }
  });

  test.each([
    ['strings, escapes and a repair', '{"note":"a \\"quoted\\" \\\\ path","page":2.0,"tags":["x","y\\u0041"]}'],
    ['a backslash after the last string', '{"note":"plain","page":1.0}\\'],
    // A repeated key: the object model reads the text again from its start.
    ['a repeated key and escaped quotes', '{"note":"\\"","note":"\\"","page":2.0}'],
    ['a bad escape', '{"note":"a\\x"}'],
    ['an unterminated string', '{"note":"abc'],
    // The JSON text inside a string is another text: its strings are read in full, and the
    // control character its escape decodes to is refused there as it is without `plain`.
    ['JSON text whose string decodes to a control character', '{"tags":"[\\"a\\u0001\\"]","page":"2"}'],
  ])('%s', (_name, text) => {
    for (const lenient of [false, true]) expect(outcome(text, true, { lenient })).toEqual(outcome(text, false, { lenient }));
  });
});
