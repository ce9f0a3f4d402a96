/**
 * Serving-engine tool-call markup: the opening tags of the formats a tool parser turns into JSON
 * arguments, recognised where the arguments (or a key, a colon or a comma inside them) should be,
 * and refused by the format's name, so the message says which parser did not do its work.
 */
import type { Source } from './source.js';

/** The opening tags of serving engines' tool-call formats, which a tool parser turns into JSON arguments. */
const MARKUP = /<(?:\|tool_calls_section_begin\||\|tool_call_begin\||\|tool_call_argument_begin\||\|tool_call>|\|[a-z]+\|>|\/?(?:tool_call>|arg_key>|arg_value>|function=|parameter=|function_calls>|invoke[ >]|think>|minimax:|\W{1,2}DSML\W)|\uff5ctool\u2581)|\[TOOL_CALLS\]|\]<\]minimax\[>\[/y;
/** Which model family's format a text of tool-call markup is in, by the first of these tags it holds. */
const MARKUP_FORMATS: readonly (readonly [string, string])[] = [
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
  if (format === 'reasoning') {
    source.fail(at, `the arguments hold the model's reasoning (${JSON.stringify(match[0])}), not JSON: the serving engine's reasoning parser did not separate it from the tool call (check its reasoning parser for this model)`);
  }
  source.fail(at, `the arguments are tool-call markup (${JSON.stringify(match[0])}, the ${format} format), not JSON: the serving engine's tool parser did not turn the model's tool call into JSON arguments (check its tool-call parser for this model)`);
}
