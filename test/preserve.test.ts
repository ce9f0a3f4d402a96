import { describe, expect, test } from 'vitest';
import { ArgsParseError } from '../src/index.js';
import { applyEdits, type Edit } from '../src/json/tolerant/edits.js';
import { checkTokensKept } from '../src/json/tolerant/preserve.js';
import { readTolerant } from '../src/json/tolerant/reader.js';

/** Checks `text` with the reader's own edits plus `extra` ones (merged in text order). */
function check(text: string, extra: readonly Edit[] = []): () => void {
  const reading = readTolerant(text);
  const edits = [...reading.edits, ...extra].sort((a, b) => a.start - b.start || a.end - b.end);
  return () => checkTokensKept(text, applyEdits(text, edits), reading.tokens, edits);
}

const edit = (start: number, end: number, to: string, rule: Edit['rule'] = 'comment'): Edit => ({ start, end, to, rule });

describe('the token check', () => {
  test.each([
    ['strict JSON, nothing edited', '{"a":[1,"x"]}'],
    ['edits before, between and after tokens move them', "\ufeff```json\n{ // note\n  'a': [1.50, True, /* x */ 'it\\'s'],\n  b: \u201cq\u201d, }\n```"],
    ['a root string', "'only'"],
  ])('keeps the reader\'s own repair: %s', (_name, text) => {
    expect(check(text)).not.toThrow();
  });

  test.each([
    ['an edit inside a string', '["a True b"]', [edit(4, 8, 'true', 'python-literal')]],
    ['a number respelled', '[1.0]', [edit(1, 4, '1', 'python-literal')]],
    ['a number replaced whole, as if it were a string', '[1.0]', [edit(1, 4, '"1.0"', 'quotes')]],
    ['a string replaced whole by a rule that does not write strings', '["a"]', [edit(1, 4, '"b"', 'python-literal')]],
    ['a token lost', '["a","b"]', [edit(4, 8, '')]],
    ['a token added', '["a"]', [edit(4, 4, ',"b"')]],
    ['a token cut in two', '["ab"]', [edit(3, 3, '","')]],
  ] as const)('refuses %s', (_name, text, extra) => {
    expect(check(text, extra)).toThrow(ArgsParseError);
    expect(check(text, extra)).toThrow(/would not keep every string and number/);
  });

  test('refuses a result that is not strict JSON, naming where it is not', () => {
    expect(() => checkTokensKept("['a']", "['a']", [1, 4], [])).toThrow(ArgsParseError);
    expect(() => checkTokensKept("['a']", "['a']", [1, 4], [])).toThrow(/invalid JSON at line 1 column 2 \(position 1\): Unexpected character "'"/);
  });

  // Spans and edits stated by hand, as a faulty reader could report them: each result is strict
  // JSON, and only the token positions are wrong.
  test.each([
    ['a sign added before a number', '[1]', '[-1]', [1, -2], [edit(1, 1, '-')]],
    ['a digit added before a number', '[5]', '[95]', [1, -2], [edit(1, 1, '9')]],
    ['a zero and a point added before a number', '[5]', '[0.5]', [1, -2], [edit(1, 1, '0.')]],
    ['one string claimed as two, split at escaped quotes', '["a\\"b\\"c"]', '["a\\"b\\"c"]', [1, 5, 7, 10], []],
    ['two strings claimed as one', '["a","b"]', '["a","b"]', [1, 8], []],
    ['a string claimed as a number', '["1"]', '["1"]', [1, -4], []],
    ['a number claimed as a string', '[1]', '[1]', [1, 2], []],
    ['two numbers claimed as one', '[1,2]', '[1,2]', [1, -4], []],
    ['one number claimed as two', '[12]', '[12]', [1, -2, 2, -3], []],
    ['a number claimed short of its point', '[1.5]', '[1.5]', [1, -2, 3, -4], []],
    ['a number claimed short of its exponent', '[1e5]', '[1e5]', [1, -2, 3, -4], []],
    ['a number claimed short of its capital exponent', '[1E5]', '[1E5]', [1, -2, 3, -4], []],
    ['a number claimed short of its exponent\'s sign', '[1e+5]', '[1e+5]', [1, -3, 4, -5], []],
    ['a token claimed twice', '["a"]', '["a"]', [1, 4, 1, 4], []],
    ['tokens claimed overlapping by their quotes', '{"a":"b"}', '{"a":"b"}', [1, 4, 3, 6, 5, 8], []],
    ['tokens claimed out of order', '["a","b"]', '["a","b"]', [5, 8, 1, 4], []],
    ['a token claimed past the text', '["a"]', '["a"]', [1, 4, 5, 7], []],
    ['no token claimed in a text that has one', '[1]', '[1]', [], []],
  ] as const)('refuses %s', (_name, text, repaired, spans, edits) => {
    expect(() => checkTokensKept(text, repaired, [...spans], edits)).toThrow(/would not keep every string and number/);
  });

  test.each([
    ['a string ending in an escaped backslash', '["a\\\\"]', [1, 6]],
    ['strings and numbers of every spelling, keys included', '{"k":[-0.5e+3,"\\"",1E-2,0]}', [1, 4, 6, -13, 14, 18, 19, -23, 24, -25]],
    ['a text with no token', '[true,null,{}]', []],
  ] as const)('keeps, spans stated by hand: %s', (_name, text, spans) => {
    expect(() => checkTokensKept(text, text, [...spans], [])).not.toThrow();
  });

  test('records each string and number token where it is in the text given, envelope included', () => {
    // A number's end is negated.
    expect(readTolerant('{"k": [1.50, "v\\n", true]}').tokens).toEqual([1, 4, 7, -11, 13, 18]);
    expect(readTolerant("\ufeff```\n{k: 'v'}\n```").tokens).toEqual([6, 7, 9, 12]);
  });
});

