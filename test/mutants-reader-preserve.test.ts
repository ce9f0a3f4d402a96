/**
 * The token check (`checkTokensKept`) on its own: what it lets through of the reader's honest
 * repairs (escapes at their edges, each read by the check's own decoder), and which forged
 * rewrites it refuses (a number written as a string, a string written longer or from the wrong
 * characters, digits written onto a number). A forged edit is one the reader never makes; the
 * check must refuse it all the same, since it stands between any reader bug and what is dispatched.
 */
import { beforeEach, describe, expect, test, vi } from 'vitest';
import { ArgsParseError, coerceArgsJson } from '../src/index.js';
import { applyEdits, type Edit } from '../src/json/tolerant/edits.js';
import { checkTokensKept } from '../src/json/tolerant/preserve.js';
import { readTolerant } from '../src/json/tolerant/reader.js';

const NOT_KEPT = '[schema-coerce] invalid JSON: the repair would not keep every string and number of the text; refused';

/** Checks `text`, whose tokens are `spans`, with `edits` applied. */
function checked(text: string, spans: number[], edits: Edit[]): () => void {
  return () => checkTokensKept(text, applyEdits(text, edits), spans, edits);
}

/** The reader's own edits of `text`, the one at `start` replaced by `forged`. */
function forgedAt(text: string, start: number, forged: Partial<Edit>): () => void {
  const reading = readTolerant(text);
  const edits = reading.edits.map((e) => (e.start === start ? { ...e, ...forged } : e));
  return () => checkTokensKept(text, applyEdits(text, edits), reading.tokens, edits);
}

describe('honest repairs whose escapes sit at the edges of what the check decodes', () => {
  const schema = { type: 'object', properties: { a: { type: 'string' }, p: { type: 'string' } } };
  test.each([
    ['an octal escape of one digit before a dash', "{'a': '\\1-x'}", '{"a": "\\u0001-x"}'],
    ['an octal escape whose last digit is 7', "{'a': '\\17'}", '{"a": "\\u000f"}'],
    ['the last code point, U+10FFFF', "{'a': '\\U0010ffff'}", '{"a": "\udbff\udfff"}'],
  ])('%s is repaired', (_name, input, output) => {
    expect(coerceArgsJson(input, schema, { lenient: true })).toBe(output);
  });
});

describe('forged rewrites the check refuses', () => {
  test.each([
    ['a string written one character longer', '"abc"'],
    ['a string written with its closing quote inside', `"a'"`],
    ['a string written from the characters before it', `"['"`],
  ])("%s (['ab'])", (_name, to) => {
    expect(forgedAt("['ab']", 1, { to })).toThrow(NOT_KEPT);
  });

  test('a one-character string written from the bracket before it', () => {
    expect(forgedAt("['[']", 1, { to: '"x"' })).toThrow(NOT_KEPT);
  });

  test('a number written as a string of the same digits, claimed as a bare key', () => {
    expect(checked('[1.0]', [1, -4], [{ start: 1, end: 4, to: '"1.0"', rule: 'unquoted-key', escapes: 'bare' }])).toThrow(NOT_KEPT);
  });

  test('digits written onto a number by an edit after it', () => {
    expect(checked('[12/*c*/]', [1, -3], [{ start: 3, end: 8, to: '3', rule: 'comment' }])).toThrow(NOT_KEPT);
    expect(checked('[12/*c*/]', [1, -3], [{ start: 3, end: 8, to: '', rule: 'comment' }])).not.toThrow();
  });

  test('an edit that writes a string and a space after it', () => {
    expect(forgedAt("['ab']", 1, { to: '"ab" ' })).toThrow(NOT_KEPT);
  });

  // Each of these writes the token's own value in its place, so only the edit's shape betrays it.
  test('a string written whole, with its own value, by an edit that claims no reading of it', () => {
    expect(checked("['ab']", [1, 5], [{ start: 1, end: 5, to: '"ab"', rule: 'comment' }])).toThrow(NOT_KEPT);
  });

  test('an edit that starts inside a string and ends at its end, keeping its value', () => {
    expect(checked('["ab"]', [1, 5], [{ start: 2, end: 5, to: 'ab" ', rule: 'quotes', escapes: 'json' }])).toThrow(NOT_KEPT);
  });

  test('an edit that starts at a string and ends past it, keeping its value', () => {
    expect(checked("['ab' ]", [1, 5], [{ start: 1, end: 6, to: '"ab"', rule: 'quotes', escapes: 'python' }])).toThrow(NOT_KEPT);
  });

  test('a quote character alone, claimed as a whole string', () => {
    expect(checked("[']", [1, 2], [{ start: 1, end: 2, to: '""', rule: 'quotes', escapes: 'python' }])).toThrow(NOT_KEPT);
  });

  // The reader refuses every `\u` without four hex digits; the check, a net of its own, holds a
  // token read as written to its own rule: no escape JSON knows, `\u` and four hex digits being one.
  test.each([
    ['\\u and two hex digits', '["D:\\udemy"]', true],
    ['\\u and four letters that are no hex digits', '["D:\\upstream"]', true],
    ['\\u and four hex digits', '["D:\\ubeef"]', false],
  ])('a token read as written with %s: kept %s', (_name, text, kept) => {
    const to = JSON.stringify(text.slice(2, -2));
    const run = checked(text, [1, text.length - 1], [{ start: 1, end: text.length - 1, to, rule: 'literal-backslash', escapes: 'literal' }]);
    if (kept) expect(run).not.toThrow();
    else expect(run).toThrow(NOT_KEPT);
  });

  test('backslashes read as written are held to that reading, even written as the same characters', () => {
    // `"\\"` as written is two backslashes; JSON reads one.
    const text = '["\\\\"]';
    expect(checked(text, [1, 5], [{ start: 1, end: 5, to: '"\\\\"', rule: 'literal-backslash', escapes: 'literal' }])).toThrow(NOT_KEPT);
  });

  test.each([
    ['a Python \\U escape claimed as JSON', "['\\U0001F600']", '"\ud83d\ude00"', 'json'],
    ['a Python octal escape claimed as JSON', "['\\101']", '"A"', 'json'],
  ] as const)('%s', (_name, text, to, escapes) => {
    expect(checked(text, [1, text.length - 1], [{ start: 1, end: text.length - 1, to, rule: 'quotes', escapes }])).toThrow(NOT_KEPT);
  });

  test.each([
    ['a \\u escape with letters that are no hex digits', '["\\uzzzz"]', 'json'],
    ['a Python escape of a character below 0', "['\\-']", 'python'],
  ] as const)('%s is refused with the typed error, never another one', (_name, text, escapes) => {
    const run = checked(text, [1, text.length - 1], [{ start: 1, end: text.length - 1, to: '"x"', rule: 'quotes', escapes }]);
    expect(run).toThrow(ArgsParseError);
    expect(run).toThrow(NOT_KEPT);
  });
});

