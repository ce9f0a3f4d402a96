/**
 * The list separators of `src/coerce/separators.ts`, derived again from the Unicode Character
 * Database (Python's `unicodedata`): every `Po` character named COMMA or SEMICOLON, or whose NFKC
 * form is `,` or `;`, and nothing else of `Po`; white space that is not a space; layout at the ends.
 */
import { spawnSync } from 'node:child_process';
import { beforeEach, describe, expect, test, vi } from 'vitest';
import { HAS_PYTHON, needsPython } from './_helpers/peers.js';

type Separators = typeof import('../src/coerce/separators.js');

// The separator and layout classes are module constants, built once when the module loads: each
// test imports the module afresh, so a class built wrong is seen, not only by a process's first load.
beforeEach(() => {
  vi.resetModules();
});
const load = (): Promise<Separators> => import('../src/coerce/separators.js');

/** True when `char` between two letters separates them. */
const separatesWith = ({ holdsSeparator }: Separators) => (char: string): boolean => holdsSeparator(`a${char}b`);

describe.skipIf(!HAS_PYTHON)(needsPython('the punctuation separators are those the Unicode Character Database names'), () => {
  test('every Po character named COMMA or SEMICOLON (or NFKC , or ;) separates, and no other Po character does', async () => {
    const separates = separatesWith(await load());
    const script = [
      'import json, sys, unicodedata as u',
      "po = [c for c in map(chr, range(0x110000)) if u.category(c) == 'Po']",
      "sep = [c for c in po if 'COMMA' in u.name(c, '') or 'SEMICOLON' in u.name(c, '') or u.normalize('NFKC', c) in (',', ';')]",
      'json.dump({"po": po, "sep": sep}, sys.stdout)',
    ].join('\n');
    const run = spawnSync('python3', ['-c', script], { encoding: 'utf8', maxBuffer: 1 << 24 });
    expect(run.status, run.stderr).toBe(0);
    const { po, sep } = JSON.parse(run.stdout) as { po: string[]; sep: string[] };
    expect(sep.length).toBeGreaterThanOrEqual(37);
    expect(po.filter(separates)).toEqual(sep);
  });
});

describe('separators and layout', () => {
  test('white space that is not a space separates (tab, line breaks, U+0085, U+2028, U+2029); spaces do not', async () => {
    const separates = separatesWith(await load());
    const all = Array.from({ length: 0x3001 }, (_, code) => String.fromCharCode(code));
    const whiteSpace = all.filter((char) => /\p{White_Space}/u.test(char));
    expect(whiteSpace.filter(separates)).toEqual(['\t', '\n', '\v', '\f', '\r', '\u0085', '\u2028', '\u2029']);
    expect(whiteSpace.filter((char) => !separates(char)).every((char) => /\p{Zs}/u.test(char))).toBe(true);
  });

  test('layout at either end is trimmed, every White_Space character and the BOM, the middle kept', async () => {
    const { trimLayout } = await load();
    const layout = ' \t\n\v\f\r\u0085\u00a0\u1680\u2000\u200a\u2028\u2029\u202f\u205f\u3000\ufeff';
    expect(trimLayout(`${layout}a ${layout} b${layout}`)).toBe(`a ${layout} b`);
    expect(trimLayout(layout)).toBe('');
    const text = 'as it is';
    expect(trimLayout(text)).toBe(text);
    // A separator inside is no layout: the ends alone are trimmed.
    expect(trimLayout('\u200ba\u200b')).toBe('\u200ba\u200b');
  });

  test('a split reads the pieces between separators, each trimmed', async () => {
    const { splitList } = await load();
    expect(splitList('python， 教程、 c\u2028d\t e;f')).toEqual(['python', '教程', 'c', 'd', 'e', 'f']);
    expect(splitList('a\u{1da87}b')).toEqual(['a', 'b']);
  });
});
