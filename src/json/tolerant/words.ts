/**
 * Numbers and bare words of the tolerant grammar: where a number token ends (or that the text was
 * cut off inside one), and what a bare word where a value must be reads as: a JSON literal, a
 * Python one (`True`, `False`, `None`), or a refusal that names it (`NaN`, `Infinity`,
 * `undefined`, or any other word); and keys that are no string (a Python dict's `True`, `None`
 * or number keys), refused.
 */
import type { Source } from './source.js';

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const NUMBER_TAIL = /(?:\.\d*)?(?:[eE][+-]?\d*)?/y;
const WORD = /[A-Za-z_$][\w$]*/y;

const JSON_WORDS = ['true', 'false', 'null'];
const PYTHON_WORDS: Readonly<Record<string, string>> = { True: 'true', False: 'false', None: 'null' };
const REFUSED_WORDS = ['NaN', 'Infinity', 'undefined'];
const ALL_WORDS = [...JSON_WORDS, ...Object.keys(PYTHON_WORDS), ...REFUSED_WORDS];

/** Where the identifier (an unquoted key, or a bare word) starting at `at` ends, or -1 when none starts there. */
export function wordEnd(body: string, at: number): number {
  WORD.lastIndex = at;
  return WORD.test(body) ? WORD.lastIndex : -1;
}

/**
 * Where the number token at `at` (a sign or a digit) ends.
 *
 * @throws {ArgsParseError} Cut off when the text ends inside the number; otherwise when it is no
 *   JSON number (a word after a sign named when it is a refused one: `-Infinity`).
 */
export function numberEnd(source: Source, at: number): number {
  const body = source.body;
  NUMBER.lastIndex = at;
  if (!NUMBER.test(body)) {
    if (at + 1 >= body.length) source.cut(at, 'the text ends inside a number');
    // A sign before a word: the word named when it is a refused one (`-Infinity`), else a
    // bad number. Never a cut: no word a sign may lead, whole or cut off, is a JSON value.
    const word = wordEnd(body, at + 1);
    if (word !== -1) refuseWord(source, at + 1, body.slice(at + 1, word));
    source.fail(at, 'Invalid number');
  }
  const end = NUMBER.lastIndex;
  NUMBER_TAIL.lastIndex = end;
  const next = body.charCodeAt(end);
  // A point or an exponent letter after the number, its tail running to the end: cut off (such a tail is never empty).
  if ((next === 0x2e || next === 0x65 || next === 0x45) && NUMBER_TAIL.test(body) && NUMBER_TAIL.lastIndex === body.length) {
    source.cut(end, 'the text ends inside a number');
  }
  return end;
}

/**
 * What the bare word at `at`..`end`, where a value must be, reads as: `undefined` for a JSON
 * literal (kept as written), the JSON spelling of a Python literal.
 *
 * @throws {ArgsParseError} For any other word (cut off when the text ends inside a literal's spelling).
 */
export function literalWord(source: Source, at: number, end: number): string | undefined {
  const body = source.body;
  const word = body.slice(at, end);
  if (JSON_WORDS.includes(word)) return undefined;
  const python = PYTHON_WORDS[word];
  if (python !== undefined) return python;
  refuseWord(source, at, word);
  if (end >= body.length && ALL_WORDS.some((known) => known.startsWith(word))) source.cut(at, 'the text ends inside a literal');
  const shown = JSON.stringify(word.length > 20 ? `${word.slice(0, 20)}…` : word);
  source.fail(at, `Unexpected text ${shown} where a value must be (a string written without quotes? send it in double quotes, ${shown})`);
}

/** Refuses `word` at `at` by its name when it is one of the words JSON has no spelling for. */
function refuseWord(source: Source, at: number, word: string): void {
  if (REFUSED_WORDS.includes(word)) source.fail(at, `${word} is not a JSON value and has no JSON spelling`);
}

/**
 * Refuses the key at `at` when it is no string: a Python literal (`{True: 1}`: a dict's boolean or
 * `None` key, which JSON cannot hold, where JSON5 would read the string "True") or a number
 * (`{1: 'a'}`: an int key, or the string "1"?). `end` is where the identifier there ends, -1 for none.
 *
 * @throws {ArgsParseError} For such a key.
 */
export function refuseKeyValue(source: Source, at: number, end: number): void {
  const body = source.body;
  let what = 'a number';
  if (end !== -1) {
    if (PYTHON_WORDS[body.slice(at, end)] === undefined) return;
    what = "Python's";
  } else {
    NUMBER.lastIndex = at;
    if (!NUMBER.test(body)) return;
    end = NUMBER.lastIndex;
  }
  const key = body.slice(at, end);
  source.fail(at, `${key} as a key is ${what === 'a number' ? what : `${what} ${key}`}, which no JSON key is (or the string "${key}"?): refused. Write the key in double quotes if it is a name`);
}
