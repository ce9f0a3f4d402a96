/**
 * The text path: one pass over JSON text, guided by the plan, that copies every untouched span
 * as it is and rewrites only the scalar tokens that change: number tokens at integer positions,
 * and in lenient mode the scalars lenient rules convert (a numeric or boolean string, a value
 * wrapped in an array, a string of JSON text parsed). No object model of the whole is built and
 * nothing recurses on the call stack, so depth costs memory, not stack, and time stays linear in
 * the length of the text.
 */
import { LosslessNumber, stringifyArgs } from '../json/lossless.js';
import { decodeString, scanJson, type JsonVisitor } from '../json/scanner.js';
import { restoreInteger, wholeDecimalDot, type IntegerRange } from '../json/numbers.js';
import { accepts, TYPE_BITS } from '../schema/keywords.js';
import { hasWork, WORK_INTEGER, WORK_LENIENT, type PlanNode } from '../schema/plan.js';
import { readsItemAlone, type Rules } from './lenient.js';
import { foldsEnumCase } from './enum-case.js';
import { proposesKey } from './flattened-keys.js';
import { ENVELOPE_KEYS } from './unwrap.js';
import { TextEdits, TextEditsBuilder } from './text-edits.js';
import { Coercion, decide } from './walk.js';

/**
 * Rewrites the spans of `text` that coercion changes (integer literals at integer positions, and
 * with `rules` the scalars lenient rules convert, each decided exactly as the object path decides
 * it), and returns `text` itself when none changed. With `asEdits`, the output comes as the spans
 * rewritten, in order (none when nothing changed): everything between them is `text` as it is, so a
 * caller holding the text's bytes writes those on as they are. When `asEdits` is a builder of the
 * caller's, the spans go to its `push` as they are found and the output is its `build()`: a
 * caller can write them out as they come (it must hold them until the scan is done: a text that
 * is not JSON throws, and `undefined` voids what was pushed).
 * Returns `undefined` when an object repeats a key (what that means is the object model's call,
 * see `parseArgs`), or when a lenient shape rule may apply (an optional null, a key no schema
 * applies to that may spell a path, a root that may be a wrapper), so the caller takes that path;
 * with `keepRepeats` (once the object model has found every repeat equal), each occurrence of a
 * repeated key is rewritten as the first is.
 *
 * @throws {ArgsParseError} When `text` is not JSON.
 */
export function rewriteLiterals(text: string, root: PlanNode | null, range: IntegerRange, rules: Rules | null, asEdits: boolean | TextEditsBuilder, keepRepeats = false): string | TextEdits | undefined {
  // One rewriter is reused from call to call (its stacks keep their capacity); a nested call,
  // should one ever happen, gets a fresh one, and so does the call after a scan that threw (the
  // rewriter it left, stacks not empty, is dropped).
  const rewriter = idle ?? new LiteralRewriter();
  idle = undefined;
  rewriter.reset(text, root, range, rules, asEdits);
  scanJson(text, rewriter);
  const output = rewriter.result(keepRepeats);
  // Letting go of the last text, key and rules, no more: the next call's `reset()` sets every field.
  // Stryker disable next-line StringLiteral,BooleanLiteral: what the idle rewriter holds is never read before the next call's `reset()` (test/mutation-equivalents.md)
  rewriter.reset('', null, range, null, false);
  idle = rewriter;
  return output;
}

let idle: LiteralRewriter | undefined;

/** Both number bits: a position that accepts any number, whole or not. */
const NUMBERS = TYPE_BITS.integer | TYPE_BITS.number;

/** Objects with up to this many keys check duplicates with a linear scan, larger ones with a Set. */
const LINEAR_KEYS = 16;
/**
 * Output characters per flattened chunk, about. A chunk stays far below the size at which V8
 * allocates a string as a large object (fresh pages, faulted in on every call: 1.3 ns a byte
 * here against 0.3 below it), and the output is a rope of such chunks, the shape
 * `JSON.stringify` itself returns. A longer untouched span is a leaf of its own, never copied.
 */
const CHUNK_CHARS = 1 << 14;

/**
 * The text path's visitor of the scanner: see `rewriteLiterals`. Exported for the verdicts'
 * rewriter (`text-verdicts.ts`), which extends it to report what it decides.
 */
