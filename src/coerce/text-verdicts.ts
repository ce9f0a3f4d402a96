/**
 * The text path with its verdicts: the same one pass over JSON text, which also says what it
 * decided (each change and refusal, with its path), as the object path's coercion would. The CLI's
 * `--report` and `--fail-on-refusal` read a large text this way, without the object model of it.
 * Every scalar at a position with work is decided by `decide`, the object path's own decision,
 * with the path the object path would give it; a text whose verdicts only the object model can
 * give (a container no schema accepts, refused with its value; a string holding parameter tags,
 * refused with its object; a root key the tool does not declare, perhaps an envelope's) is handed on, as the text path hands on the shape rules.
 */
import { LosslessNumber } from '../json/lossless.js';
import { ArgsParseError } from '../json/errors.js';
import { PointerPath } from '../json/pointer.js';
import { decodeString, scanJson, skipSpace } from '../json/scanner.js';
import type { IntegerRange } from '../json/numbers.js';
import { accepts, TYPE_BITS } from '../schema/keywords.js';
import { planFor, type PlanNode } from '../schema/plan.js';
import { resolveRules, type Rules } from './lenient.js';
import { rangeOf } from './coerce.js';
import { parameterTags } from './string-markup.js';
import { LiteralRewriter } from './text-path.js';
import type { TextEdits, TextEditsBuilder } from './text-edits.js';
import type { Change, CoerceOptions, Refusal } from './types.js';
import { Coercion } from './walk.js';

/** Both number bits: a position that accepts any number, whole or not. */
const NUMBERS = TYPE_BITS.integer | TYPE_BITS.number;

/** Where the text path's verdicts go, one by one, in the object path's order; without `change`, no change is made into one. */
export interface VerdictSink {
  change?(change: Change): void;
  refusal(refusal: Refusal): void;
}

/**
 * Coerces JSON `text` on the text path as `coerceArgsJsonEdits` does, handing each verdict to
 * `sink` as it is made: the changes and refusals `coerceArgs` gives for the value the text holds,
 * in its order, which is the text's while an object's keys holding verdicts come as the object
 * model lists them (its integer-like keys first, ascending). None is
 * kept here, so a text of millions of rewritten literals costs what the sink keeps of them.
 *
 * @param options - As `coerceArgsJsonEdits` takes them (the lenient rules resolved here).
 * @param builder - Where the edits go as they are found (see `coerceArgsJsonEdits`).
 * @returns The edits (`builder.build()` when a builder is given); `undefined` when only the
 *   object path can give the verdicts: text that is not JSON (or that syntax repair reads), a
 *   repeated key, a shape rule that may apply, a verdict that needs the value of a container,
 *   verdicts under an integer-like key after others in their object, a schema whose reading
 *   throws. What went to `builder` and `sink` is then void, and the caller takes that path.
 */
export function coerceTextVerdicts(text: string, schema: unknown, options: CoerceOptions | undefined, builder: TextEditsBuilder | true, sink: VerdictSink): TextEdits | undefined {
  const range = rangeOf(options?.integerRange);
  const rules = resolveRules(options?.lenient);
  // A root string or `null` is syntax repair's to read (see `coerceArgsJsonEdits`).
  const first = text.charCodeAt(skipSpace(text, 0));
  if (rules !== null && rules.syntax && (first === 0x22 || first === 0x6e)) return undefined;
  let root: PlanNode | null;
  try {
    root = planFor(schema);
  } catch {
    return undefined;
  }
  const coercion = sink.change === undefined ? new RefusalsOnly(range, rules, new PointerPath()) : new Coercion(range, rules, new PointerPath());
  const rewriter = new VerdictRewriter(coercion, sink);
  rewriter.reset(text, root, range, rules, builder);
  try {
    scanJson(text, rewriter);
  } catch (error) {
    if (error instanceof ArgsParseError) return undefined;
    throw error;
  }
  return rewriter.result(false) as TextEdits | undefined;
}

/**
 * The text path's rewriter, keeping the path of the value being read and deciding every scalar at
 * a position with work through its coercion, so that each change and refusal is recorded where
 * the object path records it.
 */
class VerdictRewriter extends LiteralRewriter {
  private readonly verdicts: Coercion;
  private readonly sink: VerdictSink;
  /** How many tokens the path holds: the open containers' depth once one has a key or an item, one less before. */
  private tokens = 0;
  /** How many verdicts were made so far. */
  private made = 0;
  /** Per open object: the verdicts made before its current key's value, and the order of its keys holding verdicts (see `ordered`). */
  private readonly before: number[] = [];
  private readonly order: number[] = [];

  constructor(verdicts: Coercion, sink: VerdictSink) {
    super();
    this.verdicts = verdicts;
    this.sink = sink;
  }

