/**
 * Strings of their own. V8 makes a slice of 13 characters or more a view into its parent: it
 * keeps the whole parent alive, and is read character by character more slowly.
 */

/**
 * `text.slice(start, end)` as a string of its own. Joining two halves makes a flat copy (V8's
 * join writes one new string), which costs less than reading a view does (about a tenth more
 * time, measured on a 5 KB call).
 */
export function flatSlice(text: string, start: number, end: number): string {
  const middle = (start + end) >> 1;
  return [text.slice(start, middle), text.slice(middle, end)].join('');
}

/**
 * A copy of `text` that shares no memory with a text it may be a slice of, for what outlives the
 * text: a key a cache keeps, read from arguments that are a slice of a larger text.
 */
export function flatCopy(text: string): string {
  return flatSlice(text, 0, text.length);
}

/** Lower case without `_`, `-`, spaces and dots: `thought_number`, `thoughtNumber` → `thoughtnumber`. */
export function normalizeName(name: string): string {
  return name.toLowerCase().replace(/[\s_.-]+/g, '');
}

/** Three rows of the distance table, reused from call to call (grown to the longest name seen). */
let rows: [Int32Array, Int32Array, Int32Array] = [new Int32Array(64), new Int32Array(64), new Int32Array(64)];

/**
 * Optimal string alignment distance (Levenshtein with adjacent transpositions) between `a` and
 * `b`; `Infinity` when their lengths differ by more than 3 (no name that far is a misspelling).
 */
export function editDistance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 3) return Infinity;
  if (rows[0].length <= b.length) rows = [new Int32Array(b.length + 1), new Int32Array(b.length + 1), new Int32Array(b.length + 1)];
  let [before, previous, current] = rows;
  for (let j = 0; j <= b.length; j++) previous[j] = j;
  for (let i = 1; i <= a.length; i++) {
    current[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let distance = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) distance = Math.min(distance, before[j - 2]! + 1);
      current[j] = distance;
    }
    [before, previous, current] = [previous, current, before];
  }
  return previous[b.length]!;
}
