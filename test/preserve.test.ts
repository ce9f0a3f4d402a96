import { describe, expect, test } from 'vitest';
import { ArgsParseError } from '../src/index.js';
import { applyEdits, type Edit } from '../src/json/repair/edits.js';
import { checkTokensKept } from '../src/json/repair/preserve.js';
import { readTolerant } from '../src/json/repair/reader.js';

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

  test('refuses a result that is not strict JSON', () => {
    expect(() => checkTokensKept("['a']", "['a']", [1, 4], [])).toThrow(ArgsParseError);
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
