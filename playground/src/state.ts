/**
 * The page's whole state, and its place in the URL (`#` then base64url of the JSON), so a failed
 * call can be shared as a link. Nothing leaves the page: the fragment is never sent to a server.
 */
import type { IntegerRange, LenientRules, PrepareOptions } from '../../src/index.js';

/** A lenient rule. */
export type Rule = keyof LenientRules;
/** Every lenient rule, each of which the page can switch off (a rule added to the library and not here fails the type check). */
const ALL_RULES: Record<Rule, true> = {
  strings: true, booleans: true, arrays: true, jsonText: true, nulls: true, numbersToStrings: true, syntax: true, enumCase: true,
  optionalNull: true, unwrap: true, flattenedKey: true, markup: true, overEscaped: true, arrayToScalar: true,
};
export const RULES: readonly Rule[] = Object.keys(ALL_RULES) as Rule[];

export interface State {
  readonly schema: string;
  readonly args: string;
  readonly tool: string;
  readonly lenient: boolean;
  /** Rules switched off (all are on by default with `lenient`). */
  readonly off: readonly Rule[];
  readonly validate: boolean;
  readonly rejectUndeclared: boolean;
  readonly integerRange: IntegerRange;
}

export const DEFAULT_STATE: State = {
  schema: '{\n  "type": "object",\n  "properties": {\n    "line": { "type": "integer" },\n    "filePath": { "type": "string" }\n  }\n}',
  args: '{"line":5.0,"filePath":"server.go"}',
  tool: 'get_symbol_info',
  lenient: false,
  off: [],
  validate: false,
  rejectUndeclared: false,
  integerRange: 'int64',
};

/** The coercion options `state` asks for (no validator: the page adds it). */
export function coerceOptions(state: State): PrepareOptions {
  const lenient = !state.lenient ? false : state.off.length === 0 ? true : Object.fromEntries(RULES.map((rule) => [rule, !state.off.includes(rule)]));
  return { lenient, integerRange: state.integerRange, rejectUndeclared: state.rejectUndeclared, toolName: state.tool };
}

function toBase64Url(text: string): string {
  let binary = '';
  // Byte by byte: spreading a large schema's bytes into one call would overflow the stack.
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}
const fromBase64Url = (text: string) => new TextDecoder().decode(Uint8Array.from(atob(text.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0)));

/** The URL fragment for `state`. */
export function encodeState(state: State): string {
  return `#${toBase64Url(JSON.stringify(state))}`;
}

/** The state a URL fragment holds, over the defaults; the defaults when it holds none or is not ours. */
export function decodeState(hash: string): State {
  if (hash.length <= 1) return DEFAULT_STATE;
  try {
    const value = JSON.parse(fromBase64Url(hash.slice(1))) as Partial<State>;
    return typeof value === 'object' && value !== null ? { ...DEFAULT_STATE, ...value } : DEFAULT_STATE;
  } catch {
    return DEFAULT_STATE;
  }
}
