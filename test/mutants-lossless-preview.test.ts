import { describe, expect, it } from 'vitest';
import { LosslessNumber } from 'lossless-json';
import { previewArgs, stringifyArgs } from '../src/json/lossless.js';

// previewArgs bounds what a refusal or a model-facing message quotes of a value: the text is the
// value's own JSON text, cut at `maxChars` characters (the `…` included) and never in the middle of
// a character. These pin the cut itself, which the refusal tests only see through a long value.
describe('previewArgs: a bounded preview of a value', () => {
  it('gives the whole text when it fits, the same as stringifyArgs', () => {
    const value = { q: 'abc', n: new LosslessNumber('5.0'), xs: [1, true, null] };
    const whole = stringifyArgs(value);
    expect(previewArgs(value, whole.length)).toBe(whole);
    expect(previewArgs(value, 1000)).toBe(whole);
  });

  it('cuts a longer text to maxChars characters, the ellipsis included', () => {
    expect(previewArgs({ q: 'a'.repeat(100) }, 10)).toBe('{"q":"aaa…');
    expect(previewArgs('abcdefgh', 5)).toBe('"abc…');
  });

  it('marks a text cut exactly where a container would have gone on', () => {
    // Four characters of [1,2,3] are "[1,2": a preview of that length must not pass for the whole.
    expect(previewArgs([1, 2, 3], 4)).toBe('[1,…');
    expect(previewArgs([1, 2, 3], 5)).toBe('[1,2…');
    expect(previewArgs([1, 2, 3], 7)).toBe('[1,2,3]');
    expect(previewArgs({ a: 1, b: 2 }, 6)).toBe('{"a":…');
  });

  it('never ends on half of a surrogate pair', () => {
    // '"' then U+1F600 (two UTF-16 units): a cut after two units would keep a lone high surrogate.
    expect(previewArgs('😀a', 3)).toBe('"…');
    expect(previewArgs('😀a', 4)).toBe('"😀…');
    // The ends of the high-surrogate range: U+10000 starts with 0xD800, U+10FFFF with 0xDBFF.
    expect(previewArgs('\u{10000}a', 3)).toBe('"…');
    expect(previewArgs('\u{10FFFF}a', 3)).toBe('"…');
    // A character just outside the range is cut as any other.
    expect(previewArgs('\ud7ffab', 3)).toBe('"\ud7ff…');
    for (const preview of [previewArgs('😀😀😀', 5), previewArgs({ k: '😀'.repeat(50) }, 20)]) {
      // No lone surrogate: a high one not followed by a low one, or a low one not after a high one.
      expect(preview).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/);
    }
  });
});
