/**
 * List separators and layout, by Unicode property rather than an ASCII list: a string at an array
 * position that holds a separator between two pieces of text may be one value or several, in any
 * script; layout at either end of a string is never a separator, so it never changes a verdict.
 */

/**
 * The commas and semicolons of every script: each character of General_Category `Po` whose
 * Unicode name holds `COMMA` or `SEMICOLON`, or whose NFKC form is `,` or `;` (the Greek question
 * mark, the vertical presentation forms). Derived from the Unicode Character Database (14.0, as
 * Python's `unicodedata` has it); `test/separators.test.ts` derives it again and compares.
 */
const PUNCTUATION =
  ',;\u037e\u055d\u060c\u061b\u07f8\u1363\u1364\u1802\u1808\u204f\u2e32\u2e34\u2e35\u2e41\u2e49\u2e4c\u3001' +
  '\ua4fe\ua60d\ua6f5\ua6f6\ufe10\ufe11\ufe14\ufe50\ufe51\ufe54\uff0c\uff1b\uff64' +
  '\u{1144d}\u{1145a}\u{16e97}\u{1da87}\u{1da89}';

/**
 * A list separator: a comma or semicolon of any script (`PUNCTUATION`), or white space that is
 * not a space (`White_Space` minus `Zs`: tab, line feed, vertical tab, form feed, carriage return,
 * next line U+0085, line and paragraph separators U+2028, U+2029).
 */
const SEPARATOR = new RegExp(`[${PUNCTUATION}]|[^\\P{White_Space}\\p{Zs}]`, 'u');
const SEPARATORS = new RegExp(SEPARATOR.source, 'gu');

/** Layout: `White_Space` (spaces of every kind, tabs, line breaks, U+0085) and the byte-order mark JavaScript's `trim` drops too. */
const LAYOUT = /[\p{White_Space}\ufeff]/u;

/**
 * `text` without the layout at its ends (linear: only the ends are looked at). No bound is
 * checked: past either end `text[i]` is `undefined`, read as the text "undefined", no layout; a
 * text of layout alone is walked to its end, then back to its start, and sliced to `''`.
 */
export function trimLayout(text: string): string {
  let start = 0;
  let end = text.length;
  while (LAYOUT.test(text[start]!)) start++;
  while (LAYOUT.test(text[end - 1]!)) end--;
  return text.slice(start, end);
}

/** True when `trimmed` (a string without layout at its ends) holds a list separator. */
export function holdsSeparator(trimmed: string): boolean {
  return SEPARATOR.test(trimmed);
}

/** The pieces of `trimmed` between its separators, each without its layout: how a list split would read it. */
export function splitList(trimmed: string): string[] {
  return trimmed.split(SEPARATORS).map(trimLayout);
}
