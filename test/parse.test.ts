/**
 * The JSON boundary against the platform's own parser, on random text: valid JSON with escapes,
 * control characters, a BOM, lone surrogates and odd white space spliced in, or cut short.
 * `parseArgs` and `coerceArgsJson` throw `ArgsParseError` exactly when `JSON.parse` throws, and
 * otherwise read the same value; the one documented difference is that a duplicate key is refused.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { ArgsParseError, coerceArgsJson, parseArgs, stringifyArgs, toPlainNumbers } from '../src/index.js';

const seed = Number(process.env['FC_SEED'] ?? 20261129);
const numRuns = Number(process.env['FC_RUNS'] ?? 500) * 4;

/** Integers wherever they may be, at any depth: the text path rewrites number literals here. */
const ANY_DEPTH = { anyOf: [{ type: 'integer' }, { type: 'array', items: { $ref: '#' } }, { type: 'object', additionalProperties: { $ref: '#' } }] };

const CONTROL = Array.from({ length: 0x20 }, (_, code) => String.fromCharCode(code));
/** Pieces that sit on the edge of the grammar: escapes valid and not, raw controls, odd white space. */
const PIECE = fc.constantFrom(
  '\\v', '\\x41', '\\a', '\\0', '\\\'', '\\u12', '\\u00e9', '\\uD800', '\\udc00', '\\uZZZZ', '\\/', '\\b', '\\f', '\\n', '\\r', '\\t', '\\"', '\\\\', '\\',
  ...CONTROL, '\u007f', '\u00a0', '\u2028', '\u2029', '\ufeff', '\ud800', '\udc00', '\ud83d\ude00',
  '"', ',', ':', '[', ']', '{', '}', '.', 'e', 'E', '-', '+', '0', '01', '1', ' ', 'tru', 'nul', 'fals', 'NaN', 'Infinity', '1e', '.5', '5.', '0x1',
);

