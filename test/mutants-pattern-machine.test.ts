/**
 * The linear-time matcher (`src/schema/pattern-machine.ts`) on the edges its mutants move: one
 * compiled pattern asked about many keys (its cache of state sets), the ends of the text, the
 * first and last surrogates read backward, and each end of `\b`'s word characters. Every answer
 * is the native engine's too. Then the step bound at its exact edge, and the memory the caches
 * hold at their bounds (read from their private fields: `test` cannot show it).
 */
import { describe, expect, test } from 'vitest';
import { PatternMachine, stepBound } from '../src/schema/pattern-machine.js';
import { parsePattern } from '../src/schema/pattern-syntax.js';
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

  // State 0 is the match, `t` 1, `s` 2, `r` 4 … `a` 21: the start set is {21}, the set after `r`
  // is {2, 1}. Their keys must differ though their states' digits run the same (`21` both, joined
  // with no separator): else the step after `r` would go on from `a`.
  test('a set of state 21 and a set of states 2 and 1 are two sets', () => {
    const pattern = compilePattern('^abcdefghijklmnopqr(?:s|t)')!;
    expect(answer(pattern.source, 'abcdefghijklmnopqrs')).toBe(true);
    expect(pattern.test('abcdefghijklmnopqrs')).toBe(true);
    expect(pattern.test('abcdefghijklmnopqrt')).toBe(true);
    expect(pattern.test('abcdefghijklmnopqra')).toBe(false);
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

// Unanchored, a lookahead is asked at every `a`: its table is worked out once for the text, not
// once a position (10,000 sweeps of the text would pass the step bound).
test('a lookahead asked at every other position of a long text is answered', () => {
  const pattern = compilePattern('a(?=c)')!;
  expect(pattern.test('ab'.repeat(5000))).toBe(false);
  expect(pattern.test('ab'.repeat(5000) + 'ac')).toBe(true);
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

// `(?:\B){1376}b` against a run of `a`: no state cache (`\B`); at each end of the text the first
// `\B` fails (1 visit); at every position inside it the 1,376 `\B` hold and `b` is reached, and
// never matches (1,377 visits). A text of n letters costs 2 + (n - 1) × 1,377 visits.
describe('the step bound at its exact edge', () => {
  const visits = (length: number) => 2 + (length - 1) * 1377;

  test('a test that takes exactly `stepBound(text)` visits is answered; one letter more is not', () => {
    const pattern = compilePattern('(?:\\B){1376}b')!;
    const text = 'a'.repeat(2975);
    expect(visits(2975)).toBe(stepBound(text));
    expect(visits(2976)).toBeGreaterThan(stepBound(text + 'a'));
    expect(pattern.test(text.slice(1))).toBe(false);
    expect(pattern.test(text)).toBe(false);
    expect(pattern.test(text + 'a')).toBeUndefined();
  });
});

/** A compiled pattern, for what `test` cannot show: the memory its caches hold. */
function machine(source: string): PatternMachine {
  return new PatternMachine(parsePattern(source, true), 'u');
}

/** What the state cache holds, counted from its sets themselves (its fields are private). */
function held(pattern: PatternMachine): { sets: number; states: number; links: number } {
  const cache = pattern.cache as unknown as { sets: Map<string, { list: number[]; next: Map<number, unknown> }> };
  let states = 0;
  let links = 0;
  for (const set of cache.sets.values()) {
    states += set.list.length;
    links += set.next.size;
  }
  return { sets: cache.sets.size, states, links };
}

// A hostile set of keys must not grow a compiled pattern's memory without bound: past its
// bounds the cache keeps what it has, and the steps it cannot keep are worked out.
describe('the caches stop growing at their bounds, and the answers stay right', () => {
  test('1,000 sets: a chain of 1,501 states read to its end', () => {
    const pattern = machine('^a{1500}b');
    expect(pattern.test(`${'a'.repeat(1500)}b`)).toBe(true);
    expect(held(pattern).sets).toBe(1000);
    expect(pattern.test(`${'a'.repeat(1500)}b`)).toBe(true);
    expect(pattern.test(`${'a'.repeat(1499)}b`)).toBe(false);
  });

  test('100,000 states in all: sets of 2 to 447 states', () => {
    const pattern = machine('a[ab]{500}');
    const text = `b${'a'.repeat(600)}bb`;
    expect(pattern.test(text)).toBe(true);
    const { sets, states } = held(pattern);
    // The start set and the sets after 1 to 445 letters `a` hold 1 + 2 + … + 446 states; the next, of 447, would pass the bound.
    expect(sets).toBe(446);
    expect(states).toBe(99_681);
    expect(pattern.test(text)).toBe(true);
    expect(pattern.test('a'.repeat(400))).toBe(false);
  });

  test('20,000 steps: 30 sets, each left by 700 characters', () => {
    const pattern = machine('^.{0,40}$');
    for (let k = 0; k < 30; k++) for (let c = 0; c < 700; c++) pattern.test(`${'a'.repeat(k)}${String.fromCharCode(0x100 + c)}a`);
    expect(held(pattern).links).toBe(20_000);
    expect(pattern.test(`${'a'.repeat(29)}\u03ffa`)).toBe(true);
    expect(pattern.test('a'.repeat(42))).toBe(false);
  });

  test("a class's memo keeps 4,096 answers past the ASCII ones", () => {
    const pattern = machine('^[^a]*$');
    const text = Array.from({ length: 5000 }, (_, i) => String.fromCharCode(0x100 + i)).join('');
    expect(pattern.test(text)).toBe(true);
    const [test] = (pattern as unknown as { chars: { others: Map<number, boolean> }[] }).chars;
    expect(test!.others.size).toBe(4096);
    expect(pattern.test(`${text}a`)).toBe(false);
  });
});