describe('a rewritten string is read run by run, each escape where it stands', () => {
  // The Python string a, newline, b, spelled a, `\n`, b in JSON; then the string c.
  const text = String.raw`['a\nb', 'c']`;
  const spans = [1, 7, 9, 12];
  const spelled = (to: string): Edit[] => [
    { start: 1, end: 7, to, rule: 'quotes', escapes: 'python' },
    { start: 9, end: 12, to: '"c"', rule: 'quotes', escapes: 'python' },
  ];

  test('the honest spelling passes', () => {
    expect(checked(text, spans, spelled(String.raw`"a\nb"`))).not.toThrow();
  });

  test.each([
    ['the run before the escape', String.raw`"x\nb"`],
    ['the escape itself', String.raw`"a\tb"`],
    ['the run after the escape', String.raw`"a\nx"`],
    ['a character more after the escape', String.raw`"a\nbb"`],
    ['a character fewer after the escape', String.raw`"a\n"`],
    ['the escape read as a backslash and a letter', String.raw`"a\\nb"`],
  ])('a spelling that differs in %s is refused', (_name, to) => {
    expect(checked(text, spans, spelled(to))).toThrow(NOT_KEPT);
  });

  test('a backslash just before the closing quote opens no escape with it', () => {
    // Claimed as one token, `'a\'` is the two characters a and a backslash, never a and a quote.
    const cut = String.raw`['a\']`;
    expect(checked(cut, [1, 5], [{ start: 1, end: 5, to: `"a'"`, rule: 'quotes', escapes: 'python' }])).toThrow(NOT_KEPT);
  });

  test('an escape whose hex digits run out is no escape, though its first digits spell a character', () => {
    const partial = String.raw`['\u12zz']`;
    expect(checked(partial, [1, 9], [{ start: 1, end: 9, to: String.raw`"\u0012"`, rule: 'quotes', escapes: 'python' }])).toThrow(NOT_KEPT);
  });

  test('U+FFFF, the last code point of one code unit, moves the reading on by one', () => {
    const schema = { type: 'object', properties: { a: { type: 'string' } } };
    expect(coerceArgsJson(String.raw`{'a': '\uffffx'}`, schema, { lenient: true })).toBe(String.raw`{"a": "\uffffx"}`);
  });

  test('a code point past U+FFFF is its surrogate pair, in that order', () => {
    const astral = String.raw`['\U0001F600']`;
    const at = [1, astral.length - 1];
    const whole = (to: string): Edit[] => [{ start: 1, end: astral.length - 1, to, rule: 'quotes', escapes: 'python' }];
    expect(checked(astral, at, whole(String.raw`"\ud83d\ude00"`))).not.toThrow();
    expect(checked(astral, at, whole(String.raw`"\ude00\ud83d"`))).toThrow(NOT_KEPT);
    expect(checked(astral, at, whole(String.raw`"\ud83d"`))).toThrow(NOT_KEPT);
  });

  test('a backslash in a later token is found after tokens with none (one search, shared by the tokens)', () => {
    const later = String.raw`['a', 'b', 'c\td']`;
    const laterSpans = [1, 4, 6, 9, 11, 17];
    const edits = (last: string): Edit[] => [
      { start: 1, end: 4, to: '"a"', rule: 'quotes', escapes: 'python' },
      { start: 6, end: 9, to: '"b"', rule: 'quotes', escapes: 'python' },
      { start: 11, end: 17, to: last, rule: 'quotes', escapes: 'python' },
    ];
    expect(checked(later, laterSpans, edits(String.raw`"c\td"`))).not.toThrow();
    // Read as written, the third token would be a backslash and a t: that spelling must not pass for it.
    expect(checked(later, laterSpans, edits(String.raw`"c\\td"`))).toThrow(NOT_KEPT);
  });
});

