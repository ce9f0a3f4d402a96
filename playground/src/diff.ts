/**
 * Which spans of the dispatched text differ from what the model sent: both texts split into JSON
 * tokens, and the tokens of the output that are not in their longest common subsequence are the
 * changed ones. Quadratic, so texts past `MAX_TOKENS` tokens are shown without highlighting.
 */
const TOKEN = /"(?:[^"\\]|\\.)*"?|'(?:[^'\\]|\\.)*'?|\s+|[-+0-9.eE]+|[A-Za-z_$][\w$]*|[^]/g;
const MAX_TOKENS = 2_000;

/** A run of the output text, `changed` when the input does not have it there. */
export interface Span {
  readonly text: string;
  readonly changed: boolean;
}

/** `output` as spans, the changed ones marked; `undefined` when the texts are too long to compare. */
export function changedSpans(input: string, output: string): Span[] | undefined {
  const a = input.match(TOKEN) ?? [];
  const b = output.match(TOKEN) ?? [];
  if (a.length > MAX_TOKENS || b.length > MAX_TOKENS) return undefined;
  // lengths[i][j]: the longest common subsequence of a[i..] and b[j..].
  const width = b.length + 1;
  const lengths = new Uint16Array((a.length + 1) * width);
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lengths[i * width + j] = a[i] === b[j] ? lengths[(i + 1) * width + j + 1]! + 1 : Math.max(lengths[(i + 1) * width + j]!, lengths[i * width + j + 1]!);
    }
  }
  const spans: Span[] = [];
  const push = (text: string, changed: boolean) => {
    const last = spans.at(-1);
    if (last !== undefined && last.changed === changed) spans[spans.length - 1] = { text: last.text + text, changed };
    else spans.push({ text, changed });
  };
  let i = 0;
  for (let j = 0; j < b.length; ) {
    if (i < a.length && a[i] === b[j]) {
      push(b[j]!, false);
      i++;
      j++;
    } else if (i < a.length && lengths[(i + 1) * width + j]! >= lengths[i * width + j + 1]!) {
      i++;
    } else {
      push(b[j]!, /\S/.test(b[j]!));
      j++;
    }
  }
  return spans;
}