describe('single-quoted strings become their exact JSON spelling', () => {
  // As written inside single quotes → the JSON string token the reader records → the value it means.
  const CASES: readonly [string, string, string][] = [
    ["'plain'", '"plain"', 'plain'],
    ["'it\\'s'", `"it's"`, "it's"],
    [`'say "hi"'`, '"say \\"hi\\""', 'say "hi"'],
    [`'esc \\"q\\"'`, '"esc \\"q\\""', 'esc "q"'],
    [`'slash \\\\"'`, '"slash \\\\\\""', 'slash \\"'],
    [`'both \\\\\\' and "'`, `"both \\\\' and \\""`, `both \\' and "`],
    ["'tab\\t\\u0041'", '"tab\\t\\u0041"', 'tab\tA'],
  ];
  test.each(CASES)('%s', (input, json, value) => {
    const reading = readTolerant(`[${input}]`);
    expect(reading.tokens).toEqual([1, 1 + input.length]);
    expect(reading.edits).toEqual([{ start: 1, end: 1 + input.length, to: json, rule: 'quotes', escapes: 'python' }]);
    expect(JSON.parse(json)).toBe(value);
  });
});

describe('the token check reads every rewritten token itself (no trusted rewrite)', () => {
  /** Checks `text` with the reader's edits, the one at `start` writing `to` instead (and claiming `escapes`, if given). */
  function forged(text: string, start: number, to: string, escapes?: Edit['escapes']): () => void {
    const reading = readTolerant(text);
    const edits = reading.edits.map((e) => (e.start === start ? { ...e, to, ...(escapes === undefined ? {} : { escapes }) } : e));
    expect(edits).not.toEqual(reading.edits);
    return () => checkTokensKept(text, applyEdits(text, edits), reading.tokens, edits);
  }

  // Each input token (at 1, inside `[…]`), the JSON the reader writes, and a wrong JSON of the same length.
  const CASES: readonly [string, string, string, string][] = [
    ['single quotes', "'plain'", '"plain"', '"plaim"'],
    ['single quotes around a long content', "'a plain value long enough to be compared whole'", '"a plain value long enough to be compared whole"', '"a plain value long enough to be compared whola"'],
    ['a Python \\x escape', "'\\x41'", '"A"', '"B"'],
    ['a Python \\U escape', "'\\U0001F600'", '"\ud83d\ude00"', '"\ud83d\ude01"'],
    ['Python octal escapes', "'\\101\\0\\7'", '"A\\u0000\\u0007"', '"A\\u0000\\u0006"'],
    ['Python \\a \\v \\b \\f \\\' \\"', "'\\a\\v\\b\\f\\'\\\"'", '"\\u0007\\u000b\\b\\f\'\\""', '"\\u0007\\u000c\\b\\f\'\\""'],
    ['typographic quotes with a \\u escape', '\u201ccaf\\u00e9\u201d', '"caf\u00e9"', '"cafe"'],
    ['typographic quotes with JSON escapes', '\u201ca\\\\b\\/c\\"\\n\\r\\t\\b\\f\u201d', '"a\\\\b/c\\"\\n\\r\\t\\b\\f"', '"a\\\\b/c\\"\\n\\r\\t\\b\\b"'],
    ['a raw control character', '"a\tb"', '"a\\tb"', '"a\\nb"'],
    ['backslashes read as written', '"C:\\Dev"', '"C:\\\\Dev"', '"C:\\\\Deu"'],
    ['a Gemma string', '<|"|>say "hi"<|"|>', '"say \\"hi\\""', '"say \\"ho\\""'],
  ];
  test.each(CASES)('%s: the reader\'s rewrite passes, a wrong one is refused', (_name, token, json, wrong) => {
    const text = `[${token}]`;
    const reading = readTolerant(text);
    expect(reading.edits.find((e) => e.start === 1)!.to).toBe(json);
    expect(check(text)).not.toThrow();
    expect(forged(text, 1, wrong)).toThrow(/would not keep every string/);
  });

  test('a token written as the same characters is still held to the reading claimed for it', () => {
    // `"C:\new"` as written has a newline in JSON; read as written it has a backslash and an n.
    const text = '["C:\\new"]';
    const edits: Edit[] = [{ start: 1, end: 9, to: '"C:\\new"', rule: 'literal-backslash', escapes: 'literal' }];
    expect(() => checkTokensKept(text, text, [1, 9], edits)).toThrow(/would not keep every string/);
    expect(() => checkTokensKept(text, text, [1, 9], [{ ...edits[0]!, escapes: 'json' }])).not.toThrow();
    // The same for a content long enough to be compared whole.
    const long = '["C:\\new folder\\for the project\\notes"]';
    const whole: Edit[] = [{ start: 1, end: long.length - 1, to: long.slice(1, -1), rule: 'literal-backslash', escapes: 'literal' }];
    expect(() => checkTokensKept(long, long, [1, long.length - 1], whole)).toThrow(/would not keep every string/);
    expect(() => checkTokensKept(long, long, [1, long.length - 1], [{ ...whole[0]!, escapes: 'json' }])).not.toThrow();
  });

  /** Checks `text`, one string token at 1..`end`, written as `to` by an edit claiming `escapes`. */
  const claimed = (text: string, end: number, to: string, escapes: Edit['escapes']) => () => {
    const edits: Edit[] = [{ start: 1, end, to, rule: 'quotes', escapes }];
    checkTokensKept(text, applyEdits(text, edits), [1, end], edits);
  };

  test.each([
    ['quotes that do not pair', "['abc\"]", 6, '"abc"', 'python'],
    ['a \\u escape with two hex digits', "['\\u12']", 7, '"\\u0012"', 'python'],
    ['a \\U escape past U+10FFFF', "['\\U00110000']", 13, '"x"', 'python'],
    ['\\8, which is no octal escape', "['\\8']", 5, '"8"', 'python'],
    ['an octal escape of four digits', "['\\1234']", 8, '"\\u029c"', 'python'],
    ["\\' read as JSON", "['\\'']", 5, '"\'"', 'json'],
    ['\\/ read as written', '["a\\/b"]', 7, '"a\\\\/b"', 'literal'],
    ['a Gemma token too short for two delimiters', '[<|"|>]', 6, '""', 'gemma'],
    ['a Gemma token with a delimiter inside', '[<|"|>a<|"|>b<|"|>]', 18, '"a<|\\"|>b"', 'gemma'],
  ] as const)('refused: %s', (_name, text, end, to, escapes) => {
    expect(claimed(text, end, to, escapes)).toThrow(/would not keep every string/);
  });

  test.each([
    ['an octal escape stops at three digits', "['\\1234']", 8, '"S4"', 'python'],
    ['\\/ read as JSON', '[\u201ca\\/b\u201d]', 7, '"a/b"', 'json'],
    ['a Gemma token as written', '[<|"|>a\\b<|"|>]', 14, '"a\\\\b"', 'gemma'],
  ] as const)('kept: %s', (_name, text, end, to, escapes) => {
    expect(claimed(text, end, to, escapes)).not.toThrow();
  });

  test('a rewrite whose every character differs from the input token is refused, as one that differs in one', () => {
    expect(forged("['ab']", 1, '"cd"')).toThrow(/would not keep every string/);
    expect(forged('{ab: 1}', 1, '"cd"')).toThrow(/would not keep every string/);
  });

  test('an unquoted key written as another name is refused', () => {
    expect(forged('{abc: 1}', 1, '"abd"')).toThrow(/would not keep every string/);
  });

  test.each([
    ['a Python escape claimed as JSON', "['\\x41']", 'json'],
    ['a JSON \\/ claimed as Python', '[\u201ca\\/b\u201d]', 'python'],
    ['a valid JSON escape claimed as written', '["a\tb\\n"]', 'literal'],
    ['an escape JSON reads as \\u claimed as written', '["a\t\\u0041"]', 'literal'],
    ['a quoted string claimed as Gemma', "['abc']", 'gemma'],
    ['a Gemma string claimed as quoted', '[<|"|>abc<|"|>]', 'json'],
    ['an unknown escape claimed as Python', "['\\q']", 'python'],
  ] as const)('a token read another way than it is written is refused: %s', (_name, text, escapes) => {
    const reading = readTolerant(text);
    const to = reading.edits.find((e) => e.start === 1)!.to;
    expect(forged(text, 1, to, escapes)).toThrow(/would not keep every string/);
  });
});