export class LiteralRewriter implements JsonVisitor {
  // The fields a call uses are set in one place, `reset()`, which every call runs before its scan.
  protected text!: string;
  private range!: IntegerRange;
  /** The lenient rules, or null when not lenient. */
  protected rules!: Rules | null;
  /** The coercion that decides lenient scalars (its report is not kept), made at the first one. */
  protected coercion!: Coercion | null;
  /** The work bits a node needs to be visited: integer positions, and typed ones when lenient. */
  private work!: number;
  /** Per open container: its node (null: nothing to rewrite inside), and -1 for an object or an array's items so far. */
  protected readonly nodes: (PlanNode | null)[] = [];
  protected readonly counts: number[] = [];
  /**
   * Keys seen, per depth: the first `keyCounts[depth]` entries of an array reused from object to
   * object (never truncated), or a Set past `LINEAR_KEYS` keys.
   */
  private readonly keys: string[][] = [];
  // Stryker disable next-line ArrayDeclaration: `open()` sets an object's entry before any key of it is counted
  private readonly keyCounts: number[] = [];
  // Stryker disable next-line ArrayDeclaration: `open()` sets an object's entry before any key of it is looked up
  private readonly keySets: (Set<string> | undefined)[] = [];
  /** The node of the next value: the root, or the one its object key chose. */
  private pending!: PlanNode | null;
  /** The current chunk's pieces (null while nothing changed), and its characters so far. */
  private pieces!: string[] | null;
  private size!: number;
  /** The output before the current chunk: flat chunks, and slices of the text too long to copy. */
  private chunks!: string[] | null;
  private copied!: number;
  /** An object repeats a key: the object model decides (see `rewriteLiterals`). */
  private duplicate!: boolean;
  /** A rule that reshapes objects may apply: the object model decides. */
  protected handOff!: boolean;
  /** The last key read, the key of the value that follows it in an object. */
  private lastKey!: string;
  /** A root key is one a wrapper puts arguments under (rule `unwrap`, decided at the end). */
  private wrapper!: boolean;
  /**
   * Whether the spans rewritten are the output asked for, and those so far (null until the first,
   * unless the caller gave its own builder).
   * Declared last: ahead of the fields the string output uses, they made the 1 MB call 4% slower
   * (paired runs).
   */
  private asEdits!: boolean;
  private edits!: TextEditsBuilder | null;

  reset(text: string, root: PlanNode | null, range: IntegerRange, rules: Rules | null, asEdits: boolean | TextEditsBuilder): void {
    this.text = text;
    this.range = range;
    this.rules = rules;
    this.coercion = null;
    // Stryker disable next-line ConditionalExpression: lenient work bits in integer mode (`→ false`) only make more positions visited, where no rule then changes anything (test/mutation-equivalents.md); `→ true` is killed, and hidden with it
    this.work = rules === null ? WORK_INTEGER : WORK_INTEGER | WORK_LENIENT;
    this.pending = this.active(root);
    this.pieces = null;
    this.size = 0;
    this.chunks = null;
    this.copied = 0;
    this.duplicate = false;
    this.handOff = false;
    // Stryker disable next-line StringLiteral: the key is read only after a key of the object sets it; this lets go of the last one (a slice may hold a whole text)
    this.lastKey = '';
    this.wrapper = false;
    this.asEdits = asEdits !== false;
    this.edits = typeof asEdits === 'object' ? asEdits : null;
  }

  /** The output: the string, or the spans rewritten when they were asked for (see `rewriteLiterals`). */
  result(keepRepeats: boolean): string | TextEdits | undefined {
    if (this.duplicate && !keepRepeats) return undefined;
    // A wrapper has one key, or two with the tool's name: the object path decides whether it is one.
    if (this.handOff || (this.wrapper && this.keyCounts[0]! <= 2)) return undefined;
    if (this.asEdits) return this.edits?.build() ?? TextEdits.NONE;
    if (this.pieces === null) return this.text;
    this.add(this.text.slice(this.copied));
    // Stryker disable next-line ConditionalExpression: with no chunk yet (`→ false`), flushing the pieces as one and joining it gives the same text; `→ true` is killed, and hidden with it
    if (this.chunks === null) return this.pieces.join('');
    this.flush();
    // Concatenating the chunks makes a rope: no second copy of the whole output here.
    let output = '';
    for (const chunk of this.chunks) output += chunk;
    return output;
  }

