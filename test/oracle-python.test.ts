/**
 * Python itself as the oracle of the Python-literal repair, both directions, over thousands of
 * generated inputs (fast-check, fixed seed), all handed to ONE python3 process:
 * - Python's own `repr` of generated values (non-ASCII, control characters, lone surrogates,
 *   quotes and backslashes in strings) repairs to those values; at most 1% is refused, and
 *   nothing is ever read as another value;
 * - generated Python-literal texts (every escape Python has, and ones it does not) read to what
 *   `ast.literal_eval` reads, whenever the repair accepts them; what it refuses is only what has
 *   no single reading (a backslash that may be a path's, `\N{…}`, `\/`, a repeated key). Each text is the value of a
 *   single-quoted key, so it is a Python literal as a whole (a text that is not one is read as
 *   JSON, not as Python).
 * Without python3 these tests are skipped, and their names say so; the JSON5 and JSON.parse
 * oracles (oracle-json5.test.ts) run without it.
 */
import { spawnSync } from 'node:child_process';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { ArgsParseError, parseArgs, toPlainNumbers } from '../src/index.js';
import { HAS_PYTHON, needsPython } from './_helpers/peers.js';

const seed = Number(process.env['FC_SEED'] ?? 20261201);
const runs = Number(process.env['FC_ORACLE_RUNS'] ?? 3000);

/** Characters Python's `repr` escapes, spells raw, or must quote around. */
const SPECIAL = [
  '\u0000', '\u0007', '\b', '\t', '\n', '\u000b', '\f', '\r', '\u001b', '\u001f', '\u007f', '\u0085', '\u00a0', '\u00ad', '\u00e9',
  '\u2028', '\u200b', '\u3000', '\ufeff', '\ud800', '\udfff', '\u{1f600}', '\u{e0001}', '\u{10ffff}', '急', "'", '"', '\\', ' ',
];
const text = fc.string({ unit: fc.oneof({ arbitrary: fc.constantFrom(...SPECIAL), weight: 1 }, { arbitrary: fc.constantFrom('a', 'b', 'Z', '0', '_', '{', ',', ':'), weight: 2 }), maxLength: 10 });
/** Values Python and JSON both hold: strings of every kind, integers of any size, doubles. */
const value = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    text,
    fc.boolean(),
    fc.constant(null),
    fc.integer(),
    fc.bigInt({ min: -(10n ** 25n), max: 10n ** 25n }).map((n) => ({ big: n.toString() })),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(text, tie('value'), { maxKeys: 4 }),
  ),
})).value;

/** JSON text of a generated value, a `{ big }` placeholder written as its exact digits. */
function toJson(v: unknown): string {
  if (v !== null && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length === 1 && typeof (v as { big?: unknown }).big === 'string') {
    return (v as { big: string }).big;
  }
  if (Array.isArray(v)) return `[${v.map(toJson).join(',')}]`;
  if (v !== null && typeof v === 'object') return `{${Object.entries(v).map(([k, x]) => `${JSON.stringify(k)}:${toJson(x)}`).join(',')}}`;
  return JSON.stringify(Object.is(v, -0) ? 0 : v);
}

/** Pieces of a Python string literal's body: every escape Python knows, some it does not, raw characters. */
const PIECES = [
  '\\x41', '\\xe9', '\\x1b', '\\x00', '\\u00e9', '\\u2028', '\\ud800', '\\U0001f600', '\\U000e0001', '\\101', '\\0', '\\7', '\\12',
  '\\a', '\\b', '\\f', '\\n', '\\r', '\\t', '\\v', '\\\\', "\\'", '\\"', '\\D', '\\p', '\\N{EM DASH}', '\\/', '\\x4', '\\u12',
  '\t', '\u00e9', '\u{1f600}', "'", '"', 'a', 'b', ' ', 'C:', '{', ',',
];
/** A Python string literal: a quote kind, and a body in which the other quote needs no escape. */
const pyString = fc.tuple(fc.constantFrom("'", '"'), fc.array(fc.constantFrom(...PIECES), { maxLength: 5 })).map(([quote, pieces]) => {
  // A bare quote of the literal's own kind would end it: those pieces are escaped.
  return quote + pieces.map((piece) => (piece === quote ? `\\${quote}` : piece)).join('') + quote;
});
/** Python-literal texts: dicts and lists of those strings, `True`/`False`/`None`, numbers, nested. */
const pyText = fc.letrec<{ literal: string }>((tie) => ({
  literal: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    pyString,
    fc.constantFrom('True', 'False', 'None', '0', '-7', '2.50', '1e3', '12345678901234567890'),
    fc.array(tie('literal'), { maxLength: 3 }).map((items) => `[${items.join(', ')}]`),
    fc.uniqueArray(fc.tuple(pyString, tie('literal')), { maxLength: 3, selector: ([key]) => key }).map((entries) => `{${entries.map(([k, v]) => `${k}: ${v}`).join(', ')}}`),
  ),
})).literal;