describe('a token claimed as a Gemma string must have its two delimiters', () => {
  test.each([
    ['no delimiter, long enough for two', "['12345ab12345']", '"5ab1"'],
    ['an opening delimiter and no closing one', '[<|"|>abcdefghij]', '"abcde"'],
  ])('%s: refused', (_name, text, to) => {
    expect(checked(text, [1, text.length - 1], [{ start: 1, end: text.length - 1, to, rule: 'gemma-string', escapes: 'gemma' }])).toThrow(NOT_KEPT);
  });

  test('one delimiter alone, after other text, is not two of them', () => {
    const text = '["a", <|"|>]';
    expect(checked(text, [1, 4, 6, 11], [{ start: 6, end: 11, to: '""', rule: 'gemma-string', escapes: 'gemma' }])).toThrow(NOT_KEPT);
  });

  test('an empty Gemma string is the empty string', () => {
    expect(coerceArgsJson('{"a": <|"|><|"|>}', { type: 'object' }, { lenient: true })).toBe('{"a": ""}');
  });
});

describe('what the check lets through', () => {
  test('an identifier key written with an escape that spells the same name', () => {
    expect(checked('{abc: 1}', [1, 4, 6, -7], [{ start: 1, end: 4, to: '"\\u0061bc"', rule: 'unquoted-key', escapes: 'bare' }])).not.toThrow();
    expect(checked('{abc: 1}', [1, 4, 6, -7], [{ start: 1, end: 4, to: '"\\u0061bd"', rule: 'unquoted-key', escapes: 'bare' }])).toThrow(NOT_KEPT);
  });
});

describe('edits and spans out of place', () => {
  test('a string an edit writes before the token is not the token, though it has its value and length', () => {
    // The comment's edit writes `"ab",` and the token's own edit writes `null`: the scanner's one
    // string is the comment's, four characters before where the token's edit put its text.
    const edits: Edit[] = [
      { start: 1, end: 7, to: '"ab",', rule: 'comment' },
      { start: 7, end: 11, to: 'null', rule: 'quotes', escapes: 'python' },
    ];
    expect(checked("[/*cc*/'ab']", [7, 11], edits)).toThrow(NOT_KEPT);
  });

  test.each([
    ['a string span one character before its token (white space miscounted)', '[ "ab"]', [1, 5]],
    ['a number span one character after its token', '[12 ]', [2, -4]],
  ])('%s is refused, though the token there has its length', (_name, text, spans) => {
    expect(checked(text, spans, [])).toThrow(NOT_KEPT);
  });
});

describe('the check\'s own tables, in a module loaded afresh (their values are read at load time)', () => {
  beforeEach(() => {
    vi.resetModules();
  });

  // Each input is repaired by one reading, and uses each entry of its table once.
  test.each([
    ['every Python escape of a single-quoted string', String.raw`{'a': 'q\" s\' b\\ a\a b\b f\f n\n r\r t\t v\v'}`, String.raw`{"a": "q\" s' b\\ a\u0007 b\b f\f n\n r\r t\t v\u000b"}`],
    ['every JSON escape of a double-quoted string with a raw tab', '{"a": "tab\there \\" \\\\ \\/ \\b \\f \\n \\r \\t"}', '{"a": "tab\\there \\" \\\\ / \\b \\f \\n \\r \\t"}'],
    ['typographic double quotes', '{"a": \u201cq \\n\u201d}', '{"a": "q \\n"}'],
    ['typographic single quotes', '{"a": \u2018q \\n\u2019}', '{"a": "q \\n"}'],
    ['a Gemma string', '{"a": <|"|>g "x"<|"|>}', '{"a": "g \\"x\\""}'],
    ['an empty single-quoted string', "{'a': ''}", '{"a": ""}'],
    ['every Python escape spelled with digits', String.raw`{'a': '\x41\u0042\U00000043\104\7-'}`, String.raw`{"a": "ABCD\u0007-"}`],
    ['a JSON \\u escape in a string rewritten for its raw tab', '{"a": "tab\there \\u0041"}', '{"a": "tab\\there A"}'],
  ])('%s is repaired', async (_name, input, output) => {
    const { coerceArgsJson: fresh } = (await import('../src/index.js')) as typeof import('../src/index.js');
    expect(fresh(input, { type: 'object' }, { lenient: true })).toBe(output);
  });
});