  override reset(text: string, root: PlanNode | null, range: IntegerRange, rules: Rules | null, asEdits: boolean | TextEditsBuilder): void {
    super.reset(text, root, range, rules, asEdits);
    this.coercion = this.verdicts;
  }

  override open(isArray: boolean): void {
    super.open(isArray);
    const depth = this.nodes.length;
    this.order[depth - 1] = NO_KEY;
    const node = this.nodes[depth - 1]!;
    // A container no applicable schema accepts is refused with its value: the object path has it.
    if (node !== null && this.rules !== null && !accepts(node.accept, isArray ? [] : {})) this.handOff = true;
  }

  override key(key: string): void {
    const depth = this.nodes.length;
    if (this.tokens === depth) this.ordered(depth - 1);
    this.before[depth - 1] = this.made;
    this.step(key);
    super.key(key);
    // A root key the tool does not declare may be an envelope's, refused with the whole value (`envelopeRefusal`).
    const root = this.nodes[0];
    if (this.nodes.length === 1 && root !== null && this.rules !== null && this.rules.unwrap && !root.declares(key)) this.handOff = true;
  }

  override close(): void {
    const depth = this.nodes.length;
    if (this.tokens === depth && this.counts[depth - 1] === -1) this.ordered(depth - 1);
    if (this.tokens === depth) {
      this.verdicts.path.pop();
      this.tokens--;
    }
    super.close();
  }

  override string(start: number, end: number): void {
    const node = this.valueNode();
    if (node === null || this.rules === null) return;
    const value = decodeString(this.text, start, end);
    // A string holding parameter tags may be refused as its object is left (rule `markup`): the object path decides.
    if (this.rules.markup && parameterTags(value).length > 0) this.handOff = true;
    else this.decideSpan(value, node, start, end);
  }

  override number(start: number, end: number): void {
    const node = this.valueNode();
    if (node === null) return;
    // Where every number is accepted and no integer is restored, `decide` leaves a number as it is.
    // Stryker disable next-line ConditionalExpression,LogicalOperator,EqualityOperator: a guard that only spares deciding a number `decide` leaves as it is, with no verdict (test/mutation-equivalents.md)
    if (!node.integer && (this.rules === null || (node.accept & NUMBERS) === NUMBERS)) return;
    this.decideSpan(new LosslessNumber(this.text.slice(start, end)), node, start, end);
  }

  protected override decideSpan(value: unknown, node: PlanNode, start: number, end: number): void {
    super.decideSpan(value, node, start, end);
    // Handed on as they are made: the coercion keeps none.
    const { changes, refusals } = this.verdicts;
    this.made += changes.length + refusals.length;
    if (this.sink.change !== undefined) for (const change of changes) this.sink.change(change);
    for (const refusal of refusals) this.sink.refusal(refusal);
    changes.length = 0;
    refusals.length = 0;
  }

  protected override valueNode(): PlanNode | null {
    const depth = this.nodes.length;
    // An array's next item: its index joins the path.
    if (depth > 0 && this.counts[depth - 1] !== -1) this.step(this.counts[depth - 1]!);
    return super.valueNode();
  }

  /**
   * The object at `depth` leaves the value of its current key: when verdicts were made in it, that
   * key must come after the others holding verdicts in the object model's order (integer-like keys
   * first, ascending, then the others as they came), or the text is handed on.
   */
  private ordered(depth: number): void {
    if (this.made === this.before[depth]) return;
    const index = arrayIndex(this.verdicts.path.last() as string);
    const order = this.order[depth]!;
    if (index === -1) this.order[depth] = OTHER_KEY;
    else if (order === OTHER_KEY || index <= order) this.handOff = true;
    else this.order[depth] = index;
  }

  /** The path at the key or item `token` of the innermost open container. */
  private step(token: string | number): void {
    const depth = this.nodes.length;
    if (this.tokens === depth) this.verdicts.path.pop();
    else this.tokens = depth;
    this.verdicts.path.push(token);
  }
}

/** An object's order (see `VerdictRewriter.ordered`): no key holding verdicts yet, or one that is no integer-like key; else the last integer-like key's index. */
const NO_KEY = -1;
const OTHER_KEY = -2;

/** The index an integer-like key stands for, which the object model lists first (from 0 to 2^32 − 2, written as JavaScript writes it); -1 for any other key. */
function arrayIndex(key: string): number {
  if (!/^(?:0|[1-9]\d{0,9})$/.test(key)) return -1;
  const index = Number(key);
  return index <= 0xfffffffe ? index : -1;
}

/** A coercion that records no change: a caller asking only whether a value was refused makes none of the millions a text may hold. */
class RefusalsOnly extends Coercion {
  override change(): void {}
}
