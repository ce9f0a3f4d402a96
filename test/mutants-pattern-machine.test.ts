/**
 * The linear-time matcher (`src/schema/pattern-machine.ts`) on the edges its mutants move: one
 * compiled pattern asked about many keys (its cache of state sets), the ends of the text, the
 * first and last surrogates read backward, and each end of `\b`'s word characters. Every answer
 * is the native engine's too.
 */
import { describe, expect, test } from 'vitest';
import { compilePattern } from '../src/schema/patterns.js';

/** The matcher's answer, checked against the native engine's with the same flags. */
function answer(source: string, text: string): boolean | undefined {
  const pattern = compilePattern(source)!;
  const result = pattern.test(text);
  expect(new RegExp(source, pattern.flags).test(text)).toBe(result);
  return result;
}

describe('one compiled pattern asked about many keys', () => {
  test('a step onto the end of a text is worked out there, not taken from a text that went on', () => {
    const pattern = compilePattern('a$')!;
    expect(pattern.test('ab')).toBe(false);
    expect(pattern.test('a')).toBe(true);
  });

  test('the empty key, where $ holds at the start, after a longer one', () => {
    const pattern = compilePattern('a|^$')!;
    expect(pattern.test('bb')).toBe(false);
    expect(pattern.test('')).toBe(true);
  });

  test('a longer key after the empty one', () => {
    const pattern = compilePattern('a|^$')!;
    expect(pattern.test('')).toBe(true);
    expect(pattern.test('bb')).toBe(false);
  });

  test('a step that ended one text is not taken for the same step inside a longer one', () => {
    const pattern = compilePattern('a$')!;
    expect(pattern.test('a')).toBe(true);
    expect(pattern.test('ab')).toBe(false);
  });
});

// What follows a character decides these: the same step gives different sets in different places.
describe('a step the state cache must not reuse: \\b, \\B and lookaround look past the character read', () => {
  test.each([
    ['a\\b', 'aba-', true],
    ['a\\B', 'a-ab', true],
    ['a(?=b)', 'acab', true],
    ['a(?!c)', 'acab', true],
  ])('%s against %j: %s', (source, text, expected) => {
    expect(answer(source, text)).toBe(expected);
  });
});

// A lookaround's body is run once over the whole text, marking every place it matches: a match
// found at one place must not stop the longer ways through the body that are still going.
describe('a lookaround body that matches early and goes on', () => {
  test.each([
    ['(?<=a|abc)d', 'abcd', true],
    ['x(?=c|abc)', 'xabc', true],
  ])('%s against %j: %s', (source, text, expected) => {
    expect(answer(source, text)).toBe(expected);
  });
});

describe('lookaround at the ends of the text, and away from them', () => {
  test.each([
    ['a(?=$)', 'a', true],
    ['a(?=b*$)', 'a', true],
    ['a(?!$)', 'a', false],
    ['(?<=^)a', 'a', true],
    ['(?<!^)a', 'a', false],
    ['a(?=b)', 'abc', true],
    ['(?<=a)b', 'cab', true],
  ])('%s against %j: %s', (source, text, expected) => {
    expect(answer(source, text)).toBe(expected);
  });
});

// A lookahead is answered by reading its body backward from the end of the text.
describe('a code point read backward: the first and last surrogates of each half', () => {
  test.each([
    { what: 'U+10000, the first astral code point', text: 'a\ud800\udc00', expected: true },
    { what: 'U+10FFFF, the last', text: 'a\udbff\udfff', expected: true },
    { what: 'a lone low surrogate after the unit before the high ones', text: 'a\ud7ff\udc00', expected: false },
    { what: 'a lone low surrogate after a letter', text: 'a\udc00', expected: true },
    { what: 'a lone high surrogate before the unit after the low ones', text: 'a\ud800\ue000', expected: false },
    { what: 'U+FFFF, the last one-unit character', text: 'a\uffff', expected: true },
  ])('$what: a(?=.$) answers $expected', ({ text, expected }) => {
    expect(answer('a(?=.$)', text)).toBe(expected);
  });
});

describe('what is read backward besides a pair', () => {
  test('a pair at the very start of the text is one character', () => {
    expect(answer('^(?=.$)', '\ud83d\ude00')).toBe(true);
  });

  test('two lone low surrogates are two characters', () => {
    expect(answer('a(?=.$)', 'a\udc00\udc00')).toBe(false);
  });

  test('a pair is the code point it encodes', () => {
    expect(answer('a(?=😀)', 'a😀')).toBe(true);
    expect(answer('a(?=😁)', 'a😀')).toBe(false);
  });

  test('a character after a lone high surrogate is itself', () => {
    expect(answer('.(?=b$)', '\ud800b')).toBe(true);
  });

  test('without the u flag a pair is two characters', () => {
    expect(answer('a(?=.$)|\\-', 'a\ud83d\ude00')).toBe(false);
    expect(answer('a(?=..$)|\\-', 'a\ud83d\ude00')).toBe(true);
  });
});

describe('\\b: each end of the word characters and its neighbour', () => {
  test.each([
    ['/', false],
    ['0', true],
    ['9', true],
    [':', false],
    ['@', false],
    ['A', true],
    ['Z', true],
    ['[', false],
    ['^', false],
    ['_', true],
    ['`', false],
    ['a', true],
    ['z', true],
    ['{', false],
  ])('%j is a word character: %s', (char, expected) => {
    expect(answer('\\b', char)).toBe(expected);
    expect(answer('\\B', char)).toBe(!expected);
  });
});

describe('a character class asked about U+0080, the first character past the ASCII memo', () => {
  test.each([
    { source: '^[\\x80-\\xff]$', expected: true },
    { source: '^[^a]$', expected: true },
    { source: '^.$', expected: true },
    { source: '^[\\x00-\\x7f]$', expected: false },
  ])('$source: $expected', ({ source, expected }) => {
    expect(answer(source, '\u0080')).toBe(expected);
  });
});
