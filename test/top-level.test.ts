/** `topLevelParts`: the members of a root object or the elements of a root array, by position, nothing below them. */
import { expect, test } from 'vitest';
import { ArgsParseError } from '../src/index.js';
import { topLevelParts } from '../src/json/top-level.js';

/** Each part as the text it spans: `key=value` for a member, `value` for an element. */
function shown(text: string): string[] {
  return topLevelParts(text).map(({ key, keyStart, start, end }) =>
    key === undefined ? `${keyStart === start ? '' : '?'}${text.slice(start, end)}` : `${text.slice(keyStart, start).replace(/\s*:\s*$/, '')}=${text.slice(start, end)}`);
}

test('the members of a root object: each key where it starts, each value whole, containers and scalars alike', () => {
  const text = '{ "a" : {"x":[1,{"y":"z"},true,null,"s"]}, "b":"s", "c":5.0 ,"d":true,"e":null,"f":[],"g":{} }';
  expect(shown(text)).toEqual(['"a"={"x":[1,{"y":"z"},true,null,"s"]}', '"b"="s"', '"c"=5.0', '"d"=true', '"e"=null', '"f"=[]', '"g"={}']);
});

test('a key repeated is a part each time; keys below the root are not parts', () => {
  expect(shown('{"a":1,"b":{"a":2},"a":3}')).toEqual(['"a"=1', '"b"={"a":2}', '"a"=3']);
  expect(topLevelParts('{"a\\u0062":1}')[0]!.key).toBe('ab');
});

test('the elements of a root array, nested values inside them', () => {
  expect(shown('[ {"a":[1,"s",null]}, [2,false], "s", 3, false ]')).toEqual(['{"a":[1,"s",null]}', '[2,false]', '"s"', '3', 'false']);
});

test('a scalar root, and empty containers, have no parts', () => {
  for (const text of [' 5 ', '"s"', 'null', '{}', '[]', '[[]]']) expect(topLevelParts(text)).toHaveLength(text === '[[]]' ? 1 : 0);
});

test('text that is not JSON throws the scanner\'s ArgsParseError', () => {
  expect(() => topLevelParts('{"a":1,}')).toThrow(ArgsParseError);
});
