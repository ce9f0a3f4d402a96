/**
 * Call structure inside string values (rule `markup`): the text of a tool call that a serving
 * engine or a harness read into a string instead of turning it into arguments. Never repaired, only
 * refused `ambiguous` at the string, naming what it holds: which text belongs to which argument, or
 * whether the markup is the string's own content, cannot be known.
 *
 * - Parameters run together (Claude's tag grammar: a long string closed with the wrong tag swallows
 *   every parameter after it; GLM's, where an engine reads a value up to the last `</arg_value>`;
 *   Qwen3-Coder's, where a malformed `</parameter>` lets the next parameter into the value): the
 *   string holds `<parameter name="X">`, `<arg_key>X</arg_key>` or `<parameter=X>` where X is a
 *   parameter its object declares and does not hold. A string that only mentions such markup (an XML document, a
 *   name the object holds or does not declare) is content, and left alone.
 * - Engine call tokens: Gemma 4's string delimiter `<|"|>`, Kimi K2's call tokens
 *   (`<|tool_call_argument_begin|>`), DeepSeek's DSML tags. End tokens (`<|im_end|>`) in a string
 *   are content, as everywhere else in a value.
 */
import { previewOf } from './gate.js';
import type { Refusal } from './types.js';

/** A parameter's opening tag in Claude's tag grammar: `<parameter name="preset">`. */
const PARAMETER_OPEN = /<parameter name="([^"<>]{1,200})">/g;

/** A parameter's key tag in GLM's grammar (GLM 4.5 to 5, and formats modelled on it): `<arg_key>pattern</arg_key>`. */
const ARG_KEY = /<arg_key>([^"<>]{1,200})<\/arg_key>/g;

/** A parameter's opening tag in Qwen3-Coder's XML grammar: `<parameter=city>`. */
const PARAMETER_EQUALS = /<parameter=([^"<>\s]{1,200})>/g;

/** Tokens of an engine's call structure that no string of arguments holds, and whose they are. */
const CALL_TOKENS: readonly (readonly [string, string])[] = [
  ['<|"|>', 'Gemma 4'],
  ['<|tool_call_argument_begin|>', 'Kimi K2'],
  ['<|tool_call_begin|>', 'Kimi K2'],
  ['<|tool_calls_section_begin|>', 'Kimi K2'],
  ['\uff5cDSML\uff5c', 'DeepSeek DSML'],
];

/**
 * The names of every `<parameter name="…">`, `<arg_key>…</arg_key>` and `<parameter=…>` tag in
 * `text`, each once: Claude's tags first, then GLM's, then Qwen3-Coder's, each grammar's in order.
 */
export function parameterTags(text: string): string[] {
  const names = new Set<string>();
  if (text.includes('<parameter name="')) for (const match of text.matchAll(PARAMETER_OPEN)) names.add(match[1]!);
  if (text.includes('<arg_key>')) for (const match of text.matchAll(ARG_KEY)) names.add(match[1]!);
  if (text.includes('<parameter=')) for (const match of text.matchAll(PARAMETER_EQUALS)) names.add(match[1]!);
  return [...names];
}

/** The tag of `name` as `value` spells it: Claude's where it holds that (or none), else GLM's, else Qwen3-Coder's. */
function tagOf(value: string, name: string): string {
  const claude = `<parameter name="${name}">`;
  if (value.includes(claude)) return claude;
  return [`<arg_key>${name}</arg_key>`, `<parameter=${name}>`].find((tag) => value.includes(tag)) ?? claude;
}

/**
 * The refusal of a string at `path` whose parameter tags name `missing` (declared beside it, not
 * sent): the call's parameters ran together into it. `expected` names the types accepted there.
 */
export function ranTogether(path: string, value: string, missing: readonly string[], expected: readonly string[]): Refusal {
  const names = missing.join(', ');
  const tags = missing.map((name) => tagOf(value, name)).join(', ');
  const message = `${previewOf(value)} at ${path} was left as it is: it holds the tool-call markup of ${missing.length === 1 ? 'the parameter' : 'the parameters'} ${names} (${tags}), which the arguments lack: the call's parameters ran together into this string; send ${names} as ${missing.length === 1 ? 'an argument' : 'arguments'} of ${missing.length === 1 ? 'its' : 'their'} own, and this string alone`;
  return { path, value, reason: 'ambiguous', expected, message };
}

/**
 * The refusal of a string at `path` that holds an engine's call-structure token, or `undefined`
 * when it holds none. `expected` names the types accepted there.
 */
export function engineTokenRefusal(path: string, value: string, expected: readonly string[]): Refusal | undefined {
  if (!value.includes('<')) return undefined;
  const found = CALL_TOKENS.find(([token]) => value.includes(token));
  if (found === undefined) return undefined;
  const [token, engine] = found;
  const message = `${previewOf(value)} at ${path || 'the root'} was left as it is: it holds ${JSON.stringify(token)}, a token of the ${engine} tool-call format: the serving engine did not turn the model's call into this value (check its tool-call parser for this model); send the value alone`;
  return { path, value, reason: 'ambiguous', expected, message };
}
