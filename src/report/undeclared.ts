/**
 * Undeclared keys: models rename parameters (`query` for `q`, `thought_number` for
 * `thoughtNumber`) and most servers accept the unknown key silently. This module finds such keys
 * at every object level, suggests the declared name meant, and can rename the unambiguous ones.
 */
import { setOwn } from '../json/objects.js';
import { editDistance, normalizeName } from '../json/strings.js';
import { walkValues, type Container, type PathToken, type ValueVisitor } from '../json/walk-values.js';
import { planOrNull, type PlanNode } from '../schema/plan.js';
import { escapeToken, PointerPath } from '../json/pointer.js';
import type { Change, CoerceOptions, CoerceResult } from '../coerce/types.js';
import { valueCoercer } from '../coerce/coerce.js';
import { judge } from '../coerce/gate.js';
import { keyReadings, renameTargets, spelledName, type KeyReading } from '../coerce/key-readings.js';

/** A key the applicable schemas do not declare, with the declared name probably meant. */
export interface UndeclaredKey {
  /** JSON Pointer (RFC 6901) to the property, e.g. `/query` or `/filters/0/qry`. */
  readonly path: string;
  /** The key as sent. */
  readonly key: string;
  /** The declared name the model probably meant, when one stands out. */
  readonly suggestion?: string;
  /**
   * Set when names were compared by spelling alone (the same name once normalised), not by edit
   * distance: the arguments sent more unknown keys against more declared names than one scan
   * compares (`MAX_NAME_COMPARISONS`). A key without a suggestion may still mean a declared name.
   */
  readonly bySpelling?: true;
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
  /** Name comparisons this scan may still make (see `MAX_NAME_COMPARISONS`). */
  private comparisons = MAX_NAME_COMPARISONS;
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
      const cost = undeclared.length * shape.declared.length;
      this.comparisons += undeclared.length * COMPARISONS_PER_KEY;
      const bySpelling = cost > this.comparisons;
      if (!bySpelling) this.comparisons -= cost;
      const names = undeclared.length === 0 ? null : new Suggestions(shape.declared, node.required(), keys, undeclared.length, bySpelling);
      undeclared.forEach((key, i) => {
        const suggestion = names!.suggest(key);
        const path = `${at}/${escapeToken(key)}`;
        this.found.push({ path, key, ...(suggestion === undefined ? {} : { suggestion }), ...(bySpelling ? { bySpelling } : {}) });
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
 * How many name comparisons (undeclared keys times declared names) a scan makes by edit distance
 * and containment: `MAX_NAME_COMPARISONS`, and `COMPARISONS_PER_KEY` more for each undeclared key
 * it meets, so the work stays linear in the arguments. Past it, an object's suggestions come from
 * spelling alone (the same name once normalised, looked up by index): 500 unknown keys against
 * 10,000 declared names cost 500 lookups, not five million edit distances, while keys against
 * schemas of a normal size (up to 100 names) are always compared in full.
 */
const MAX_NAME_COMPARISONS = 10_000;
const COMPARISONS_PER_KEY = 100;

/** A node's declared names indexed: by normalised form, each one's form, and as a set. Built once per list. */
interface NameIndex {
  readonly bySpelling: ReadonlyMap<string, readonly string[]>;
  readonly forms: readonly string[];
  readonly names: ReadonlySet<string>;
}

const nameIndexes = new WeakMap<readonly string[], NameIndex>();

function spellingsOf(declared: readonly string[]): NameIndex {
  let index = nameIndexes.get(declared);
  if (index === undefined) {
    const bySpelling = new Map<string, string[]>();
    const forms = declared.map((name) => {
      const form = normalizeName(name);
      const names = bySpelling.get(form);
      if (names === undefined) bySpelling.set(form, [name]);
      else names.push(name);
      return form;
    });
    index = { bySpelling, forms, names: new Set(declared) };
    nameIndexes.set(declared, index);
  }
  return index;
}

/**
 * The declared names probably meant by the undeclared keys of one object, tier by tier: same name
 * once normalised; then a small edit distance; then one name containing the other at its start or
 * end (`q`/`query`, `depth`/`maxDepth`) or abbreviating it (`qty`/`quantity`); then, when this is
 * the only undeclared key, the only required name missing. Names the object already has are never
 * suggested. By spelling (past `MAX_NAME_COMPARISONS`), the first tier alone.
 */
class Suggestions {
  private readonly declared: readonly string[];
  private readonly required: readonly string[];
  private readonly present: ReadonlySet<string>;
  private readonly undeclaredCount: number;
  private readonly bySpelling: boolean;

  constructor(declared: readonly string[], required: readonly string[], present: readonly string[], undeclaredCount: number, bySpelling: boolean) {
    this.declared = declared;
    this.required = required;
    this.present = new Set(present);
    this.undeclaredCount = undeclaredCount;
    this.bySpelling = bySpelling;
  }

  suggest(key: string): string | undefined {
    const sent = normalizeName(spelledName(key));
    const index = spellingsOf(this.declared);
    const same = index.bySpelling.get(sent)?.find((name) => !this.present.has(name));
    if (same !== undefined || this.bySpelling) return same;
    const candidates: number[] = [];
    this.declared.forEach((name, i) => {
      if (!this.present.has(name)) candidates.push(i);
    });
    let best: string | undefined;
    let bestDistance = Infinity;
    for (const i of candidates) {
      const target = index.forms[i]!;
      const distance = editDistance(sent, target);
      if (distance <= Math.max(1, Math.floor(Math.max(sent.length, target.length) / 3)) && distance < bestDistance) {
        best = this.declared[i];
        bestDistance = distance;
      }
    }
    if (best !== undefined) return best;
    const contained = candidates.filter((i) => {
      const target = index.forms[i]!;
      const [short, long] = target.length <= sent.length ? [target, sent] : [sent, target];
      return short.length > 0 && (long.startsWith(short) || long.endsWith(short) || abbreviates(short, long));
    });
    if (contained.length === 1) return this.declared[contained[0]!];
    const missing = this.required.filter((name) => !this.present.has(name) && index.names.has(name));
    return this.undeclaredCount === 1 && missing.length === 1 ? missing[0] : undefined;
  }
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
