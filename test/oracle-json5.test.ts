/**
 * The `json5` package as the reference reading of the JSON5-like subset the repair accepts
 * (single quotes, comments, trailing commas, identifier keys), and `JSON.parse` for strict text,
 * each over thousands of generated inputs (fast-check, fixed seed):
 * - every generated text that both the repair and JSON5 accept reads to the same value;
 * - every text the repair refuses used a JSON5 form outside the subset, one it refuses on
 *   purpose (hex and signed numbers, `Infinity`/`NaN`, leading or trailing decimal points,
 *   white space JSON does not have, a line continuation, `\/` beside Python spellings);
 * - every text written in the subset alone is accepted;
 * - strict JSON text reads as `JSON.parse` reads it and comes back byte for byte.
 */
import fc from 'fast-check';
import JSON5 from 'json5';
import { describe, expect, test } from 'vitest';
import { ArgsParseError, coerceArgsJson, parseArgs, toPlainNumbers } from '../src/index.js';

const seed = Number(process.env['FC_SEED'] ?? 20261201);
const runs = Number(process.env['FC_ORACLE_RUNS'] ?? 3000);

/** A piece of generated text, and the JSON5 forms outside the subset it used. */
interface Written {
  readonly text: string;
  readonly outside: readonly string[];
}

const join = (parts: readonly Written[], sep = ''): Written => ({ text: parts.map((p) => p.text).join(sep), outside: parts.flatMap((p) => p.outside) });
const inside = (text: string): Written => ({ text, outside: [] });

const PYTHON_ONLY = 'a Python-only escape in double quotes';

/** String body pieces: plain characters, the escapes every reading shares, and some outside the subset. */
const piece = fc.oneof(
  { arbitrary: fc.constantFrom('a', 'Z', ' ', '\u00e9', '\u{1f600}', '{', ',', ':', '//', '/*', '#', 'True', '\t').map(inside), weight: 6 },
  { arbitrary: fc.constantFrom('\\n', '\\t', '\\r', '\\b', '\\f', '\\\\', '\\u00e9', '\\u2028', '\\"').map(inside), weight: 3 },
  // Read as Python reads them in single quotes (as JSON5 does); refused in double quotes where nothing shows the text is Python.
  { arbitrary: fc.constantFrom('\\x41', '\\v').map((text) => ({ text, outside: [PYTHON_ONLY] })), weight: 1 },
  { arbitrary: fc.constant({ text: '\\/', outside: ['\\/'] }), weight: 1 },
  { arbitrary: fc.constant({ text: '\\\n', outside: ['a line continuation'] }), weight: 1 },
);

/** A string token: double or single quotes, the other kind bare inside. */
const stringToken = fc.tuple(fc.constantFrom('"', "'"), fc.array(piece, { maxLength: 4 }), fc.boolean()).map(([quote, pieces, otherQuote]): Written => {
  const body = join(pieces);
  const other = quote === '"' ? "'" : '"';
  const outside = quote === "'" ? body.outside.filter((form) => form !== PYTHON_ONLY) : body.outside;
  return { text: quote + body.text + (otherQuote ? other : '') + quote, outside };
});

/** Numbers: JSON's, and the JSON5 spellings outside the subset. */
const numberToken = fc.oneof(
  { arbitrary: fc.constantFrom('0', '-1', '2.5', '1e3', '-0.25E-2', '12345678901234567890').map(inside), weight: 5 },
  { arbitrary: fc.constantFrom('0x1F', '+1', '.5', '5.', 'Infinity', '-Infinity', 'NaN').map((text) => ({ text, outside: ['a JSON5 number'] })), weight: 1 },
);

/** White space and comments between tokens. */
const gap = fc.oneof(
  { arbitrary: fc.constantFrom('', ' ', '\n', '\r\n', '\t', ' // note\n', '/* c */', '/**/', '// a\r', ' /* x\n y */ ').map(inside), weight: 8 },
  { arbitrary: fc.constantFrom('\u00a0', '\u000b', '\ufeff', '\u2003').map((text) => ({ text, outside: ['white space JSON does not have'] })), weight: 1 },
);