  open(isArray: boolean): void {
    const node = this.valueNode();
    // A container a shape rule may read otherwise (a one-element array, an object for an array): the object path decides.
    if (node !== null && this.rules !== null && (node.accept & (isArray ? TYPE_BITS.array : TYPE_BITS.object)) === 0 && (isArray ? this.rules.arrayToScalar : this.rules.arrays)) this.handOff = true;
    this.nodes.push(node);
    this.counts.push(isArray ? 0 : -1);
    // Every container starts a key list at its depth: an array's is never read.
    // Depth grows one level at a time, so each index here is one that exists or the next one.
    const depth = this.nodes.length;
    // Stryker disable next-line ArrayDeclaration: a list's entries past its count are never read
    this.keys[depth - 1] ??= [];
    this.keyCounts[depth - 1] = 0;
    this.keySets[depth - 1] = undefined;
  }

  key(key: string): void {
    const depth = this.nodes.length;
    if (this.seen(depth - 1, key)) this.duplicate = true;
    const parent = this.nodes[depth - 1]!;
    if (parent === null) {
      this.pending = null;
      return;
    }
    const child = parent.child(key);
    this.pending = this.active(child);
    this.lastKey = key;
    const rules = this.rules;
    if (rules === null) return;
    // A key that may spell a path is the gate's to settle, against its other readings, on the object path.
    if (rules.flattenedKey && proposesKey(parent, key)) this.handOff = true;
    // A wrapper's key no schema applies to: the object path decides whether it is one.
    if (child === null && rules.unwrap && depth === 1 && ENVELOPE_KEYS.includes(key)) this.wrapper = true;
    // The schema echoed around the arguments may hold more keywords beside `properties`: the object path decides.
    if (child === null && rules.unwrap && depth === 1 && key === 'properties') this.handOff = true;
  }

  string(start: number, end: number): void {
    const node = this.valueNode();
    // A string where strings are accepted stays as it is (see `decide`), unless the position
    // restricts strings to enum members the `enumCase` rule may fold onto: no need to decode it.
    if (node === null || this.rules === null) return;
    // Stryker disable next-line ConditionalExpression,LogicalOperator: a guard that only spares decoding: `decide` leaves a string where strings are accepted, and one no rule folds, as it is (test/mutation-equivalents.md); the killed ones of these mutators are hidden with it
    if ((node.accept & TYPE_BITS.string) !== 0 && !(this.rules.enumCase && foldsEnumCase(node))) return;
    this.decideSpan(decodeString(this.text, start, end), node, start, end);
  }

  literal(value: boolean | null, start: number, end: number): void {
    const node = this.valueNode();
    if (node === null || this.rules === null || accepts(node.accept, value)) return;
    // An optional null is removed with its key (rule `optionalNull`): the object path does that.
    if (value === null && this.rules.optionalNull && this.optional()) this.handOff = true;
    else this.decideSpan(value, node, start, end);
  }

  number(start: number, end: number): void {
    const node = this.valueNode();
    if (node === null) return;
    // Stryker disable next-line ConditionalExpression,LogicalOperator: `lenient` only spares deciding a number where every number is accepted, or with no rules, where `decide` returns it as it is (test/mutation-equivalents.md); the killed ones are hidden with it
    const lenient = this.rules !== null && (node.accept & NUMBERS) !== NUMBERS;
    // Stryker disable next-line ConditionalExpression: going on (`→ false`) reaches nothing that rewrites a number at a position neither integer nor lenient (test/mutation-equivalents.md); `→ true` is killed, and hidden with it
    if (!node.integer && !lenient) return;
    // Stryker disable next-line ConditionalExpression,BlockStatement: the `N.0…` fast path skipped gives the same cut below (see `dot`); `→ true` is killed, and hidden with it
    if (node.integer) {
      // `N.0…`, the shape float64 pipelines write, read in place (no string made per token): its
      // tail is cut, an edit of no new text, as `restoreInteger` would have it.
      const dot = wholeDecimalDot(this.text, start, end);
      // Stryker disable next-line ConditionalExpression,BlockStatement: without the fast path (`dot !== -1` → false) `restoreInteger` below gives the same cut for every `N.0…` it takes (test/mutation-equivalents.md); `→ true` is killed by every test, and hidden with it
      if (dot !== -1) {
        this.emit(dot, '', end);
        return;
      }
    }
    const literal = this.text.slice(start, end);
    const integer = node.integer ? restoreInteger(literal, this.range) : 'not-whole';
    if (integer === literal) return;
    // `5.0` → `5` cuts the literal's tail: an edit of no new text (none is made for it).
    if (integer === 'not-whole' || integer === 'out-of-range') {
      // Stryker disable next-line ConditionalExpression: `decide` with no rules (`→ true`) returns the number as it is (test/mutation-equivalents.md); `→ false` is killed, and hidden with it
      if (lenient) this.decideSpan(new LosslessNumber(literal), node, start, end);
    } else if (literal.startsWith(integer)) this.emit(start + integer.length, '', end);
    else this.emit(start, integer, end);
  }