/** What the repair may refuse although Python reads the text: the readings it will not guess. */
const NOT_GUESSED = /mixes escapes with backslashes|no name table|a backslash and a slash in Python|Duplicate key/;

interface PythonAnswers {
  readonly reprs: string[];
  readonly evals: ([ok: 'ok', json: string] | [error: 'error', name: string])[];
}

/** One python3 process: `repr` of each JSON text, then `ast.literal_eval` of each text, as JSON. */
function askPython(jsonTexts: readonly string[], literals: readonly string[]): PythonAnswers {
  const script = [
    'import ast, json, sys, warnings',
    "warnings.simplefilter('ignore')",
    'job = json.load(sys.stdin)',
    "reprs = [repr(json.loads(t)) for t in job['repr']]",
    'evals = []',
    "for t in job['eval']:",
    '    try:',
    "        evals.append(['ok', json.dumps(ast.literal_eval(t))])",
    '    except Exception as e:',
    "        evals.append(['error', type(e).__name__])",
    "json.dump({'reprs': reprs, 'evals': evals}, sys.stdout)",
  ].join('\n');
  const run = spawnSync('python3', ['-c', script], { input: JSON.stringify({ repr: jsonTexts, eval: literals }), encoding: 'utf8', maxBuffer: 1 << 28 });
  if (run.status !== 0) throw new Error(`python3 failed: ${run.stderr}`);
  return JSON.parse(run.stdout) as PythonAnswers;
}

/** The repair's reading of `text` as plain JSON text, or the error it threw. */
function repaired(text: string): { json: string } | { error: unknown } {
  try {
    return { json: JSON.stringify(toPlainNumbers(parseArgs(text, { repair: true }))) };
  } catch (error) {
    return { error };
  }
}

/** JSON text read as plain numbers, for comparing readings that spell numbers differently. */
const plain = (json: string): string => JSON.stringify(JSON.parse(json, (_key, v: unknown) => (Object.is(v, -0) ? 0 : v)));

describe.skipIf(!HAS_PYTHON)(needsPython(`Python as the oracle (seed ${seed}, ${runs} inputs each way, one python3 process)`), () => {
  const jsonTexts = fc.sample(value, { seed, numRuns: runs }).map(toJson);
  const literals = fc.sample(pyText, { seed: seed + 1, numRuns: runs }).map((literal) => `{'oracle': ${literal}}`);
  const answers = HAS_PYTHON ? askPython(jsonTexts, literals) : { reprs: [], evals: [] };

  test("Python's repr of every generated value repairs to that value; at most 1% refused", () => {
    let refused = 0;
    answers.reprs.forEach((repr, i) => {
      const ours = repaired(repr);
      if ('error' in ours) {
        expect(ours.error, repr).toBeInstanceOf(ArgsParseError);
        refused++;
        return;
      }
      expect(plain(ours.json), repr).toBe(plain(jsonTexts[i]!));
    });
    expect(answers.reprs).toHaveLength(runs);
    expect(refused / runs).toBeLessThanOrEqual(0.01);
  });

  test('every generated Python literal the repair reads, ast.literal_eval reads the same; it refuses only what it will not guess', () => {
    const tally = { same: 0, refused: 0, bothRefused: 0 };
    answers.evals.forEach((answer, i) => {
      const literal = literals[i]!;
      const ours = repaired(literal);
      if ('json' in ours) {
        expect(answer, literal).toEqual(['ok', expect.any(String)]);
        expect(plain(ours.json), literal).toBe(plain(answer[1]));
        tally.same++;
      } else if (answer[0] === 'ok') {
        expect(ours.error, literal).toBeInstanceOf(ArgsParseError);
        expect((ours.error as ArgsParseError).reason, literal).toMatch(NOT_GUESSED);
        tally.refused++;
      } else {
        tally.bothRefused++;
      }
    });
    expect(answers.evals).toHaveLength(runs);
    // The generator reaches every outcome, the agreeing one most.
    expect(tally.same).toBeGreaterThan(runs / 4);
    expect(tally.refused).toBeGreaterThan(0);
    expect(tally.bothRefused).toBeGreaterThan(0);
  });
});
