/**
 * Serving engines' markup around complete arguments (rule `markup`): the tokens an engine writes
 * after a call's JSON (`<|call|>`, `<|tool_call_end|>`, `<｜tool▁call▁end｜>`, …), the Hermes
 * `<tool_call>…</tool_call>` wrapper, a closed `<think>…</think>` block before the arguments and a
 * bare `json` language tag on the first line. Each is dropped only when what it leaves is the
 * whole of one engine's known token sequence, read where no string is open (before the root
 * value, or after it is complete); a part of a token, two engines' tokens, or any other text
 * there is refused, naming it.
 */

/** One engine's tokens after a call's arguments, and where its format defines them. */
export interface EngineEnd {
  readonly engine: string;
  /** The format's definition (a tool parser or the model's own documentation). */
  readonly source: string;
  /** The token sequences that may follow complete arguments, each whole and in this order, white space between. */
  readonly sequences: readonly (readonly string[])[];
}

/**
 * The engines whose end-of-call tokens are dropped after complete arguments. A sequence is
 * listed only as its engine writes it: the call's end, then (optionally) the end of its section.
 */
export const ENGINE_ENDS: readonly EngineEnd[] = [
  {
    engine: 'gpt-oss Harmony',
    source: 'https://github.com/openai/harmony/blob/main/docs/format.md (a tool call message ends with <|call|>); https://github.com/sgl-project/sglang/pull/10576 (or with <|return|>, the end of the message)',
    sequences: [['<|call|>'], ['<|return|>']],
  },
  {
    engine: 'Kimi K2',
    source: 'https://github.com/vllm-project/vllm/blob/main/vllm/tool_parsers/kimi_k2_tool_parser.py',
    sequences: [['<|tool_call_end|>', '<|tool_calls_section_end|>'], ['<|tool_call_end|>']],
  },
  {
    engine: 'DeepSeek V3/R1/V3.1',
    source: 'https://github.com/vllm-project/vllm/blob/main/vllm/tool_parsers/deepseekv3_tool_parser.py',
    sequences: [['<\uff5ctool\u2581call\u2581end\uff5c>', '<\uff5ctool\u2581calls\u2581end\uff5c>'], ['<\uff5ctool\u2581call\u2581end\uff5c>']],
  },
  {
    engine: 'ChatML (Qwen, HyperCLOVA X)',
    source: 'https://github.com/NAVER-Cloud-HyperCLOVA-X/hcx-vllm-plugin/issues/5 (a call ends with <|im_end|>)',
    sequences: [['<|im_end|>']],
  },
  {
    engine: 'Llama 3.x',
    source: 'https://www.llama.com/docs/model-cards-and-prompt-formats/llama3_1/ (a JSON tool call ends with <|eom_id|> or <|eot_id|>)',
    sequences: [['<|eom_id|>'], ['<|eot_id|>']],
  },
];

/** The closing tag of the Hermes (Qwen, NousResearch) wrapper around a call: https://github.com/NousResearch/Hermes-Function-Calling. */
const WRAPPER_CLOSE = '</tool_call>';

/** JSON's white space from `at` on; returns where it ends. */
export function skipBlank(text: string, at: number): number {
  let i = at;
  for (; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code !== 0x20 && code !== 0x0a && code !== 0x0d && code !== 0x09) break;
  }
  return i;
}

/** Where `token` ends when it stands whole at `at` (white space before it skipped), else -1. */
function tokenEnd(text: string, at: number, token: string): number {
  const i = skipBlank(text, at);
  return text.startsWith(token, i) ? i + token.length : -1;
}

/**
 * The engine whose end tokens are the whole of `text` from `at` on (white space around and
 * between them), or `undefined` when that text is anything else.
 */
export function engineEndAt(text: string, at: number): string | undefined {
  for (const { engine, sequences } of ENGINE_ENDS) {
    for (const sequence of sequences) {
      let i = at;
      for (const token of sequence) if (i !== -1) i = tokenEnd(text, i, token);
      if (i !== -1 && skipBlank(text, i) === text.length) return engine;
    }
  }
  return undefined;
}

/** True when `text` from `at` on is the closing tag of the Hermes wrapper alone (white space around it). */
export function wrapperCloseAt(text: string, at: number): boolean {
  const i = tokenEnd(text, at, WRAPPER_CLOSE);
  return i !== -1 && skipBlank(text, i) === text.length;
}

/**
 * The known end token that the text from `at` (white space skipped) is the start of, cut short
 * (`<|call|` , `<|tool_call_e`), or `undefined`.
 */
export function partialEndAt(text: string, at: number): string | undefined {
  const rest = text.slice(skipBlank(text, at)).trimEnd();
  if (rest.length < 2) return undefined;
  for (const { sequences } of ENGINE_ENDS) {
    for (const sequence of sequences) for (const token of sequence) if (token.startsWith(rest) && token !== rest) return token;
  }
  return WRAPPER_CLOSE.startsWith(rest) && rest !== WRAPPER_CLOSE ? WRAPPER_CLOSE : undefined;
}

/** What opens a text before its value, found by `readOpening`. */
export interface Opening {
  /** Where what follows the opening starts. */
  readonly at: number;
  /** The Hermes wrapper was opened: its closing tag must follow the arguments. */
  readonly wrapper: boolean;
}

const THINK_OPEN = /[ \t\r\n]*<think>/y;
const THINK_CLOSE = '</think>';
/** The Hermes wrapper's opening tag, before JSON arguments (a fence, a `json` tag or a brace): before anything else, another format's. */
const WRAPPER = /[ \t\r\n]*<tool_call>(?=[ \t\r\n]*(?:\{|```|json[ \t]*\r?\n))/y;
/** A bare `json` tag on a line of its own, before something (alone, the arguments are missing: it is left for the reader to refuse). */
const LANGUAGE_TAG = /[ \t\r\n]*json[ \t]*\r?\n(?=[ \t\r\n]*\S)/y;

/** Records an edit that drops `start`..`end` under `rule`. */
export type DropEdit = (start: number, end: number, rule: 'reasoning-block' | 'call-wrapper' | 'language-tag') => void;

/**
 * Reads what opens a text before its arguments, from `at`: a closed `<think>…</think>` block (its
 * content, draft JSON included, is reasoning, not the call), then the Hermes `<tool_call>` tag,
 * then a bare `json` tag on a line of its own; each dropped through `drop`. An unclosed `<think>`
 * is left for the reader, which refuses it.
 */
export function readOpening(text: string, at: number, drop: DropEdit): Opening {
  let i = at;
  THINK_OPEN.lastIndex = i;
  if (THINK_OPEN.test(text)) {
    const close = text.indexOf(THINK_CLOSE, THINK_OPEN.lastIndex);
    if (close !== -1) {
      const end = skipBlank(text, close + THINK_CLOSE.length);
      drop(i, end, 'reasoning-block');
      i = end;
    }
  }
  WRAPPER.lastIndex = i;
  const wrapper = WRAPPER.test(text);
  if (wrapper) {
    const end = skipBlank(text, WRAPPER.lastIndex);
    drop(i, end, 'call-wrapper');
    i = end;
  }
  LANGUAGE_TAG.lastIndex = i;
  if (LANGUAGE_TAG.test(text)) {
    drop(i, LANGUAGE_TAG.lastIndex, 'language-tag');
    i = LANGUAGE_TAG.lastIndex;
  }
  return { at: i, wrapper };
}
