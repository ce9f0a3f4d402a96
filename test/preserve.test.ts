import { describe, expect, test } from 'vitest';
import { ArgsParseError } from '../src/index.js';
import { checkTokensKept, tokensOf } from '../src/json/repair/preserve.js';
import { readTolerant } from '../src/json/repair/reader.js';

/** Rows: the tokens of `from` (strict JSON) checked against the text `to`; `kept` says whether they must pass. */
const ROWS: readonly { readonly name: string; readonly from: string; readonly to: string; readonly kept: boolean }[] = [
  { name: 'the same text', from: '{"a":[1,"x"]}', to: '{"a":[1,"x"]}', kept: true },
  { name: 'white space and literals do not count', from: '{"a":true}', to: '{ "a" : false }', kept: true },
  { name: 'another spelling of the same string', from: '["A/é"]', to: '["\\u0041\\/\\u00e9"]', kept: true },
  { name: 'a key spelled with an escape', from: '{"ab":1}', to: '{"a\\u0062":1}', kept: true },
  { name: 'a string changed', from: '["abc"]', to: '["abd"]', kept: false },
  { name: 'a number respelled', from: '[1.0]', to: '[1]', kept: false },
  { name: 'a number turned into a string', from: '[1]', to: '["1"]', kept: false },
  { name: 'a string turned into a number', from: '["1"]', to: '[1]', kept: false },
  { name: 'a token lost', from: '["a","b"]', to: '["a"]', kept: false },
  { name: 'a token added', from: '["a"]', to: '["a","b"]', kept: false },
  { name: 'two tokens swapped', from: '["a","b"]', to: '["b","a"]', kept: false },
  { name: 'a key and its value swapped', from: '{"a":"b"}', to: '{"b":"a"}', kept: false },
];

describe('the token check', () => {
  test.each(ROWS)('$name', ({ from, to, kept }) => {
    const check = (): void => checkTokensKept(to, tokensOf(from));
    if (kept) expect(check).not.toThrow();
    else expect(check).toThrow(ArgsParseError);
  });

  test('refuses text that is not strict JSON', () => {
    expect(() => checkTokensKept("['a']", tokensOf('["a"]'))).toThrow(ArgsParseError);
  });

  test('tokens are spelled as strict JSON: strings with their quotes, numbers as written', () => {
    expect(tokensOf('{"k": [1.50, "v\\n"]}')).toEqual(['"k"', '1.50', '"v\\n"']);
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
    expect(reading.tokens).toEqual([json]);
    expect(reading.edits.map((edit) => edit.to)).toEqual([json]);
    expect(JSON.parse(json)).toBe(value);
  });
});