/** Keys: quoted, or identifiers (ASCII, as the repair reads them). */
const keyToken = fc.oneof(
  stringToken,
  fc.constantFrom('path', '_id', '$ref', 'a1', 'true', 'null', 'camelCase').map(inside),
);

const valueToken = fc.letrec<{ value: Written }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    stringToken,
    numberToken,
    fc.constantFrom('true', 'false', 'null').map(inside),
    fc.tuple(fc.array(fc.tuple(gap, tie('value'), gap), { maxLength: 3 }), fc.boolean(), gap).map(([items, trailing, end]) =>
      join([inside('['), join(items.map(([a, v, b]) => join([a, v, b])), ','), inside(trailing && items.length > 0 ? ',' : ''), end, inside(']')])),
    fc.tuple(fc.array(fc.tuple(gap, keyToken, gap, gap, tie('value'), gap), { maxLength: 3 }), fc.boolean(), gap).map(([members, trailing, end]) =>
      join([inside('{'), join(members.map(([a, k, b, c, v, d]) => join([a, k, b, inside(':'), c, v, d])), ','), inside(trailing && members.length > 0 ? ',' : ''), end, inside('}')])),
  ),
})).value;

/** A generated text: a value with white space or comments around it. */
const json5Text = fc.tuple(gap, valueToken, gap).map(([a, v, b]) => join([a, v, b]));

/** The repair's reading as plain JSON text, or its error. */
function ours(text: string): { json: string } | { error: unknown } {
  try {
    return { json: JSON.stringify(toPlainNumbers(parseArgs(text, { repair: true }))) };
  } catch (error) {
    return { error };
  }
}

/** JSON5's reading as plain JSON text, or `undefined` when it refuses. */
function json5(text: string): string | undefined {
  try {
    return JSON.stringify(JSON5.parse(text));
  } catch {
    return undefined;
  }
}

/** JSON text read as plain numbers, `-0` as `0`. */
const plain = (json: string): string => JSON.stringify(JSON.parse(json, (_key, v: unknown) => (Object.is(v, -0) ? 0 : v)));

/** Duplicate keys: JSON5 keeps the last, the repair refuses differing ones. */
const DUPLICATE = /Duplicate key/;

describe(`JSON5 as the oracle (seed ${seed}, ${runs} texts)`, () => {
  const texts = fc.sample(json5Text, { seed, numRuns: runs });

  test('both readings agree wherever both accept; the repair refuses only forms outside the subset; the subset alone is always read', () => {
    const tally = { agreed: 0, refusedOutside: 0, json5Only: 0 };
    for (const { text, outside } of texts) {
      const mine = ours(text);
      const reference = json5(text);
      if ('json' in mine) {
        // Outside JSON5, the repair reads only what it has one reading of: raw control characters in strings.
        if (reference === undefined) {
          expect(text, 'accepted where JSON5 refuses').toMatch(/[\u0000-\u001f]/);
          continue;
        }
        expect(plain(mine.json), text).toBe(plain(reference));
        tally.agreed++;
        continue;
      }
      expect(mine.error, text).toBeInstanceOf(ArgsParseError);
      if (DUPLICATE.test((mine.error as ArgsParseError).reason)) continue;
      if (reference !== undefined) tally.json5Only++;
      expect(outside.length, `${JSON.stringify(text)} is in the subset, yet refused: ${(mine.error as ArgsParseError).reason}`).toBeGreaterThan(0);
      tally.refusedOutside++;
    }
    expect(tally.agreed).toBeGreaterThan(runs / 3);
    expect(tally.refusedOutside).toBeGreaterThan(0);
    expect(tally.json5Only).toBeGreaterThan(0);
  });

  test('strict JSON text reads as JSON.parse reads it, and comes back byte for byte', () => {
    fc.assert(fc.property(fc.json({ maxDepth: 3 }), fc.constantFrom(undefined, 2, '\t'), (json, space) => {
      const text = JSON.stringify(JSON.parse(json), null, space);
      expect(plain(JSON.stringify(toPlainNumbers(parseArgs(text, { repair: true }))))).toBe(plain(text));
      expect(coerceArgsJson(text, { type: ['object', 'array', 'string', 'number', 'boolean', 'null'] }, { lenient: true })).toBe(text);
    }), { seed, numRuns: runs });
  });
});
