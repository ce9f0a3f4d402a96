/**
 * The `json5` package as the reference reading of the JSON5-like subset the repair accepts
 * (single quotes, comments, trailing commas, identifier keys), and `JSON.parse` for strict text,
 * each over thousands of generated inputs (fast-check, fixed seed):
 * - every generated text that both the repair and JSON5 accept reads to the same value;
 * - every text the repair refuses used a JSON5 form outside the subset, one it refuses on
 *   purpose (hex and signed numbers, `Infinity`/`NaN`, leading or trailing decimal points,
 *   white space JSON does not have, a line continuation, `\/` beside Python spellings, a broken
 *   hex escape, an identifier key past ASCII), or ends in an extra closing bracket that JSON5
 *   reads two ways (each closing bracket dropped in turn);
 * - every text written in the subset alone is accepted, and one that ends in an extra bracket
 *   JSON5 reads one way only is read that way;
 * - strict JSON text reads as `JSON.parse` reads it and comes back byte for byte;
 * - JSON text with one closing bracket too many at its end is repaired exactly when every way of
 *   dropping one closing bracket that `JSON.parse` reads gives one value, to that value, and
 *   refused, naming both brackets and with both readings, when two values come of it;
 * - a string of a JSON text (no Python spelling anywhere) reads as `JSON.parse` reads it, or, when
 *   every backslash in it stands before a letter JSON does not define (`C:\Dev`, `C:\xampp`), as
 *   written; anything else (a broken hex escape, a Python escape, valid escapes beside a backslash
 *   as written) is refused.
 * One reading JSON5 has is not one the repair competes with: an unknown escape read as its
 * letter alone (`\d` as `d`, `C:\Dev` as `C:Dev`; JavaScript's reading too). Where the text has
 * one, the repair's reading is compared with JSON5's reading of the text spelled as the repair
 * reads it (the backslash kept, or Python's character in a Python text), and the text counts as
 * outside the subset, so a refusal is allowed.
 */
import fc from 'fast-check';
import JSON5 from 'json5';
import { describe, expect, test, vi } from 'vitest';
import { ArgsParseError, coerceArgsJson, parseArgs, toPlainNumbers } from '../src/index.js';
import { AmbiguousTextError } from '../src/json/tolerant/readings.js';
import { closerDeletions, ODD_KEYS, SEPARATORS } from './_helpers/oracle.js';

const seed = Number(process.env['FC_SEED'] ?? 20261201);
const runs = Number(process.env['FC_ORACLE_RUNS'] ?? 3000);

/**
 * A piece of generated text, the JSON5 forms outside the subset it used, and its spelling as the
 * repair reads it where JSON5 reads it otherwise (an unknown escape: see above).
 */
interface Written {
  readonly text: string;
  readonly outside: readonly string[];
  readonly alt?: string;
}

const join = (parts: readonly Written[], sep = ''): Written => ({
  text: parts.map((p) => p.text).join(sep),
  outside: parts.flatMap((p) => p.outside),
  alt: parts.map((p) => p.alt ?? p.text).join(sep),
});
const inside = (text: string): Written => ({ text, outside: [] });
const altOf = (w: Written): string => w.alt ?? w.text;

const PYTHON_ONLY = 'a Python-only escape in double quotes';
const IDENTITY = 'an unknown escape, which JSON5 reads as its letter alone';

/** String body pieces: plain characters, every separator, the escapes every reading shares, and some outside the subset. */
const piece = fc.oneof(
  { arbitrary: fc.constantFrom('a', 'Z', ' ', '\u00e9', '\u{1f600}', '{', ',', ':', '//', '/*', '#', 'True', '\t', '}', ']', '.', ...SEPARATORS).map(inside), weight: 6 },
  { arbitrary: fc.constantFrom('\\n', '\\t', '\\r', '\\b', '\\f', '\\\\', '\\u00e9', '\\u2028', '\\"').map(inside), weight: 3 },
  // Read as Python reads them in single quotes (as JSON5 does); refused in double quotes where nothing shows the text is Python.
  { arbitrary: fc.constantFrom('\\x41', '\\v').map((text) => ({ text, outside: [PYTHON_ONLY] })), weight: 1 },
  { arbitrary: fc.constant({ text: '\\/', outside: ['\\/'] }), weight: 1 },
  { arbitrary: fc.constant({ text: '\\\n', outside: ['a line continuation'] }), weight: 1 },
  // Broken hex escapes: refused by both (JSON5 reads `\U1F600` as the letters, an unknown escape).
  // (A space after `\x4` and `\U1F600` keeps them broken: a letter past f after them would make a word, `\x4g`, read as written.)
  { arbitrary: fc.constantFrom('\\u00e', '\\u{e9}', '\\x4 ', '\\U1F600 ', '\\users').map((text) => ({ text, outside: ['a broken hex escape'] })), weight: 1 },
  // Unknown escapes: the backslash as written (`\d`), or Python's character (`\a`, a bell, in single quotes).
  { arbitrary: fc.constantFrom(['\\d', '\\\\d'], ['\\xampp', '\\\\xampp'], ['\\a', '\\u0007']).map(([text, alt]) => ({ text: text!, outside: [IDENTITY], alt })), weight: 1 },
);