  close(): void {
    const node = this.nodes.pop()!;
    // A one-element array that may also be read as its element: the object path's gate decides.
    if (this.counts.pop() === 1 && node !== null && this.rules !== null && readsItemAlone(node, this.rules)) this.handOff = true;
  }

  /** True when the value being read is a null its object may drop (see `PlanNode.dropsNull`): the object path decides. */
  private optional(): boolean {
    // At the root, `counts[-1]` is undefined: no object holds the value.
    const depth = this.nodes.length;
    return this.counts[depth - 1] === -1 && this.nodes[depth - 1]!.dropsNull(this.lastKey);
  }

  /** Records `key` in the object at `depth`; true when it was there already. */
  private seen(depth: number, key: string): boolean {
    const set = this.keySets[depth];
    // Stryker disable next-line ConditionalExpression: past the switch, the linear scan (`→ false`) finds the same repeats, only slower (test/mutation-equivalents.md); `→ true` is killed, and hidden with it
    if (set !== undefined) return set.size === set.add(key).size;
    const list = this.keys[depth]!;
    const count = this.keyCounts[depth]!;
    for (let i = 0; i < count; i++) if (list[i] === key) return true;
    list[count] = key;
    this.keyCounts[depth] = count + 1;
    // The list never grows past `LINEAR_KEYS + 1` entries: from then on the set takes the keys.
    // Stryker disable next-line ConditionalExpression,EqualityOperator,ArithmeticOperator: when the Set takes over only changes the speed: it and the linear scan find the same repeats (test/mutation-equivalents.md)
    if (count + 1 > LINEAR_KEYS) this.keySets[depth] = new Set(list);
    return false;
  }

  /** Lenient mode: decides the scalar `value` at `start..end` as the object path does, and rewrites its span when it changes. */
  protected decideSpan(value: unknown, node: PlanNode, start: number, end: number): void {
    const decided = decide(value, node, (this.coercion ??= new Coercion(this.range, this.rules)));
    if (decided !== value) this.emit(start, stringifyArgs(decided), end);
  }

  /** A node only counts when a position this pass rewrites is at or below it. */
  private active(node: PlanNode | null): PlanNode | null {
    return hasWork(node, this.work) ? node : null;
  }

  /**
   * Writes the text from the copy mark up to `start`, then `replacement`, and moves the mark to
   * `end`; or, when edits are the output, records the edit.
   */
  private emit(start: number, replacement: string, end: number): void {
    if (this.asEdits) {
      (this.edits ??= new TextEditsBuilder()).push(start, end, replacement);
      return;
    }
    this.pieces ??= [];
    this.add(this.text.slice(this.copied, start));
    this.add(replacement);
    this.copied = end;
  }

  /** Appends `piece` to the output: to the current chunk, or as a leaf of its own when it is long. */
  private add(piece: string): void {
    // Stryker disable next-line ConditionalExpression,EqualityOperator,BlockStatement: whether a long piece is a leaf of its own or copied into a chunk, the text is the same (test/mutation-equivalents.md)
    if (piece.length >= CHUNK_CHARS) {
      this.flush();
      this.chunks!.push(piece);
      return;
    }
    const pieces = this.pieces!;
    pieces.push(piece);
    // Stryker disable next-line AssignmentOperator: a size that never reaches the bound makes one chunk of the whole output, the same text (test/mutation-equivalents.md)
    this.size += piece.length;
    // Stryker disable next-line ConditionalExpression,EqualityOperator: when a chunk is flattened only changes the memory held on the way, not the text (test/mutation-equivalents.md)
    if (this.size >= CHUNK_CHARS) this.flush();
  }

  /** Flattens the current chunk's pieces into one chunk (an empty one when there are none: harmless). */
  private flush(): void {
    (this.chunks ??= []).push(this.pieces!.join(''));
    this.pieces = [];
    this.size = 0;
  }

  /** The node of the value that starts now: the pending one, or the next array item's. */
  protected valueNode(): PlanNode | null {
    const depth = this.nodes.length;
    const index = depth === 0 ? -1 : this.counts[depth - 1]!;
    if (index === -1) return this.pending;
    this.counts[depth - 1] = index + 1;
    const parent = this.nodes[depth - 1]!;
    return parent === null ? null : this.active(parent.item(index));
  }
}
