/**
 * Undeclared keys: models rename parameters (`query` for `q`, `thought_number` for
 * `thoughtNumber`) and most servers accept the unknown key silently. This module finds such keys
 * at every object level, suggests the declared name meant, and can rename the unambiguous ones.
 */
import { setOwn } from '../json/objects.js';
import { normalizeName } from '../json/strings.js';
import { walkValues, type Container, type PathToken, type ValueVisitor } from '../json/walk-values.js';
import { planOrNull, type PlanNode } from '../schema/plan.js';
import { escapeToken, PointerPath } from '../json/pointer.js';
import type { Change, CoerceOptions, CoerceResult } from '../coerce/types.js';
import { valueCoercer } from '../coerce/coerce.js';
import { judge } from '../coerce/gate.js';
import { keyReadings, renameTargets, type KeyReading } from '../coerce/key-readings.js';

/** A key the applicable schemas do not declare, with the declared name probably meant. */
export interface UndeclaredKey {
  /** JSON Pointer (RFC 6901) to the property, e.g. `/query` or `/filters/0/qry`. */
  readonly path: string;
  /** The key as sent. */
  readonly key: string;
  /** The declared name the model probably meant, when one stands out. */
  readonly suggestion?: string;
}

/**
 * Finds keys the schema does not declare, at every object level. A key is undeclared when the
 * object's applicable schemas declare at least one property, none sets `additionalProperties`
 * (or `unevaluatedProperties`) to `true` or a schema, no `patternProperties` matches it, and no
 * combinator branch declares it. Never throws; a schema that is not an object finds nothing.
 * Linear in the depth of the arguments; arguments that contain themselves are read once.
 *
 * @param args - The arguments (from `parseArgs`, or plain values).
 * @param schema - The tool's input JSON Schema.
 * @returns One entry per undeclared key, parents before children, in key order.
 * @example
 * findUndeclaredKeys({ query: 'x' }, { properties: { q: { type: 'string' } }, required: ['q'] })
 * // [{ path: '/query', key: 'query', suggestion: 'q' }]
 */
export function findUndeclaredKeys(args: unknown, schema: unknown): UndeclaredKey[] {
  const scan = new KeyScan(undefined);
  scan.run(args, schema);
  return scan.found;
}

/** What `renameUnambiguousKeys` did. */
export interface KeyRenames {
  /** The renamed arguments: the same reference when nothing was renamed. */
  readonly value: unknown;
  /** One `rename-key` change per rename, whose `path` points at the new key. */
  readonly changes: Change[];
  /**
   * Undeclared keys left as they are because another key of the same object matches the same
   * declared name (`thought_number` and `ThoughtNumber` both mean `thoughtNumber`): renaming either
   * would lose the other's value. Each with that name as its `suggestion`.
   */
  readonly conflicts: UndeclaredKey[];
}

/**
 * Renames each undeclared key that matches exactly one declared name by normalisation (case,
 * `snake_case`, `camelCase`, `kebab-case`) when that name is not already present: `thought_number`
 * becomes `thoughtNumber`. The rename is one reading of the key among others, and the gate decides
 * as it does for the flattened-key rule (`coerce/key-readings.ts`): `file.path` is not renamed to
 * `filePath` where `file` declares `path` and the nesting fits as well (the coercion then refuses
 * it, with both readings). Two undeclared keys of one object that match the same name are both
 * left as they are, and listed in `conflicts`. Key order is kept. Pure: new containers only on the
 * path to a rename.
 *
 * @param args - The arguments.
 * @param schema - The tool's input JSON Schema.
 * @param options - The options of the coercion that follows: how far the schema takes each reading
 *   of a key is judged as that coercion would judge it.
 * @returns The renamed arguments, the changes, and the keys not renamed for a conflict.
 */
export function renameUnambiguousKeys(args: unknown, schema: unknown, options?: CoerceOptions): KeyRenames {
  const scan = new KeyScan(valueCoercer(options));
  const value = scan.run(args, schema);
  return { value, changes: scan.changes, conflicts: scan.conflicts };
}

/**
 * One walk of the arguments against the plan that finds the undeclared keys of every object
 * and, when `renaming`, renames the unambiguous ones as it leaves each object.
 */
class KeyScan implements ValueVisitor<PlanNode> {
  readonly found: UndeclaredKey[] = [];
  readonly changes: Change[] = [];
  readonly conflicts: UndeclaredKey[] = [];
  private readonly renaming: boolean;
  /** When renaming: how the gate judges a reading's value (see `renameUnambiguousKeys`). */
  private readonly nest: ((value: unknown, node: PlanNode) => CoerceResult) | undefined;
  private readonly path = new PointerPath();
  /** Per entered container, the renames to make in it as it is left (`null`: none). */
  private readonly renames: (Map<string, string> | null)[] = [];

  constructor(nest: ((value: unknown, node: PlanNode) => CoerceResult) | undefined) {
    this.renaming = nest !== undefined;
    this.nest = nest;
  }

