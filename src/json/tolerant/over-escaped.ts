/**
 * The `over-escaped` reading: arguments whose every quote is written `\"`, one escaping level too
 * many (`{\"path\": \"a.txt\"}`), as if the text of a JSON string had been sent without its own
 * quotes. It is read as that string's content, decoded once. Its competing reading is the text with
 * only its quotes unescaped (every other backslash as written): where both read and give two values
 * (a `\\n` is a line break in the first, a backslash and an `n` in the second), the text is
 * refused with both. A text where some quotes are plain (`{"path": \"a\"}`) is no such text: the
 * reader refuses it, naming the escaped quote.
 */

/** Opens like over-escaped arguments: a brace, then an escaped quote (white space between, raw or escaped with the rest). */
const OPENS = /^[ \t\r\n]*\{(?:[ \t\r\n]|\\[nrt])*\\"/;
const CONTROL = /[\u0000-\u001f]/g;

/** True when `text` opens as over-escaped arguments do. */
export function opensOverEscaped(text: string): boolean {
  return OPENS.test(text);
}

/**
 * The text decoded once as a JSON string's content (raw line breaks and tabs, which a string may
 * not hold, kept as they are), or `undefined` when it is no such content (a plain quote in it, a
 * backslash before a letter JSON does not escape).
 */
export function decodeOnce(text: string): string | undefined {
  try {
    return JSON.parse(`"${text.replace(CONTROL, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)}"`) as string;
  } catch {
    return undefined;
  }
}

/** The competing reading: only the escaped quotes unescaped, every other backslash as written. */
export function quotesUnescaped(text: string): string {
  return text.replaceAll('\\"', '"');
}