/** A string token: double or single quotes, the other kind bare inside. */
const stringToken = fc.tuple(fc.constantFrom('"', "'"), fc.array(piece, { maxLength: 4 }), fc.boolean()).map(([quote, pieces, otherQuote]): Written => {
  const body = join(pieces);
  const other = quote === '"' ? "'" : '"';
  const outside = quote === "'" ? body.outside.filter((form) => form !== PYTHON_ONLY) : body.outside;
  const end = (otherQuote ? other : '') + quote;
  return { text: quote + body.text + end, outside, alt: quote + altOf(body) + end };
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

/** Keys: quoted (dotted, slashed and non-ASCII ones among them), or identifiers (ASCII, as the repair reads them). */
const keyToken = fc.oneof(
  stringToken,
  fc.constantFrom(...ODD_KEYS).map((key) => inside(JSON.stringify(key))),
  fc.constantFrom('path', '_id', '$ref', 'a1', 'true', 'null', 'camelCase').map(inside),
  fc.constantFrom('caf\u00e9', '\u540d\u524d').map((text) => ({ text, outside: ['an identifier past ASCII'] })),
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

/** A generated text: a value with white space or comments around it, one in six with an extra closing bracket. */
const json5Text = fc.tuple(gap, valueToken, gap, fc.constantFrom('', '', '', '', '}', ']')).map(([a, v, b, extra]) => {
  // After a root string, number or literal, a closing bracket is refused on purpose (an opening one missing?).
  const after = extra === '' || /^[[{]/.test(v.text) ? inside(extra) : { text: extra, outside: ['a bracket after a root scalar'] };
  return { ...join([a, v, b, after]), extra: extra !== '' };
});

/** The repair's reading as plain JSON text, or its error. */
function ours(text: string): { json: string } | { error: unknown } {
  try {
    return { json: JSON.stringify(toPlainNumbers(parseArgs(text, { repair: true }), { lossy: true })) };
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

  test('both readings agree wherever both accept; the repair refuses only forms outside the subset, or an extra bracket JSON5 reads two ways; the subset alone is always read', () => {
    const tally = { agreed: 0, refusedOutside: 0, json5Only: 0, oneBracketDropped: 0, twoReadings: 0 };
    // JSON5 warns, on the console, of a raw U+2028 or U+2029 in a string.
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    for (const { text, outside, alt, extra } of texts) {
      const mine = ours(text);
      // JSON5's readings of the text spelled as the repair reads it: itself, or each closing bracket dropped.
      const readings = new Set((extra ? closerDeletions(alt!) : [alt!]).flatMap((reading) => json5(reading) ?? []).map(plain));
      if ('json' in mine) {
        // Outside JSON5, the repair reads only what it has one reading of: raw control characters in strings.
        if (readings.size === 0) {
          expect(text, 'accepted where JSON5 refuses').toMatch(/[\u0000-\u001f]/);
          continue;
        }
        expect([...readings], text).toEqual([plain(mine.json)]);
        tally.agreed++;
        if (extra) tally.oneBracketDropped++;
        continue;
      }
      expect(mine.error, text).toBeInstanceOf(ArgsParseError);
      const { reason } = mine.error as ArgsParseError;
      if (DUPLICATE.test(reason)) continue;
      if (readings.size > 1) {
        tally.twoReadings++;
        continue;
      }
      if (json5(text) !== undefined) tally.json5Only++;
      expect(outside.length, `${JSON.stringify(text)} is in the subset, yet refused: ${reason}`).toBeGreaterThan(0);
      tally.refusedOutside++;
    }
    warn.mockRestore();
    expect(tally.agreed).toBeGreaterThan(runs / 3);
    for (const [outcome, count] of Object.entries(tally)) expect(count, outcome).toBeGreaterThan(0);
  });

  test('strict JSON text reads as JSON.parse reads it, and comes back byte for byte', () => {
    fc.assert(fc.property(fc.json({ maxDepth: 3 }), fc.constantFrom(undefined, 2, '\t'), (json, space) => {
      const text = JSON.stringify(JSON.parse(json), null, space);
      expect(plain(JSON.stringify(toPlainNumbers(parseArgs(text, { repair: true }), { lossy: true })))).toBe(plain(text));
      expect(coerceArgsJson(text, { type: ['object', 'array', 'string', 'number', 'boolean', 'null'] }, { lenient: true })).toBe(text);
    }), { seed, numRuns: runs });
  });

  test('an extra closing bracket: repaired exactly when every bracket JSON.parse lets drop gives one value, refused with both readings otherwise', () => {
    const nested: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
      value: fc.oneof({ depthSize: 'small' }, fc.integer({ min: 0, max: 9 }), fc.array(tie('value'), { maxLength: 3 }), fc.dictionary(fc.constantFrom('a', 'b', 'c'), tie('value'), { maxKeys: 3 })),
    })).value;
    const tally = { one: 0, two: 0 };
    fc.assert(fc.property(nested.filter((v) => typeof v === 'object'), fc.constantFrom(']', '}'), fc.constantFrom(undefined, 1), (value, extra, space) => {
      const text = JSON.stringify(value, null, space) + extra;
      const values = new Set(closerDeletions(text).flatMap((reading) => {
        try {
          return [JSON.stringify(JSON.parse(reading))];
        } catch {
          return [];
        }
      }));
      const mine = ours(text);
      if (values.size === 1) {
        expect(mine, text).toEqual({ json: [...values][0] });
        tally.one++;
        return;
      }
      expect(values.size, text).toBeGreaterThan(1);
      const error = (mine as { error: AmbiguousTextError }).error;
      expect(error, text).toBeInstanceOf(AmbiguousTextError);
      expect(new Set(error.readings.map((reading) => JSON.stringify(JSON.parse(reading)))), text).toEqual(values);
      tally.two++;
    }), { seed, numRuns: runs });
    expect(tally.two).toBeGreaterThan(runs / 50);
    expect(tally.one).toBeGreaterThan(runs / 2);
  });
});
