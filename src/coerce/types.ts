/** Public types: options and the report of a coercion. */
import type { JsonType } from '../schema/keywords.js';
import type { IntegerRange } from '../json/numbers.js';
import type { SyntaxRule } from '../json/tolerant/repair.js';

export type { IntegerRange, JsonType };

/**
 * Lenient rules, each on unless set to `false` (`lenient: true` turns all of them on).
 */
export interface LenientRules {
  /** Numeric strings to integers and numbers (`"1"` → `1`, `"100.50"` → `100.50`). */
  readonly strings?: boolean;
  /** `"true"`/`"True"`/`"1"`/`1` → `true`, `"false"`/`"False"`/`"0"`/`0` → `false`; nothing else (not `"TRUE"`). */
  readonly booleans?: boolean;
  /**
   * A scalar where only arrays are accepted becomes a one-element array (`"a"` → `["a"]`); a string
   * holding a list separator between two pieces of text (a comma or semicolon of any script, `，`
   * `、` `،` `؛` included, a tab or a line break) is refused `ambiguous`, never wrapped or split.
   */
  readonly arrays?: boolean;
  /** A string holding JSON text of an array or object, where only those are accepted, is parsed. */
  readonly jsonText?: boolean;
  /** `"null"` → `null` where null is accepted and a string is not. */
  readonly nulls?: boolean;
  /**
   * A number becomes its exact literal text where strings are accepted and no number type is
   * (`4` → `"4"`); a plain JS number only where its shortest decimal is exactly it and it is a
   * safe integer or a fraction (`0.5`), never `0.1 + 0.2` nor an integer past 2^53.
   */
  readonly numbersToStrings?: boolean;
  /**
   * Text that is not strict JSON but has exactly one reading is repaired (code fence, BOM,
   * comments, trailing commas, single and typographic quotes, unquoted keys, `True`/`False`/`None`,
   * blank text as `{}`, double-encoded arguments; raw control characters in strings escaped
   * (`control-character`); `\n`, `\r`, `\t` written out between tokens read as layout
   * (`escaped-layout`); a string whose every backslash opens no JSON escape read with literal
   * backslashes (`literal-backslash`); Python's escapes decoded in a Python literal
   * (`python-escape`); one stray `]` or `}` after a root object or array dropped
   * (`stray-bracket`); a root `null` as `{}` where the root accepts an object, not `null`, and
   * requires nothing (`null-arguments`); Gemma's `<|"|>` strings (`gemma-string`)). Cut-off text
   * is refused as `truncated`; tool-call markup, mixed escapes and other text with more than one
   * reading are refused.
   */
  readonly syntax?: boolean;
  /** A string that is no enum or const member but equals exactly one after trimming and case folding becomes it. */
  readonly enumCase?: boolean;
  /**
   * A `null` under an object key that is not `required` and whose schema accepts no null is
   * removed (it means "not given": OpenAI strict mode sends every optional parameter, as null).
   */
  readonly optionalNull?: boolean;
  /**
   * Arguments sent inside a wrapper are unwrapped: a root object whose only key is `arguments`,
   * `parameters`, `input` or `args` (or `name`, equal to `toolName`, plus one of those) holding an
   * object, where the root schema declares none of those keys and the inner object has no
   * undeclared key.
   */
  readonly unwrap?: boolean;
  /**
   * Keys that spell a path from a declared first name (`args.path`, `todoList[0].title`) are
   * rebuilt into nesting when that is the one reading the schema accepts: the key as sent (an open
   * object, `additionalProperties`, `patternProperties`), every other nesting of its dots and a
   * rename compete, and two or more are refused `ambiguous`. No two keys may conflict, and the
   * indexes of each array must run from 0 with none missing.
   */
  readonly flattenedKey?: boolean;
  /**
   * Under `syntax`: a serving engine's markup around complete arguments is dropped, only where it
   * is the whole of one engine's known token sequence: end-of-call tokens after the arguments
   * (gpt-oss `<|call|>`, Kimi K2 `<|tool_call_end|>`, DeepSeek `<｜tool▁call▁end｜>`, Llama
   * `<|eom_id|>`; `end-tokens`), the Hermes `<tool_call>…</tool_call>` wrapper (`call-wrapper`),
   * a closed `<think>…</think>` block before them (`reasoning-block`), a bare `json` tag line
   * (`language-tag`). A token cut short, a second call, or other tags are refused. In any
   * arguments: a string holding another declared parameter's tag (`<parameter name="X">`, X not
   * sent) or an engine's call token (`<|"|>`, `<|tool_call_argument_begin|>`) is refused `ambiguous`.
   */
  readonly markup?: boolean;
  /**
   * Under `syntax`: arguments whose every quote is written `\"` (one escaping level too many) are
   * decoded once (`over-escaped`), unless reading only the quotes unescaped gives another value.
   */
  readonly overEscaped?: boolean;
  /**
   * A one-element array of a scalar where no array is accepted becomes its element, when the
   * element is then not refused (`[100]` → `100` for an integer, `["a.md"]` → `"a.md"` for a string;
   * `array-to-scalar`). An empty array, or one of two or more, is refused.
   */
  readonly arrayToScalar?: boolean;
}

