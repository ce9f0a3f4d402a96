/**
 * Serving-engine tool-call markup: the opening tags of the formats a tool parser turns into JSON
 * arguments, recognised where the arguments (or a key, a colon or a comma inside them) should be,
 * and refused by the format's name, so the message says which parser did not do its work.
 */
import { ENGINE_ENDS, partialEndAt, skipBlank } from './engines.js';
import type { Source } from './source.js';

/** The opening tags of serving engines' tool-call formats, which a tool parser turns into JSON arguments. */
const MARKUP = /<(?:\|tool_calls_section_begin\||\|tool_call_begin\||\|tool_call_argument_begin\||\|tool_call>|\|python_tag\|>|\|[a-z]+\|>|ifm\|tool_call>|\/{0,2}(?:tool_call>|arg_key>|arg_value>|function=|parameter=|function_calls>|invoke[ >]|think>|minimax:|\W{1,2}DSML\W|TOOLCALL>|seed:tool_call>|malformed_json_arguments>)|\uff5ctool\u2581)|\[TOOL_CALLS\]|\]<\]minimax\[>\[/y;
/** Which model family's format a text of tool-call markup is in, by the first of these tags it holds. */
const MARKUP_FORMATS: readonly (readonly [string, string])[] = [
  // An engine's own mark of arguments it could not parse (Rapid-MLX), around whatever the model wrote.
  ['malformed_json_arguments>', 'engine-mark'],
  // Seed-OSS wraps Qwen3-Coder-like <function=…> tags, K2-horizon Hermes-like ones: named first.
  ['seed:tool_call>', 'Seed-OSS'],
  ['ifm|tool_call>', 'K2-horizon'],
  ['TOOLCALL>', 'Nemotron'],
  // MiniMax and DeepSeek's DSML wrap Anthropic-like <invoke> and <parameter> tags: named first.
  ['minimax', 'MiniMax'],
  ['DSML', 'DeepSeek DSML'],
  ['arg_key>', 'GLM'],
  ['arg_value>', 'GLM'],
  ['parameter=', 'Qwen3-Coder XML'],
  ['function=', 'Qwen3-Coder XML'],
  ['<|tool_call>', 'Gemma 4'],
  ['<|tool_call', 'Kimi K2'],
  ['\uff5ctool\u2581', 'DeepSeek'],
  ['[TOOL_CALLS]', 'Mistral'],
  ['tool_call>', 'Hermes'],
  ['function_calls>', 'Anthropic XML'],
  ['invoke', 'Anthropic XML'],
  ['think>', 'reasoning'],
  // Llama 3.x's tag before a JSON call ends as Harmony's tags do: named before them.
  ['<|python_tag|>', 'Llama 3'],
  // Every Harmony tag (`<|channel|>`, `<|call|>`, …) ends so: last, after Kimi's tags and beside Gemma's `<|"|>` strings.
  ['|>', 'gpt-oss Harmony'],
];

/**
 * Refuses, naming it, serving-engine tool-call markup at `at` of the source's body (arguments a
 * tool parser should have turned into JSON); returns when there is none there.
 *
 * @throws {ArgsParseError} When markup starts at `at`.
 */
export function refuseMarkup(source: Source, at: number): void {
  const body = source.body;
  MARKUP.lastIndex = at;
  const match = MARKUP.exec(body);
  if (match === null) return;
  const format = MARKUP_FORMATS.find(([tag]) => body.includes(tag))![1];
  if (format === 'engine-mark') {
    source.fail(at, `the arguments are marked ${JSON.stringify(match[0])} by the serving engine: its tool parser could not read the model's tool call as JSON and passed it on as it was (check its tool-call parser for this model); send the arguments alone, as one JSON object`);
  }
  if (format === 'reasoning') {
    source.fail(at, `the arguments hold the model's reasoning (${JSON.stringify(match[0])}), not JSON: the serving engine's reasoning parser did not separate it from the tool call (check its reasoning parser for this model); send the arguments alone, as one JSON object, with any reasoning closed before them`);
  }
  source.fail(at, `the arguments are tool-call markup (${JSON.stringify(match[0])}, the ${format} format), not JSON: the serving engine's tool parser did not turn the model's tool call into JSON arguments (check its tool-call parser for this model); send the arguments alone, as one JSON object, without the format's tags`);
}

/** Closing tags of XML tool-call formats (Qwen3-Coder, Anthropic XML, GLM, Nemotron) after the arguments. */
const CLOSING_TAG = /<\/(?:parameter|function|invoke|arg_value|function_calls|TOOLCALL)>/y;

/**
 * Refuses, naming it, what follows complete arguments when it is engine markup that is not one
 * engine's whole end sequence: a token cut short, a second call after the end tokens, Mistral's
 * `[TOOL_CALLS]` starting another call, closing tags of an XML format. Returns when it is none of these.
 *
 * @param wrapper - A Hermes `<tool_call>` wrapper was opened before the arguments.
 * @throws {ArgsParseError} For such markup.
 */
export function refuseAfter(source: Source, at: number, wrapper: boolean): void {
  const body = source.body;
  const next = skipBlank(body, at);
  const partial = partialEndAt(body, at);
  if (partial !== undefined) {
    const written = body.slice(next).trimEnd();
    source.fail(at, `the arguments end in ${JSON.stringify(written)}, a part of the end token ${JSON.stringify(partial)} (a token cut short is no known sequence): refused. Send the arguments alone, as one JSON object`);
  }
  if (body.startsWith('[TOOL_CALLS]', next)) {
    source.fail(at, 'a second tool call ("[TOOL_CALLS]", the Mistral format) follows the arguments: two calls were glued into one: refused. Send each call on its own, its arguments as one JSON object');
  }
  CLOSING_TAG.lastIndex = next;
  if (CLOSING_TAG.test(body)) {
    const tag = body.slice(next, CLOSING_TAG.lastIndex);
    const format = tag === '</TOOLCALL>' ? 'the Nemotron tool-call format' : 'an XML tool-call format';
    source.fail(at, `the closing tag ${JSON.stringify(tag)} of ${format} follows the arguments: the call was written in that format and read only in part (a parameter may be lost): refused. Send the arguments alone, as one JSON object`);
  }
  const first = ENGINE_ENDS.flatMap(({ sequences }) => sequences.flat()).find((token) => body.startsWith(token, next));
  if (first !== undefined) {
    source.fail(at, `the end token ${JSON.stringify(first)} after the arguments is followed by more text (a second call, or another engine's tokens): refused. Send one call's arguments alone, as one JSON object`);
  }
  if (wrapper) source.fail(at, 'the <tool_call> wrapper opened before the arguments is not closed right after them: refused. Send the arguments alone, as one JSON object');
}

/** A call id the way Kimi K2 writes one (`functions.read_file:0`), or Gemma 4's call head (`call:ns:create`, omlx#1854), before the arguments. */
const CALL_ID = /(?:(?:functions\.)?[A-Za-z_][\w.-]*:\d+|call:[A-Za-z_][\w.:-]*)[ \t\r\n]*(?=[{<])/y;

/**
 * Refuses a call id before the arguments (`functions.read_file:0{…}`, Kimi K2's id, or Gemma 4's
 * `call:create{…}`, which the tool parser should have taken off), naming it; returns when there is none at `at`.
 *
 * @throws {ArgsParseError} For such an id.
 */
export function refuseCallId(source: Source, at: number): void {
  CALL_ID.lastIndex = at;
  if (!CALL_ID.test(source.body)) return;
  const id = source.body.slice(at, CALL_ID.lastIndex).trim();
  source.fail(at, `a tool-call id (${JSON.stringify(id)}, the ${id.startsWith('call:') ? 'Gemma 4' : 'Kimi K2'} format) stands before the arguments: the serving engine's tool parser did not take it off (check its tool-call parser for this model): refused. Send the arguments alone, as one JSON object`);
}

/**
 * Refuses a quote written `\"` where a key or a value must start: the quotes of the arguments
 * escaped once too many (only some of them: all of them is the `over-escaped` reading, read before
 * this). Returns when no `\"` is at `at`.
 *
 * @throws {ArgsParseError} For such a quote.
 */
export function refuseEscapedQuote(source: Source, at: number): void {
  if (!source.body.startsWith('\\"', at)) return;
  source.fail(at, 'a quote is written \\" outside any string (escaped once too many, and not every quote of the arguments is): which quotes are the string\'s own cannot be known: refused. Send the arguments as plain JSON, each string in plain double quotes');
}
