/**
 * The text path: one pass over JSON text, guided by the plan, that copies every untouched span
 * as it is and rewrites only number tokens at integer positions. No object model is built and
 * nothing recurses on the call stack, so depth costs memory, not stack, and time stays linear in
 * the length of the text.
 */
import { scanJson, type JsonVisitor } from './json-scan.js';
import { isCanonicalInteger, toIntegerLiteral, type IntegerRange } from './numbers.js';
import { WORK_INTEGER, type PlanNode } from './plan.js';

/**
 * Rewrites the integer literals of `text` that `root` says are at integer positions, and
 * returns `text` itself when none needed it. Returns `undefined` when an object repeats a key:
 * what that means is the object model's call (see `parseArgs`), so the caller takes that path.
 *
 * @throws {ArgsParseError} When `text` is not JSON.
 */
export function rewriteIntegerLiterals(text: string, root: PlanNode | null, range: IntegerRange): string | undefined {
  const rewriter = new IntegerRewriter(text, active(root), range);
  scanJson(text, rewriter);
  return rewriter.result();
}

/** Objects with up to this many keys check duplicates with a linear scan, larger ones with a Set. */
const LINEAR_KEYS = 16;

class IntegerRewriter implements JsonVisitor {
  private readonly text: string;
  private readonly range: IntegerRange;
  /** Per open container: its node (null: nothing to rewrite inside), kind, items seen, keys seen. */
  private readonly nodes: (PlanNode | null)[] = [];
  private readonly arrays: boolean[] = [];
  private readonly counts: number[] = [];
  /** Keys seen, per depth: arrays reused from object to object, a Set past `LINEAR_KEYS` keys. */
  private readonly keys: string[][] = [];
  private readonly keySets: (Set<string> | undefined)[] = [];
  /** The node of the next value: the root, or the one its object key chose. */
  private pending: PlanNode | null;
  private out = '';
  private copied = 0;
  private duplicate = false;

  constructor(text: string, root: PlanNode | null, range: IntegerRange) {
    this.text = text;
    this.pending = root;
    this.range = range;
  }

  result(): string | undefined {
    if (this.duplicate) return undefined;
    return this.copied === 0 ? this.text : this.out + this.text.slice(this.copied);
  }

  open(isArray: boolean): void {
    this.nodes.push(this.valueNode());
    this.arrays.push(isArray);
    this.counts.push(0);
    const depth = this.nodes.length;
    if (!isArray) {
      while (this.keys.length < depth) this.keys.push([]);
      this.keys[depth - 1]!.length = 0;
      this.keySets[depth - 1] = undefined;
    }
  }

  key(key: string): void {
    const depth = this.nodes.length;
    if (this.seen(depth - 1, key)) this.duplicate = true;
    const parent = this.nodes[depth - 1]!;
    this.pending = parent === null ? null : active(parent.child(key));
  }

  string(): void {
    this.valueNode();
  }

  literal(): void {
    this.valueNode();
  }

  number(start: number, end: number): void {
    const node = this.valueNode();
    if (node === null || !node.integer) return;
    const literal = this.text.slice(start, end);
    if (isCanonicalInteger(literal)) return;
    const integer = toIntegerLiteral(literal, this.range);
    if (integer === 'not-whole' || integer === 'out-of-range') return;
    this.out += this.text.slice(this.copied, start) + integer;
    this.copied = end;
  }

  close(): void {
    this.nodes.pop();
    this.arrays.pop();
    this.counts.pop();
  }

  /** Records `key` in the object at `depth`; true when it was there already. */
  private seen(depth: number, key: string): boolean {
    const set = this.keySets[depth];
    if (set !== undefined) return set.size === set.add(key).size;
    const list = this.keys[depth]!;
    if (list.includes(key)) return true;
    list.push(key);
    if (list.length > LINEAR_KEYS) this.keySets[depth] = new Set(list);
    return false;
  }

  /** The node of the value that starts now: the pending one, or the next array item's. */
  private valueNode(): PlanNode | null {
    const depth = this.nodes.length;
    if (depth === 0 || !this.arrays[depth - 1]) return this.pending;
    const parent = this.nodes[depth - 1]!;
    const index = this.counts[depth - 1]!++;
    return parent === null ? null : active(parent.item(index));
  }
}

/** A node only counts when an integer position is at or below it. */
function active(node: PlanNode | null): PlanNode | null {
  return node !== null && (node.work & WORK_INTEGER) !== 0 ? node : null;
}
