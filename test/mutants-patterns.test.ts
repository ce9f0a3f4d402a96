import { describe, expect, test } from 'vitest';
import { compileLinear, compilePattern } from '../src/schema/patterns.js';
import { MAX_STATES, MAX_STEPS, STEPS_PER_CHARACTER, stepBound } from '../src/schema/pattern-machine.js';

/**
 * The time limit of the tests that run texts of 10^5 to 4·10^6 characters (3 s together on a quiet
 * machine): under Stryker's instrumentation each state visit costs several times more, and the
 * config's 60 s failed its dry run on a loaded machine. A hang still fails, after 10 minutes.
 */
const LONG_TEXT = { timeout: 600_000 };

// The linear-time matcher asked directly: syntax, fail-closed refusals, bounds, and the parts the
// differential test (test/patterns-differential.test.ts) reaches only by chance.
describe('compilePattern', () => {
  test('a pattern is compiled with the u flag when it allows', () => {
    expect(compilePattern('^\\p{L}+$')?.flags).toBe('u');
    expect(compilePattern('^\\p{L}+$')?.test('héllo')).toBe(true);
    expect(compilePattern('^\\p{L}+$')?.test('héllo1')).toBe(false);
  });

  test('a pattern the u flag refuses is compiled without it', () => {
    // `\-` outside a class is an identity escape the u flag forbids.
    const pattern = compilePattern('^a\\-b$');
    expect(pattern?.flags).toBe('');
    expect(pattern?.test('a-b')).toBe(true);
  });

  test.each(['(', '[a-', 'a{2,1}', '(?<n>a)(?<n>b)'])('an invalid pattern %s compiles to nothing', (source) => {
    expect(compilePattern(source)).toBeUndefined();
  });

  test('compileLinear throws the native SyntaxError for a pattern invalid with its flags', () => {
    expect(() => compileLinear('^a\\-b$', 'u')).toThrow(SyntaxError);
    expect(compileLinear('^a\\-b$', '').test('a-b')).toBe(true);
  });

  test.each([
    ['^(a+)+$', 'a'.repeat(5000) + '!'],
    ['^((a+))+$', 'a'.repeat(5000) + '!'],
    ['^(a|a?)+$', 'a'.repeat(5000) + '!'],
    ['^(a|a)*$', 'a'.repeat(5000) + '!'],
    ['^(.*a){12}$', 'a'.repeat(5000) + '!'],
    ['(x|x)*y', 'x'.repeat(5000)],
    ['^(\\w*)*$', 'a'.repeat(5000) + '!'],
    ['^(?=(a+)+$)a', 'a'.repeat(5000) + '!'],
  ])('%s against 5,000 characters: no match, and no backtracking', (source, text) => {
    const pattern = compilePattern(source)!;
    expect(pattern.test(text)).toBe(false);
    expect(pattern.test(text.slice(0, -1) + 'a'.repeat(12) + (source.includes('x') ? 'y' : ''))).toBe(true);
  });

  test.each([
    ['^(a)\\1$', 'it uses a backreference'],
    ['^(?<n>a)\\k<n>$', 'it uses a backreference'],
    ['\\01', 'it uses an octal escape'],
    ['a\\c', 'it uses a bare \\c'],
    ['\\c1', 'it uses a bare \\c'],
    ['\\8', 'it uses a backreference'],
    ['\\9', 'it uses a backreference'],
    ['\\01', 'it uses an octal escape'],
    [`${'('.repeat(101)}a${')'.repeat(101)}`, 'groups nest more than 100 deep'],
    [`a{${MAX_STATES + 1}}`, `it repeats a group more than ${MAX_STATES} times`],
    [`a{0,${MAX_STATES + 1}}`, `it repeats a group more than ${MAX_STATES} times`],
    [`(?:){${MAX_STATES + 1},}`, `it repeats a group more than ${MAX_STATES} times`],
    ['(?:a{100}){101}', `it needs more than ${MAX_STATES} states`],
    ['(?=a{5000})(?<=b{5001})', `it needs more than ${MAX_STATES} states`],
  ])('%s cannot be checked: %s', (source, reason) => {
    const pattern = compilePattern(source)!;
    expect(pattern.unsupported).toBe(reason);
    expect(pattern.test('aa')).toBeUndefined();
    expect(pattern.test('')).toBeUndefined();
  });

  test('an inline modifier group, where the native engine knows it (Node 23+), cannot be checked', () => {
    let known = true;
    try {
      new RegExp('(?i:a)', 'u');
    } catch {
      known = false;
    }
    expect(compilePattern('(?i:a)')?.unsupported).toBe(known ? 'it uses an inline modifier group' : undefined);
  });

  test('exactly 100 levels of groups, and a repeat of exactly the bound, are read', () => {
    expect(compilePattern(`${'('.repeat(100)}a${')'.repeat(100)}`)!.test('a')).toBe(true);
    // The repeat's states, the two anchors and the match state: exactly the bound.
    expect(compilePattern(`^a{${MAX_STATES - 3}}$`)!.test('a'.repeat(MAX_STATES - 3))).toBe(true);
    expect(compilePattern(`^a{${MAX_STATES - 2}}$`)!.unsupported).toBe(`it needs more than ${MAX_STATES} states`);
  });

  test('an empty group repeated exactly to the bound, or up to it, is read; one more is refused', () => {
    expect(compilePattern(`^(?:){${MAX_STATES}}$`)!.test('')).toBe(true);
    expect(compilePattern(`^(?:){${MAX_STATES - 10},${MAX_STATES}}$`)!.test('')).toBe(true);
    expect(compilePattern(`^(?:){${MAX_STATES - 10},${MAX_STATES + 1}}$`)!.unsupported).toBe(`it repeats a group more than ${MAX_STATES} times`);
  });

  test('the step bound grows with the text: a long text against a small pattern is answered', LONG_TEXT, () => {
    expect(stepBound('abc')).toBe(MAX_STEPS + 3 * STEPS_PER_CHARACTER);
    const long = 'a'.repeat(MAX_STEPS + 10);
    expect(compilePattern('^x')!.test(long)).toBe(false);
    expect(compilePattern('x')!.test(long)).toBe(false);
    expect(compilePattern('x*y')!.test(long)).toBe(false);
    expect(compilePattern('\\bx')!.test(long)).toBe(false);
    expect(compilePattern('a$')!.test(long)).toBe(true);
  });

  test('a test past the step bound answers undefined, not a guess', LONG_TEXT, () => {
    const pattern = compilePattern('(?:a|b){0,2000}c')!;
    expect(pattern.unsupported).toBeUndefined();
    // Each position holds up to 2,000 copies' states: about 4 visits per copy and position.
    const long = 'a'.repeat(Math.ceil(MAX_STEPS / 2000) + 10);
    expect(pattern.test(long)).toBeUndefined();
    expect(pattern.test('aac')).toBe(true);
    expect(pattern.test('aab')).toBe(false);
  });

  test('a lookahead inside a long text is answered by one sweep: a long text is fine', LONG_TEXT, () => {
    const pattern = compilePattern('^(?!.*\\.\\.)[a-z.]+$')!;
    expect(pattern.test('a.'.repeat(50_000))).toBe(true);
    expect(pattern.test('a.'.repeat(50_000) + '.')).toBe(false);
  });

  test.each([
    ['a\\b', 'a', true],
    ['a\\b', 'ab', false],
    ['\\Ba', 'ba', true],
    ['\\Ba', 'a', false],
    ['\\b', '', false],
    ['\\B', '', true],
    ['(?<=a)b', 'ab', true],
    ['(?<=a)b', 'cb', false],
    ['(?<!a)b', 'ab', false],
    ['(?<!a)b', 'b', true],
    ['a(?=b)', 'ab', true],
    ['a(?=b)', 'ac', false],
    ['a(?!b)', 'ab', false],
    ['a(?!b)', 'a', true],
    ['(?<=😀)a', '😀a', true],
    ['(?<=\\ud83d)a', '😀a', false],
    ['^.$', '😀', true],
    ['^.a$', '\ud800a', true],
    ['(?<=^.)a', '😀a', true],
    ['(?<=^.)a', '\udc00\udc00a', false],
    ['(?<=^..)a', '\udc00\udc00a', true],
    ['(?<=\\udc00)a', '\ud800\udc00\udc00a', true],
    ['^a$', 'ba', false],
    ['a$', 'ba', true],
    ['^$', '', true],
    ['', 'x', true],
    ['^\uffffa$', '\uffffa', true],
    ['^(?<year>\\d{4})-x$', '2024-x', true],
    ['^(?<year>\\d{4})-x$', 'r>2024-x', false],
    ['x(?<n>a)', 'xa', true],
    ['^a{2,}$', 'aaaa', true],
    ['^a{2,}$', 'a', false],
    ['^😀$|\\-', '😀', true],
    ['^x{1,a}$', 'x{1,a}', true],
  ])('%s against %j: %s', (source, text, expected) => {
    expect(compilePattern(source)!.test(text)).toBe(expected);
    expect(new RegExp(source, compilePattern(source)!.flags).test(text)).toBe(expected);
  });

  test('without the u flag a character is one UTF-16 unit', () => {
    const pattern = compilePattern('^.$|\\-')!;
    expect(pattern.flags).toBe('');
    expect(pattern.test('😀')).toBe(false);
    expect(pattern.test('\ud83d')).toBe(true);
    expect(compilePattern('^..$|\\-')!.test('😀')).toBe(true);
    expect(compilePattern('^[😀]$|\\-')!.test('\ude00')).toBe(true);
  });

  test('a class of thousands of characters is answered by the native engine, one character at a time', () => {
    const pattern = compilePattern('^[\\u0100-\\uffff]+$')!;
    const text = Array.from({ length: 6000 }, (_, i) => String.fromCharCode(0x100 + i)).join('');
    expect(pattern.test(text)).toBe(true);
    expect(pattern.test(text + 'a')).toBe(false);
  });
});
