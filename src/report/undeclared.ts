/**
 * Undeclared keys: models rename parameters (`query` for `q`, `thought_number` for
 * `thoughtNumber`) and most servers accept the unknown key silently. This module finds such keys
 * at every object level, suggests the declared name meant, and can rename the unambiguous ones.
 */
import { copyObject, isPlainObject, setOwn } from '../json/objects.js';
import { planOrNull, type PlanNode } from '../schema/plan.js';
import { toPointer } from '../json/pointer.js';
import type { Change } from '../repair/types.js';

/** A key the applicable schemas do not declare, with the declared name probably meant. */
export interface UndeclaredKey {
  /** JSON Pointer (RFC 6901) to the property, e.g. `/query` or `/filters/0/qry`. */
  readonly path: string;
  /** The key as sent. */
  readonly key: string;
  /** The declared name the model probably meant, when one stands out. */
  readonly suggestion?: string;
}

interface Found extends UndeclaredKey {
  readonly tokens: readonly (string | number)[];
  readonly rename: string | undefined;
}

/**
 * Finds keys the schema does not declare, at every object level. A key is undeclared when the
 * object's applicable schemas declare at least one property, none sets `additionalProperties`
 * (or `unevaluatedProperties`) to `true` or a schema, no `patternProperties` matches it, and no
 * combinator branch declares it. Never throws; a schema that is not an object finds nothing.
 *
 * @param args - The arguments (from `parseArgs`, or plain values).
 * @param schema - The tool's input JSON Schema.
 * @returns One entry per undeclared key, parents before children, in key order.
 * @example
 * findUndeclaredKeys({ query: 'x' }, { properties: { q: { type: 'string' } }, required: ['q'] })
 * // [{ path: '/query', key: 'query', suggestion: 'q' }]
 */
export function findUndeclaredKeys(args: unknown, schema: unknown): UndeclaredKey[] {
  return scan(args, schema).map(({ path, key, suggestion }) => (suggestion === undefined ? { path, key } : { path, key, suggestion }));
}

/**
 * Renames each undeclared key that matches exactly one declared name by normalisation (case,
 * `snake_case`, `camelCase`, `kebab-case`) when that name is not already present: `thought_number`
 * becomes `thoughtNumber`. Key order is kept. Pure: new containers only on the path to a rename.
 *
 * @param args - The arguments.
 * @param schema - The tool's input JSON Schema.
 * @returns The renamed arguments (the same reference when nothing was renamed) and one
 *   `rename-key` change per rename, whose `path` points at the new key.
 */
export function renameUnambiguousKeys(args: unknown, schema: unknown): { value: unknown; changes: Change[] } {
  const renames = scan(args, schema).filter((found) => found.rename !== undefined);
  if (renames.length === 0) return { value: args, changes: [] };
  const copies = new Map<object, unknown[] | Record<string, unknown>>();
  const copyOf = (original: unknown[] | Record<string, unknown>) => {
    let copy = copies.get(original);
    if (copy === undefined) {
      copy = Array.isArray(original) ? original.slice() : copyObject(original);
      copies.set(original, copy);
    }
    return copy;
  };
  const deepestFirst = [...renames].sort((a, b) => b.tokens.length - a.tokens.length);
  for (const { tokens, key, rename } of deepestFirst) {
    let original = args as unknown[] | Record<string, unknown>;
    let copy = copyOf(original);
    for (const token of tokens.slice(0, -1)) {
      const child = (original as Record<string | number, unknown>)[token] as unknown[] | Record<string, unknown>;
      const childCopy = copyOf(child);
      if (Array.isArray(copy)) copy[token as number] = childCopy;
      else setOwn(copy, token as string, childCopy);
      original = child;
      copy = childCopy;
    }
    renameInPlace(copy as Record<string, unknown>, key, rename!);
  }
  const changes = renames.map(({ tokens, key, rename }) => ({
    path: toPointer([...tokens.slice(0, -1), rename!]),
    from: JSON.stringify(key),
    to: JSON.stringify(rename),
    rule: 'rename-key' as const,
  }));
  return { value: copyOf(args as Record<string, unknown>), changes };
}

/** Walks the arguments with the plan and collects every undeclared key. */
function scan(args: unknown, schema: unknown): Found[] {
  const found: Found[] = [];
  const root = planOrNull(schema);
  if (root === null) return found;
  const stack: [unknown, PlanNode, (string | number)[]][] = [[args, root, []]];
  while (stack.length > 0) {
    const [value, node, tokens] = stack.pop()!;
    const children: [unknown, PlanNode, (string | number)[]][] = [];
    if (Array.isArray(value)) {
      value.forEach((item, index) => {
        const child = node.item(index);
        if (child !== null) children.push([item, child, [...tokens, index]]);
      });
    } else if (isPlainObject(value)) {
      const keys = Object.keys(value);
      const shape = node.shape();
      const undeclared = shape.open ? [] : keys.filter((key) => !node.declares(key));
      for (const key of undeclared) {
        const suggestion = suggest(key, shape.declared, node.required(), keys, undeclared.length);
        found.push({
          path: toPointer([...tokens, key]),
          key,
          tokens: [...tokens, key],
          ...(suggestion === undefined ? {} : { suggestion }),
          rename: unambiguous(key, shape.declared, keys),
        });
      }
      for (const key of keys) {
        const child = node.child(key);
        if (child !== null) children.push([value[key], child, [...tokens, key]]);
      }
    }
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
  }
  return found;
}

/** Lower case without `_`, `-`, spaces and dots: `thought_number`, `thoughtNumber` → `thoughtnumber`. */
export function normalizeName(name: string): string {
  return name.toLowerCase().replace(/[\s_.-]+/g, '');
}

function unambiguous(key: string, declared: readonly string[], present: readonly string[]): string | undefined {
  const matches = declared.filter((name) => normalizeName(name) === normalizeName(key));
  const [only] = matches;
  return matches.length === 1 && !present.includes(only!) ? only : undefined;
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

function renameInPlace(object: Record<string, unknown>, from: string, to: string): void {
  const entries = Object.keys(object).map((key) => [key, object[key]] as const);
  for (const [key] of entries) delete object[key];
  for (const [key, value] of entries) setOwn(object, key === from ? to : key, value);
}