/** Options of every coercion function. */
export interface CoerceOptions {
  /**
   * Which whole values become integer literals: `"int64"` (default; others stay as they are),
   * `"safe"` (±(2^53−1)), or `"unbounded"` (any whole value, exactly; an exponent is never
   * expanded into more than 4,096 digits, or the literal's own length if that is longer).
   */
  readonly integerRange?: IntegerRange;
  /** Opt-in repair of strings, booleans, arrays and JSON text by the schema's declared types. */
  readonly lenient?: boolean | LenientRules;
  /**
   * The tool's name, when known: the lenient `unwrap` rule then also unwraps
   * `{"name": "<this tool>", "arguments": {…}}`. `prepareToolCall` shows it in the display string and the message.
   */
  readonly toolName?: string;
}

/** The rule that made a change. */
export type ChangeRule =
  | 'integer-literal'
  | 'string-to-integer'
  | 'string-to-number'
  | 'string-to-boolean'
  | 'number-to-boolean'
  | 'string-to-null'
  | 'number-to-string'
  | 'wrap-in-array'
  | 'json-text'
  /** An undeclared key renamed to the one declared name it matches (`renameUnambiguous`). */
  | 'rename-key'
  /** A string changed to the one enum or const member it equals after trimming and case folding. */
  | 'enum-case'
  /** A `null` under an optional key that accepts no null, removed: `to` is `""`. */
  | 'optional-null'
  /** The wrapper around the arguments removed, at path `""`: `from` is its keys, `to` is `""`. */
  | 'unwrap'
  /** A flattened key rebuilt into nesting: `from` is the key as sent, `to` the key it became, `path` where its value now is. */
  | 'flattened-key'
  /**
   * The `structuredContent` of an `isError` tool result that does not match the tool's output
   * schema, removed (`repairToolResult`): `from` is the beginning of its JSON text (at most 200
   * characters, `…` ending a cut one), `to` is `""`.
   */
  | 'error-structured-content'
  /** A one-element array where a single value is expected, read as its element. */
  | 'array-to-scalar'
  /** A syntax repair of the whole text (rule `syntax`), reported at path `""`. */
  | SyntaxRule;

/** One change: where, the JSON text before and after, and the rule that fired. */
export interface Change {
  /** JSON Pointer (RFC 6901) to the value in the arguments. */
  readonly path: string;
  /** JSON text of the value before, e.g. `5.0` or `"1"`. */
  readonly from: string;
  /** JSON text of the value after, e.g. `5` or `1`; `""` when the rule removed it. */
  readonly to: string;
  readonly rule: ChangeRule;
}

/** Why a value was left as it is. */
export type RefusalReason =
  /** A number with a fractional part at an integer position (never truncated). */
  | 'not-whole'
  /** A whole number outside `integerRange`, or a numeric string that overflows float64. */
  | 'out-of-range'
  /** Two applicable conversions disagree (`"1"` under `anyOf: [integer, boolean]`). */
  | 'ambiguous'
  /** No conversion applies (`"abc"` for an integer, `"no"` for a boolean). */
  | 'unconvertible'
  /** The arguments contain themselves (a cyclic JS object). */
  | 'cycle'
  /** Reading the arguments or the schema threw (a hostile getter or Proxy). */
  | 'unreadable';

/**
 * One reading of a value or key the gate refused for having more than one (`ambiguous`): what a
 * rule would make of it, where, and as what value.
 */
export interface Reading {
  /**
   * The rule that would write this reading; `as-sent` for the key or value as it came (valid as
   * sent), `list-split` for a string read as a list split at its separators (a reading no rule
   * writes: it only competes).
   */
  readonly rule: ChangeRule | 'as-sent' | 'list-split';
  /** JSON Pointer (RFC 6901) to where the value would be: the refusal's own path for a value's readings. */
  readonly path: string;
  /** JSON text of the value this reading gives. */
  readonly to: string;
}

/**
 * A value left as it is although the applicable schemas ask for another type or spelling (an
 * integer outside `integerRange`, a fraction at an integer position, a type lenient mode could
 * not convert), and why.
 */
export interface Refusal {
  /** JSON Pointer (RFC 6901) to the value in the arguments. */
  readonly path: string;
  /** The value, as it is (and stays). */
  readonly value: unknown;
  readonly reason: RefusalReason;
  /**
   * The JSON types the applicable schemas accept here; for a value no enum or const member
   * matches (rule `enumCase`), the allowed values as JSON text (`"markdown"`), the first 100 of them.
   */
  readonly expected: readonly (JsonType | string)[];
  /** One plain-English sentence, fit to show a model or a log. */
  readonly message: string;
  /** For `ambiguous`: the readings that competed, each one the schema accepts (see `Reading`). */
  readonly readings?: readonly Reading[];
}

/** What a coercion did. */
export interface CoerceResult<T = unknown> {
  /** The coerced arguments; the very same reference as the input when nothing changed. */
  readonly value: T;
  readonly changes: readonly Change[];
  readonly refusals: readonly Refusal[];
}
