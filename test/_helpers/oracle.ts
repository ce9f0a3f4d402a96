/**
 * What the differential oracles share (`test/oracle-*.test.ts`): the library's reading of a text,
 * values compared exactly (an integer literal by its BigInt value, any other number as the double
 * it spells, so Python's `2.5` and a literal `2.50` agree and a 20-digit integer is never rounded),
 * the readings of a text that ends in an extra closing bracket (each closing bracket outside a
 * string dropped in turn), and the hostile pieces the generators splice in.
 */
import { ArgsParseError, isLosslessNumber, parseArgs } from '../../src/index.js';

const LINE_END = /[\r\n\u2028\u2029]/;

/** A value read losslessly, spelled so two readings compare exactly; key order kept. */
export function canonical(value: unknown): string {
  if (isLosslessNumber(value)) return /^-?\d+$/.test(value.value) ? `${BigInt(value.value)}` : `${Number(value.value)}f`;
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') return `{${Object.entries(value).map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  return JSON.stringify(value);
}

/** Strict JSON text (an oracle's answer) in its canonical spelling. */
export const canonicalJson = (json: string): string => canonical(parseArgs(json));

/** The library's reading of `text` under syntax repair, canonical, or the error it threw. */
export function libraryReading(text: string): { value: string } | { error: ArgsParseError } {
  try {
    return { value: canonical(parseArgs(text, { repair: true })) };
  } catch (error) {
    if (!(error instanceof ArgsParseError)) throw error;
    return { error };
  }
}

/**
 * `text` with each closing bracket outside strings and comments dropped in turn: the readings of
 * a text that ends in one bracket too many. Strings are single- or double-quoted, a backslash
 * taking the character after it; comments are `//` (to CR, LF, U+2028 or U+2029) and `/* *\/`.
 */
export function closerDeletions(text: string): string[] {
  const readings: string[] = [];
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (char === '"' || char === "'") {
      for (i++; i < text.length && text[i] !== char; i++) if (text[i] === '\\') i++;
    } else if (text.startsWith('//', i)) {
      while (i < text.length && !LINE_END.test(text[i]!)) i++;
    } else if (text.startsWith('/*', i)) {
      i = text.indexOf('*/', i + 2) + 1;
      if (i === 0) break;
    } else if (char === '}' || char === ']') {
      readings.push(text.slice(0, i) + text.slice(i + 1));
    }
  }
  return readings;
}

/**
 * Every Unicode separator (the categories Zs, Zl and Zp) and the list separators of other
 * scripts (fullwidth and ideographic commas, the Arabic comma, semicolons), raw, with tab.
 */
export const SEPARATORS: readonly string[] = [
  ...Array.from({ length: 0x3001 }, (_, code) => String.fromCharCode(code)).filter((char) => /\p{Z}/u.test(char)),
  '\t', '\uff0c', '\u3001', '\u060c', '\uff1b', ';', '\u061b',
];

/** Keys a model's arguments hold that look like paths: dotted, slashed, bracketed, non-ASCII. */
export const ODD_KEYS: readonly string[] = ['a.b', 'labels.app.kubernetes.io/name', 'headers.X-Api.Key', 'a[0].b', 'file.path', 'caf\u00e9', '\u540d\u524d', 'k\u2028y'];
