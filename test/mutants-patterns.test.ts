import { describe, expect, test } from 'vitest';
import { compilePattern, isSafePattern } from '../src/schema/patterns.js';

// The safety policy for patterns run against model-chosen keys and strings, asked directly.
describe('compilePattern and isSafePattern', () => {
  test.each([
    ['a bounded pattern', '^[a-z]+_id$', true],
    ['1,000 characters', 'a'.repeat(1000), true],
    ['1,001 characters', 'a'.repeat(1001), false],
    ['a repeated group holding +', '^(a+)+$', false],
    ['a repeated group holding *', '(\\w*)*', false],
    ['a repeated group holding {2,}', '(a{2,})+', false],
    ['a group repeated by {1,}', '(a+){1,}', false],
    ['a repeated group without an unbounded quantifier', '^(ab)+$', true],
    ['an unbounded group repeated a bounded number of times', '(a+){2}', true],
  ])('%s: safe is %s', (_, source, safe) => {
    expect(isSafePattern(source)).toBe(safe);
    expect(compilePattern(source) !== undefined).toBe(safe);
  });

  test('a pattern is compiled with the u flag when it allows', () => {
    expect(compilePattern('^\\p{L}+$')?.flags).toBe('u');
    expect(compilePattern('^\\p{L}+$')?.test('héllo')).toBe(true);
  });

  test('a pattern the u flag refuses is compiled without it', () => {
    // `\-` outside a class is an identity escape the u flag forbids.
    const pattern = compilePattern('^a\\-b$');
    expect(pattern?.flags).toBe('');
    expect(pattern?.test('a-b')).toBe(true);
  });

  test.each(['(', '[a-', 'a{2,1}'])('an invalid pattern %s compiles to nothing', (source) => {
    expect(compilePattern(source)).toBeUndefined();
  });
});
