/**
 * The edits' compact form (`src/coerce/text-edits.ts`) by its contract: what a builder hands over
 * is every edit pushed, in order, with its span and its replacement, however many there are (the
 * span array grows past its first five edits, the replacements are joined 512 at a time), and
 * `moved` gives the same replacements over other spans, or `undefined` when a span has no place,
 * leaving the edits it was called on as they were. The module's constants (the first capacity,
 * `NONE`) are built once at load, so they are also asked of a module imported afresh.
 */
import { describe, expect, test, vi } from 'vitest';
import { applyTextEdits, TextEdits, TextEditsBuilder } from '../src/coerce/text-edits.js';

/** An edit as plain data: `start..end` becomes `text`. */
interface Plain {
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

function plain(edits: TextEdits): Plain[] {
  return Array.from({ length: edits.length }, (_, i) => ({ start: edits.start(i), end: edits.end(i), text: edits.text(i) }));
}

/** `count` edits 3 characters apart, each replaced by its number, every third by nothing. */
function sample(count: number): Plain[] {
  return Array.from({ length: count }, (_, i) => ({ start: 3 * i, end: 3 * i + 2, text: i % 3 === 2 ? '' : String(i) }));
}

function build(Builder: typeof TextEditsBuilder, edits: readonly Plain[]): TextEdits {
  const builder = new Builder();
  for (const { start, end, text } of edits) builder.push(start, end, text);
  return builder.build();
}

describe.each([0, 1, 2, 5, 6, 11, 768, 1_536, 2_000])('%i edits through the builder', (count) => {
  // Built inside each test, so that Stryker's per-test coverage credits the building to the test.
  const edits = sample(count);

  test('every edit comes back, in order, with its span and its replacement', () => {
    const built = build(TextEditsBuilder, edits);
    expect(built.length).toBe(count);
    expect(plain(built)).toEqual(edits);
  });

  test('the replacements are one text, and each edit knows where its own lies in it', () => {
    const built = build(TextEditsBuilder, edits);
    expect(built.texts).toBe(edits.map((edit) => edit.text).join(''));
    let at = 0;
    for (let i = 0; i < count; i++) {
      expect([built.textStart(i), built.textEnd(i)]).toEqual([at, at + edits[i]!.text.length]);
      at += edits[i]!.text.length;
    }
  });
});

test('edits whose replacements are all empty have an empty text', () => {
  const built = build(TextEditsBuilder, [{ start: 0, end: 1, text: '' }, { start: 4, end: 6, text: '' }]);
  expect(built.texts).toBe('');
  expect(plain(built)).toEqual([{ start: 0, end: 1, text: '' }, { start: 4, end: 6, text: '' }]);
});

test('exactly 512 replacements, joined once with nothing left over, keep their text', () => {
  const edits = Array.from({ length: 512 }, (_, i) => ({ start: 2 * i, end: 2 * i + 1, text: `<${i}>` }));
  expect(build(TextEditsBuilder, edits).texts).toBe(edits.map((edit) => edit.text).join(''));
});

test('one edit, and no edit', () => {
  expect(plain(TextEdits.one(4, 7, '12'))).toEqual([{ start: 4, end: 7, text: '12' }]);
  expect([TextEdits.NONE.length, TextEdits.NONE.texts]).toEqual([0, '']);
});

describe('moved', () => {
  const edits = sample(7);

  test('gives the same replacements over the spans the function maps each place to', () => {
    const built = build(TextEditsBuilder, edits);
    const moved = built.moved((offset) => offset * 2 + 1);
    expect(moved && plain(moved)).toEqual(edits.map(({ start, end, text }) => ({ start: start * 2 + 1, end: end * 2 + 1, text })));
    expect(plain(built)).toEqual(edits);
  });

  test('gives undefined when a start or an end has no place, and leaves the edits as they were', () => {
    const built = build(TextEditsBuilder, edits);
    const lastStart = edits[6]!.start;
    const lastEnd = edits[6]!.end;
    expect(built.moved((offset) => (offset === lastStart ? -1 : offset))).toBeUndefined();
    expect(built.moved((offset) => (offset === lastEnd ? -1 : offset))).toBeUndefined();
    expect(built.moved((offset) => (offset === 0 ? -1 : offset))).toBeUndefined();
    expect(plain(built)).toEqual(edits);
  });

  test('of edits with room to spare maps only the edits there are', () => {
    const built = build(TextEditsBuilder, edits);
    const places: number[] = [];
    built.moved((offset) => (places.push(offset), offset));
    expect(places).toEqual(edits.flatMap(({ start, end }) => [start, end]));
  });
});

describe('applyTextEdits', () => {
  /** The oracle: each edit applied from the last one back. */
  const oracle = (text: string, edits: readonly Plain[]): string => edits.reduceRight((output, { start, end, text: to }) => output.slice(0, start) + to + output.slice(end), text);
  const TEXT = 'abcdefghijklmnopqrstuvwxyz';

  test.each([0, 1, 2, 5, 8])('%i edits: the text with each replaced, every byte between them kept', (count) => {
    const edits = sample(count);
    expect(applyTextEdits(TEXT, build(TextEditsBuilder, edits))).toBe(oracle(TEXT, edits));
  });

  test('edits at both ends, an insertion and a deletion', () => {
    const edits = [{ start: 0, end: 0, text: '<' }, { start: 3, end: 5, text: '' }, { start: 26, end: 26, text: '>' }];
    expect(applyTextEdits(TEXT, build(TextEditsBuilder, edits))).toBe('<abcfghijklmnopqrstuvwxyz>');
    expect(applyTextEdits(TEXT, TextEdits.NONE)).toBe(TEXT);
    expect(applyTextEdits(TEXT, TextEdits.one(0, 26, 'whole'))).toBe('whole');
  });
});

test('a module imported afresh builds the same edits (its constants are made at load)', async () => {
  vi.resetModules();
  const fresh = await import('../src/coerce/text-edits.js');
  expect([fresh.TextEdits.NONE.length, fresh.TextEdits.NONE.texts]).toEqual([0, '']);
  for (const count of [2, 5, 6, 11]) expect(plain(build(fresh.TextEditsBuilder, sample(count)))).toEqual(sample(count));
});