  /** Walks `args` against the plan of `schema`; returns them, renamed when renaming. */
  run(args: unknown, schema: unknown): unknown {
    const root = planOrNull(schema);
    return root === null ? args : walkValues(args, root, this, this.path, 0);
  }

  child(parent: PlanNode, token: PathToken): PlanNode | undefined {
    return parent.at(token) ?? undefined;
  }

  leaf(value: unknown): unknown {
    return value;
  }

  enter(container: Container, node: PlanNode): boolean {
    let renames: Map<string, string> | null = null;
    if (!Array.isArray(container)) {
      const keys = Object.keys(container);
      const shape = node.shape();
      const undeclared = shape.open ? [] : keys.filter((key) => !node.declares(key));
      const at = this.path.pointer;
      const targets = this.renaming ? undeclared.map((key) => this.renameOf(key, node, container, at)) : [];
      const claims = new Map<string | undefined, number>();
      for (const target of targets) claims.set(target, (claims.get(target) ?? 0) + 1);
      undeclared.forEach((key, i) => {
        const suggestion = suggest(key, shape.declared, node.required(), keys, undeclared.length);
        const path = `${at}/${escapeToken(key)}`;
        this.found.push({ path, key, ...(suggestion === undefined ? {} : { suggestion }) });
        const rename = targets[i];
        if (rename === undefined) return;
        // Two keys meaning one name: renaming either would drop the other's value. A declared key
        // sent as null counts (rule `optionalNull` keeps that null: removing it would hide this value).
        if (claims.get(rename)! > 1 || keys.includes(rename)) {
          this.conflicts.push({ path, key, suggestion: rename });
          return;
        }
        (renames ??= new Map()).set(key, rename);
        this.changes.push({ path: `${at}/${escapeToken(rename)}`, from: JSON.stringify(key), to: JSON.stringify(rename), rule: 'rename-key' });
      });
    }
    if (this.renaming) this.renames.push(renames);
    return true;
  }

  leave(_original: Container, done: Container): unknown {
    const renames = this.renaming ? this.renames.pop() : null;
    if (renames == null) return done;
    const object = done as Record<string, unknown>;
    const renamed: Record<string, unknown> = {};
    for (const key of Object.keys(object)) setOwn(renamed, renames.get(key) ?? key, object[key]);
    return renamed;
  }

  cycle(): void {}

  /**
   * The declared name `key` is renamed to: the gate's one reading of it, when that is a rename
   * (the name not sent, or sent as null: then a conflict); undefined otherwise.
   */
  private renameOf(key: string, node: PlanNode, container: Record<string, unknown>, at: string): string | undefined {
    if (renameTargets(node, key).length === 0) return undefined;
    const verdict = judge(keyReadings(key, container[key], node, container, at, this.nest!));
    return verdict.kind === 'take' && verdict.proposal.rule === 'rename-key' ? ((verdict.proposal as KeyReading).steps[0] as string) : undefined;
  }
}

/**
 * The declared name probably meant by `key`, tier by tier: same name once normalised; then a
 * small edit distance; then one name containing the other at its start or end (`q`/`query`,
 * `depth`/`maxDepth`) or abbreviating it (`qty`/`quantity`); then, when this is the only undeclared key, the only required name missing.
 */
function suggest(
  key: string,
  declared: readonly string[],
  required: readonly string[],
  present: readonly string[],
  undeclaredCount: number,
): string | undefined {
  const candidates = declared.filter((name) => !present.includes(name));
  const sent = normalizeName(key);
  const same = candidates.find((name) => normalizeName(name) === sent);
  if (same !== undefined) return same;
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const name of candidates) {
    const target = normalizeName(name);
    const distance = editDistance(sent, target);
    if (distance <= Math.max(1, Math.floor(Math.max(sent.length, target.length) / 3)) && distance < bestDistance) {
      best = name;
      bestDistance = distance;
    }
  }
  if (best !== undefined) return best;
  const contained = candidates.filter((name) => {
    const target = normalizeName(name);
    const [short, long] = target.length <= sent.length ? [target, sent] : [sent, target];
    return short.length > 0 && (long.startsWith(short) || long.endsWith(short) || abbreviates(short, long));
  });
  if (contained.length === 1) return contained[0];
  const missing = required.filter((name) => candidates.includes(name));
  return undeclaredCount === 1 && missing.length === 1 ? missing[0] : undefined;
}

/** `short` is `long` with letters left out, first letter kept: `qty` abbreviates `quantity`. */
function abbreviates(short: string, long: string): boolean {
  if (short.length < 2 || short[0] !== long[0]) return false;
  let at = 0;
  for (const char of short) {
    at = long.indexOf(char, at) + 1;
    if (at === 0) return false;
  }
  return true;
}

/** Optimal string alignment distance (Levenshtein with adjacent transpositions). */
function editDistance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 3) return Infinity;
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let distance = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) distance = Math.min(distance, before[j - 2]! + 1);
      current.push(distance);
    }
    before = previous;
    previous = current;
  }
  return previous[b.length]!;
}