/** Valid JSON text, compact or spread out, numbers spelled as pipelines spell them. */
const jsonText = fc.oneof(
  fc.json({ maxDepth: 3 }),
  fc.tuple(fc.json({ maxDepth: 2 }), fc.constantFrom(' ', '\n', '\t', '\r\n')).map(([text, space]) => text.replace(/([,:[{])/g, `$1${space}`)),
  fc.constantFrom('{"n":5.0}', '[1,2.50,-0,1e400,1E+2]', '{"a":{"b":[{"c":"\\u00e9\\n"}]}}', '"\\ud83d\\ude00"', '{"__proto__":1}', '{"a":1,"b":{"a":2}}'),
);

interface Edit { readonly at: number; readonly remove: number; readonly insert: string }

/** Text that is JSON, JSON with pieces spliced in or cut out, or a string literal of random pieces. */
const text = fc.oneof(
  { arbitrary: jsonText, weight: 2 },
  {
    arbitrary: fc.tuple(jsonText, fc.array(fc.record({ at: fc.nat(), remove: fc.nat({ max: 2 }), insert: fc.oneof(PIECE, fc.constant('')) }), { minLength: 1, maxLength: 3 }))
      .map(([source, edits]) => edits.reduce((acc: string, { at, remove, insert }: Edit) => {
        const i = at % (acc.length + 1);
        return acc.slice(0, i) + insert + acc.slice(i + remove);
      }, source)),
    weight: 4,
  },
  { arbitrary: fc.tuple(jsonText, fc.nat()).map(([source, at]) => source.slice(0, at % (source.length + 1))), weight: 1 },
  { arbitrary: fc.array(fc.oneof(PIECE, fc.string({ maxLength: 2 })), { maxLength: 6 }).map((pieces) => `"${pieces.join('')}"`), weight: 3 },
  { arbitrary: fc.tuple(PIECE, jsonText, PIECE).map(([before, source, after]) => before + source + after), weight: 1 },
);

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };
const attempt = (run: () => unknown): Outcome => {
  try {
    return { ok: true, value: run() };
  } catch (error) {
    return { ok: false, error };
  }
};

/** `-0` read as `0`: integer restoration writes `-0.0` as `0`, the same JSON number. */
const plain = (value: unknown): unknown => JSON.parse(JSON.stringify(value), (_key, v: unknown) => (Object.is(v, -0) ? 0 : v));

/** True when `error` is the documented refusal of a key that `text` really repeats in one object. */
function isDuplicateKeyRefusal(error: unknown, text: string): boolean {
  if (!(error instanceof ArgsParseError) || !error.reason.startsWith('Duplicate key ')) return false;
  const key = error.reason.slice('Duplicate key '.length + 1, -1);
  const at = error.position!;
  const end = text.indexOf('"', at + 1);
  let close = end;
  while (close !== -1 && text[close - 1] === '\\') close = text.indexOf('"', close + 1);
  return text[at] === '"' && close !== -1 && JSON.parse(text.slice(at, close + 1)) === key;
}

describe(`parseArgs and coerceArgsJson against JSON.parse (seed ${seed}, ${numRuns} runs)`, () => {
  test('they throw ArgsParseError exactly when JSON.parse throws, and read the same value when it does not', () => {
    let invalid = 0;
    let duplicates = 0;
    fc.assert(fc.property(text, (source) => {
      const native = attempt(() => JSON.parse(source) as unknown);
      const parsed = attempt(() => parseArgs(source));
      const same = attempt(() => coerceArgsJson(source, {}));
      const rewritten = attempt(() => coerceArgsJson(source, ANY_DEPTH));
      if (!native.ok) {
        invalid++;
        for (const outcome of [parsed, same, rewritten]) {
          expect(outcome.ok).toBe(false);
          if (!outcome.ok) {
            expect(outcome.error).toBeInstanceOf(ArgsParseError);
            const { position } = outcome.error as ArgsParseError;
            expect(position).toBeGreaterThanOrEqual(0);
            expect(position).toBeLessThanOrEqual(source.length);
          }
        }
        return;
      }
      if (!parsed.ok) {
        duplicates++;
        expect(isDuplicateKeyRefusal(parsed.error, source)).toBe(true);
        for (const outcome of [same, rewritten]) expect(outcome).toEqual(parsed);
        return;
      }
      expect(plain(toPlainNumbers(parsed.value, { lossy: true }))).toEqual(plain(native.value));
      expect(JSON.parse(stringifyArgs(parsed.value))).toEqual(native.value);
      expect(same).toEqual({ ok: true, value: source });
      expect(rewritten.ok).toBe(true);
      if (rewritten.ok) expect(plain(JSON.parse(rewritten.value as string))).toEqual(plain(native.value));
    }), { seed, numRuns });
    expect(invalid).toBeGreaterThan(numRuns / 4);
    expect(duplicates).toBeLessThan(numRuns / 4);
  });

  test.each([
    ['"\\v"', 1], ['"a\\x41"', 2], ['"\u0001"', 1], ['"\t"', 1], ['\ufeff{}', 0], ['{"a":1', 6], ['[1,]', 3], ['"\\ud800', 7], ['01', 1], ['1.', 1], ['-', 0],
  ])('%j is refused with ArgsParseError at position %i', (source, position) => {
    expect(() => JSON.parse(source)).toThrow(SyntaxError);
    for (const run of [() => parseArgs(source), () => coerceArgsJson(source, {}), () => coerceArgsJson(source, ANY_DEPTH)]) {
      expect(run).toThrow(ArgsParseError);
      expect(attempt(run)).toMatchObject({ ok: false, error: { position } });
    }
  });

  test('a repeated key is the one documented difference: JSON.parse keeps the last, parseArgs refuses', () => {
    const source = '{"a":1,"b":{"a":2},"a":3}';
    expect(JSON.parse(source)).toEqual({ a: 3, b: { a: 2 } });
    expect(() => parseArgs(source)).toThrow(new ArgsParseError("Duplicate key 'a'", { position: 19, line: 1, column: 20 }));
  });

  test.each([
    ['', 0, 'Unexpected end of input'], [' ', 1, 'Unexpected end of input'], ['[1', 2, 'Unexpected end of input'],
    ['[1 2]', 3, `Expected ',' or ']' but got "2"`], ['{"a":1 "b":2}', 7, String.raw`Expected ',' or '}' but got "\""`],
    ['{"a"', 4, 'Unexpected end of input'], ['{"a" 1}', 5, `Expected ':' but got "1"`], ['{"a":', 5, 'Unexpected end of input'],
    ['{1:2}', 1, 'Expected a quoted object key but got "1"'], ['{"a":1,}', 7, 'Expected a quoted object key but got "}"'], ['{"a":1,', 7, 'Unexpected end of input'],
    ['tru', 0, 'Unexpected character "t"'], ['fals', 0, 'Unexpected character "f"'], ['nul', 0, 'Unexpected character "n"'],
    ['1 x', 2, 'Unexpected character "x" after the JSON value'], ['-x', 0, 'Invalid number'], ['[1,]', 3, 'Unexpected character "]"'],
    ['"a\\x"', 2, 'Invalid escape in a string'], ['"\\x\\n"', 1, 'Invalid escape in a string'], ['"\\u12"', 1, 'Invalid escape in a string'],
    ['"\u001f"', 1, 'Invalid character U+001F in a string'], ['"abc', 4, 'Unterminated string'],
    ['[+1]', 1, 'Unexpected character "+"'], ['[.5]', 1, 'Unexpected character "."'], ['[,1]', 1, 'Unexpected character ","'],
    ['[\n"x\u0001"]', 4, 'Invalid character U+0001 in a string'], ['[\n"x\\q"]', 4, 'Invalid escape in a string'],
    ['{"a":1,"\\u0061":2}', 7, "Duplicate key 'a'"], ['{"ab":1,"a":2,"ab":3}', 14, "Duplicate key 'ab'"],
  ])('%j: ArgsParseError at %i, "%s"', (source, position, reason) => {
    for (const run of [() => parseArgs(source), () => coerceArgsJson(source, ANY_DEPTH)]) {
      expect(attempt(run)).toMatchObject({ ok: false, error: { position, reason } });
    }
  });

  test('true, false and null are read whole, in arrays and after white space', () => {
    expect(parseArgs(' [true,false,null,\r\n\ttrue] ')).toEqual([true, false, null, true]);
    expect(coerceArgsJson('{"a" :\r\n true , "b":[ null ,false]}', ANY_DEPTH)).toBe('{"a" :\r\n true , "b":[ null ,false]}');
  });

  test('a repeated key is found at any depth and among many keys, escaped or not', () => {
    const deep = (depth: number, inner: string) => '{"k":'.repeat(depth) + inner + '}'.repeat(depth);
    for (const depth of [1, 63, 64, 65, 100]) {
      const source = deep(depth, '{"x":1,"y":2,"\\u0078":3}');
      expect(() => JSON.parse(source)).not.toThrow();
      for (const run of [() => parseArgs(source), () => coerceArgsJson(source, ANY_DEPTH)]) expect(attempt(run)).toMatchObject({ ok: false, error: { reason: "Duplicate key 'x'" } });
      expect(stringifyArgs(parseArgs(deep(depth, '{"x":1,"y":2}')))).toBe(deep(depth, '{"x":1,"y":2}'));
    }
    const keys = Array.from({ length: 40 }, (_, i) => `"k${i}":${i}.0`);
    for (const count of [15, 16, 17, 40]) {
      const unique = `{${keys.slice(0, count).join(',')}}`;
      expect(coerceArgsJson(unique, ANY_DEPTH)).toBe(unique.replace(/\.0/g, ''));
      const repeated = `{${keys.slice(0, count).join(',')},"k${count - 1}":1}`;
      for (const run of [() => parseArgs(repeated), () => coerceArgsJson(repeated, ANY_DEPTH)]) expect(attempt(run)).toMatchObject({ ok: false, error: { reason: `Duplicate key 'k${count - 1}'` } });
    }
  });

  test('the text path rewrites any number of literals, across its output chunks', () => {
    for (const count of [4095, 4096, 4097, 9000]) {
      const source = `[${Array.from({ length: count }, (_, i) => `${i}.0`).join(',')}]`;
      expect(coerceArgsJson(source, ANY_DEPTH)).toBe(`[${Array.from({ length: count }, (_, i) => String(i)).join(',')}]`);
    }
  });
});

describe('keys read again at the same place', () => {
  // The scanner remembers the keys of the last object at each depth and takes a key that repeats
  // one by comparison. The first text primes that memory; the second must still read exactly as
  // JSON.parse reads it, whatever follows the remembered characters.
  const PAIRS: readonly [string, string][] = [
    ['{"a":1}', '{"ab":1}'],
    ['{"ab":1}', '{"a":1}'],
    ['{"ab":1}', '{"ab\\"":1}'],
    ['{"ab":1}', '{"ab\\u0041":1}'],
    ['{"ab":1}', '{"ab\u0001":1}'],
    ['{"ab":1}', '{"ab'],
    ['{"ab":1}', '{"ab"'],
    ['{"ab":1}', '{"ab":'],
    ['{"ab":1}', '{"ab" :2}'],
    ['{"ab":1}', '{"a\u00e9":1}'],
    ['[{"k":1,"l":2},{"k":3,"l":4}]', '[{"k":1,"l":2},{"l":3,"k":4},{"k":5,"m":6}]'],
    ['{"x":{"ab":1}}', '{"x":{"ab":1,"ab2":2}}'],
  ];
  test.each(PAIRS)('%s then %s', (first, second) => {
    parseArgs(first);
    let expected: unknown;
    try {
      expected = JSON.parse(second);
    } catch {
      expect(() => parseArgs(second)).toThrow(ArgsParseError);
      expect(() => coerceArgsJson(second, {})).toThrow(ArgsParseError);
      return;
    }
    expect(toPlainNumbers(parseArgs(second))).toEqual(expected);
    expect(coerceArgsJson(second, {})).toBe(second);
  });
});
