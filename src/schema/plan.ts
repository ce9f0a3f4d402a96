/**
 * The plan: a JSON Schema compiled into nodes, one node per set of schemas that apply at a
 * value position. It is the single source of truth for "which schemas apply here": the walk,
 * lenient decisions and undeclared-key detection all ask it, and nothing else walks the schema.
 *
 * Compiled once per schema object and cached in a `WeakMap`; child nodes are built lazily, so
 * recursive schemas cost only as much as the value is deep. Schemas are treated as immutable.
 */
import { hasOwn, ownValue } from '../json/objects.js';
import { SchemaDocument, isSchemaObject, type SchemaObject } from './document.js';
import {
  ALL_TYPES, declaresInteger, typeBitsOf, IN_PLACE_ARRAY, IN_PLACE_MAP, IN_PLACE_SINGLE, POSITIONAL, POSITIONAL_MAP, REF_KEYWORDS, TYPE_BITS, typeMaskOf,
} from './keywords.js';
import { compilePattern } from './patterns.js';

/** `PlanNode.work` bit: an integer position is at or below this node. */
export const WORK_INTEGER = 1;
/** `PlanNode.work` bit: a typed position (`type`, `enum`, `const`) is at or below this node. */
export const WORK_LENIENT = 2;

/** Recursion bound for the accepted-types analysis of nested combinators. */
const MAX_ACCEPT_DEPTH = 64;
/** Per-node bound on cached child lookups for keys the schema does not declare. */
const MAX_CACHED_KEYS = 4096;

/** What the applicable schemas say about an object's keys. */
export interface ObjectShape {
  /** Declared property names, in schema order, across every applicable schema. */
  readonly declared: readonly string[];
  /** Keys beyond the declared ones are allowed. */
  readonly open: boolean;
}

/** The schemas that apply at one value position, with what the walk needs to know of them. */
export class PlanNode {
  /** Some applicable schema declares `"integer"`. */
  readonly integer: boolean;
  /** Mask of the JSON types every applicable constraint accepts (`ALL_TYPES` when unconstrained). */
  readonly accept: number;
  /** `WORK_INTEGER` / `WORK_LENIENT` bits: whether anything at or below needs a look. */
  readonly work: number;
  /** The applicable schema objects, combinator branches and `$ref` targets included. */
  readonly members: readonly SchemaObject[];
  /** The schemas this position was reached by, before combinators and refs were followed. */
  private readonly entries: readonly SchemaObject[];
  private readonly compiler: Compiler;
  private keyed: Map<string, PlanNode | null> | undefined;
  private tuple: (PlanNode | null | undefined)[] | undefined;
  private rest: PlanNode | null | undefined;
  private objectShape: ObjectShape | undefined;

  constructor(compiler: Compiler, entries: readonly SchemaObject[], members: readonly SchemaObject[], accept: number) {
    this.compiler = compiler;
    this.entries = entries;
    this.members = members;
    this.accept = accept;
    let integer = false;
    let work = 0;
    for (const member of members) {
      integer ||= declaresInteger(ownValue(member, 'type'));
      work |= compiler.reach(member);
    }
    this.integer = integer;
    this.work = work;
  }

  /** The node for the child at `token` of a value here: an array index (a number) or an object key. */
  at(token: string | number): PlanNode | null {
    return typeof token === 'number' ? this.item(token) : this.child(token);
  }

  /** The node for the value at property `key` of an object here, or `null` when none applies. */
  child(key: string): PlanNode | null {
    const cache = (this.keyed ??= new Map());
    const hit = cache.get(key);
    if (hit !== undefined) return hit;
    const entries = this.members.flatMap((member) => this.compiler.propertySchemas(member, key));
    let accept = ALL_TYPES;
    for (const entry of this.entries) accept &= this.compiler.childAccept(entry, key, 0);
    const node = this.compiler.node(entries, accept);
    if (cache.size < MAX_CACHED_KEYS) cache.set(key, node);
    return node;
  }

  /**
   * The property names the applicable schemas declare, in schema order, and whether keys beyond
   * them are allowed: they are when some schema sets `additionalProperties` or
   * `unevaluatedProperties` to `true` or a schema, or when no schema declares any property.
   */
  shape(): ObjectShape {
    if (this.objectShape === undefined) {
      const declared: string[] = [];
      let open = false;
      for (const member of this.members) {
        const properties = ownValue(member, 'properties');
        if (isSchemaObject(properties)) {
          for (const name of Object.keys(properties)) if (!declared.includes(name)) declared.push(name);
        }
        for (const keyword of ['additionalProperties', 'unevaluatedProperties']) {
          const extra = ownValue(member, keyword);
          if (extra === true || isSchemaObject(extra)) open = true;
        }
      }
      this.objectShape = { declared, open: open || declared.length === 0 };
    }
    return this.objectShape;
  }

  /** True when `key` is a declared property here or matches a `patternProperties` pattern. */
  declares(key: string): boolean {
    if (this.shape().declared.includes(key)) return true;
    return this.members.some((member) => this.compiler.patterns(member).some(([pattern]) => pattern.test(key)));
  }

  /** The names some applicable schema lists in `required`. */
  required(): readonly string[] {
    const names: string[] = [];
    for (const member of this.members) {
      const required = ownValue(member, 'required');
      if (Array.isArray(required)) for (const name of required) if (typeof name === 'string' && !names.includes(name)) names.push(name);
    }
    return names;
  }

  /** The node for the array element at `index` here, or `null` when none applies. */
  item(index: number): PlanNode | null {
    const tuple = (this.tuple ??= new Array(this.compiler.tupleLength(this.members)));
    if (index >= tuple.length) return (this.rest ??= this.itemNode(index));
    return (tuple[index] ??= this.itemNode(index));
  }

  private itemNode(index: number): PlanNode | null {
    const entries = this.members.map((member) => itemSchema(member, index));
    let accept = ALL_TYPES;
    for (const entry of this.entries) accept &= this.compiler.itemAccept(entry, index, 0);
    return this.compiler.node(entries, accept);
  }
}

/** Compiles the schemas of one document into plan nodes. */
class Compiler {
  private readonly doc: SchemaDocument;
  private readonly ids = new Map<SchemaObject, number>();
  private readonly nodes = new Map<string, PlanNode | null>();
  private readonly refs = new Map<SchemaObject, SchemaObject[]>();
  private readonly closures = new Map<SchemaObject, SchemaObject[]>();
  private readonly slotAccepts = new Map<SchemaObject, Map<string, number>>();
  private readonly marks = new Map<SchemaObject, number>();
  private readonly compiledPatterns = new Map<SchemaObject, [RegExp, unknown][]>();

  constructor(root: SchemaObject) {
    this.doc = new SchemaDocument(root);
    this.markReach();
  }

  /** The root node. */
  root(schema: SchemaObject): PlanNode | null {
    return this.node([schema]);
  }

  /** `WORK_*` bits of everything reachable from `schema` (itself included). */
  reach(schema: SchemaObject): number {
    return this.marks.get(schema) ?? 0;
  }

  /**
   * The node for a set of entry schemas (non-object entries are ignored) whose values must have
   * a type in `accept`, memoised. The root's accept mask is its schema's own.
   */
  node(entries: readonly unknown[], accept?: number): PlanNode | null {
    const schemas: SchemaObject[] = [];
    for (const entry of entries) if (isSchemaObject(entry) && !schemas.includes(entry)) schemas.push(entry);
    if (schemas.length === 0) return null;
    const mask = accept ?? schemas.reduce((m, schema) => m & this.acceptOf(schema, 0), ALL_TYPES);
    const key = schemas.map((schema) => this.idOf(schema)).sort((a, b) => a - b).join(',') + '|' + mask;
    const known = this.nodes.get(key);
    if (known !== undefined) return known;
    const members = schemas.length === 1 ? this.closure(schemas[0]!) : unionOf(schemas.map((s) => this.closure(s)));
    const node = new PlanNode(this, schemas, members, mask);
    this.nodes.set(key, node);
    return node;
  }

  /**
   * The types the value at property `key` may have, as far as `schema` says: its own property,
   * pattern or additional schema, narrowed by every `allOf` branch and ref, and by the union over
   * `anyOf`/`oneOf` branches (a branch that does not mention the key allows anything; a branch
   * that cannot be an object allows nothing, since it cannot be the one that matches).
   */
  childAccept(schema: SchemaObject, key: string, depth: number): number {
    const own = (s: SchemaObject) => this.propertySchemas(s, key).reduce((mask: number, sub) => mask & this.acceptOf(sub, 0), ALL_TYPES);
    return this.structural(schema, 'k' + key, depth, TYPE_BITS.object, own, (sub, d) => this.childAccept(sub, key, d));
  }

  /**
   * The subschemas of `schema` that apply to its property `key`: the property's own, every
   * matching pattern's, or else `additionalProperties`.
   */
  propertySchemas(schema: SchemaObject, key: string): unknown[] {
    const out: unknown[] = [];
    const properties = ownValue(schema, 'properties');
    if (isSchemaObject(properties) && hasOwn(properties, key)) out.push(properties[key]);
    for (const [pattern, sub] of this.patterns(schema)) if (pattern.test(key)) out.push(sub);
    if (out.length === 0) out.push(ownValue(schema, 'additionalProperties'));
    return out;
  }

  /** The types the array element at `index` may have, as far as `schema` says (see `childAccept`). */
  itemAccept(schema: SchemaObject, index: number, depth: number): number {
    return this.structural(schema, 'i' + Math.min(index, this.tupleLength([schema])), depth, TYPE_BITS.array, (s) => this.acceptOf(itemSchema(s, index), 0), (sub, d) => this.itemAccept(sub, index, d));
  }

  /**
   * What `schema` lets through at one slot (`''` the value itself, `k…` a property, `i…` an
   * item): `own`, narrowed by every `allOf` branch and ref, and by the union over `anyOf`/`oneOf`
   * branches. For a property or an item, a schema whose value cannot be a `container` lets
   * nothing through. Memoised per schema and slot; a cycle or nesting past `MAX_ACCEPT_DEPTH`
   * answers "anything", which only ever makes lenient mode more careful.
   */
  private structural(
    schema: SchemaObject,
    slot: string,
    depth: number,
    container: number | undefined,
    own: (schema: SchemaObject) => number,
    recurse: (schema: SchemaObject, depth: number) => number,
  ): number {
    if (depth > MAX_ACCEPT_DEPTH) return ALL_TYPES;
    let bySlot = this.slotAccepts.get(schema);
    if (bySlot === undefined) this.slotAccepts.set(schema, (bySlot = new Map()));
    const known = bySlot.get(slot);
    if (known !== undefined) return known;
    bySlot.set(slot, ALL_TYPES);
    const branch = (sub: unknown, d: number) => (isSchemaObject(sub) ? recurse(sub, d) : sub === false ? 0 : ALL_TYPES);
    let mask = container !== undefined && (this.acceptOf(schema, 0) & container) === 0 ? 0 : own(schema);
    const allOf = ownValue(schema, 'allOf');
    if (Array.isArray(allOf)) for (const sub of allOf) mask &= branch(sub, depth + 1);
    for (const keyword of ['anyOf', 'oneOf']) {
      const branches = ownValue(schema, keyword);
      if (!Array.isArray(branches) || branches.length === 0) continue;
      let union = 0;
      for (const sub of branches) union |= branch(sub, depth + 1);
      mask &= union;
    }
    for (const target of this.refTargets(schema)) mask &= recurse(target, depth + 1);
    bySlot.set(slot, mask);
    return mask;
  }

  /** Compiled `patternProperties` of a schema; invalid or unsafe patterns are left out. */
  patterns(schema: SchemaObject): [RegExp, unknown][] {
    let compiled = this.compiledPatterns.get(schema);
    if (compiled === undefined) {
      compiled = [];
      const map = ownValue(schema, 'patternProperties');
      if (isSchemaObject(map)) {
        for (const source of Object.keys(map)) {
          const pattern = compilePattern(source);
          if (pattern !== undefined) compiled.push([pattern, map[source]]);
        }
      }
      this.compiledPatterns.set(schema, compiled);
    }
    return compiled;
  }

  /** The longest tuple (`prefixItems`, or draft-07 array `items`) among `members`. */
  tupleLength(members: readonly SchemaObject[]): number {
    let length = 0;
    for (const member of members) {
      const prefix = ownValue(member, 'prefixItems');
      const tuple = Array.isArray(prefix) ? prefix : ownValue(member, 'items');
      if (Array.isArray(tuple)) length = Math.max(length, tuple.length);
    }
    return length;
  }

  private idOf(schema: SchemaObject): number {
    let id = this.ids.get(schema);
    if (id === undefined) {
      id = this.ids.size;
      this.ids.set(schema, id);
    }
    return id;
  }

  /** The resolved targets of `$ref`, `$dynamicRef` and `$recursiveRef`, indexed into the document. */
  private refTargets(schema: SchemaObject): SchemaObject[] {
    let targets = this.refs.get(schema);
    if (targets === undefined) {
      targets = [];
      for (const keyword of REF_KEYWORDS) {
        const ref = ownValue(schema, keyword);
        if (typeof ref !== 'string') continue;
        const target = this.doc.resolve(ref, schema);
        if (!isSchemaObject(target)) continue;
        if (!this.doc.has(target)) this.doc.add(target, 'https://schema-coerce.invalid/root');
        targets.push(target);
      }
      this.refs.set(schema, targets);
    }
    return targets;
  }

  /** Schemas that apply to the same value as `schema`: itself, branches, then/else, refs. */
  private closure(schema: SchemaObject): SchemaObject[] {
    let members = this.closures.get(schema);
    if (members === undefined) {
      members = [schema];
      const seen = new Set(members);
      for (let i = 0; i < members.length; i++) {
        for (const next of this.inPlace(members[i]!)) {
          if (!seen.has(next)) {
            seen.add(next);
            members.push(next);
          }
        }
      }
      this.closures.set(schema, members);
    }
    return members;
  }

  /** Subschemas applied in place: combinator branches, then/else, dependent schemas, refs. */
  private inPlace(schema: SchemaObject): SchemaObject[] {
    const out: SchemaObject[] = [];
    for (const keyword of IN_PLACE_ARRAY) {
      const branches = ownValue(schema, keyword);
      if (Array.isArray(branches)) for (const branch of branches) if (isSchemaObject(branch)) out.push(branch);
    }
    for (const keyword of IN_PLACE_SINGLE) {
      const sub = ownValue(schema, keyword);
      if (isSchemaObject(sub)) out.push(sub);
    }
    for (const keyword of IN_PLACE_MAP) {
      const map = ownValue(schema, keyword);
      if (!isSchemaObject(map)) continue;
      for (const name of Object.keys(map)) {
        const sub = map[name];
        if (isSchemaObject(sub)) out.push(sub);
      }
    }
    out.push(...this.refTargets(schema));
    return out;
  }

  /** Subschemas that apply to child values: properties, patterns, additional, items. */
  private positional(schema: SchemaObject): SchemaObject[] {
    const out: SchemaObject[] = [];
    for (const keyword of POSITIONAL_MAP) {
      const map = ownValue(schema, keyword);
      if (!isSchemaObject(map)) continue;
      for (const name of Object.keys(map)) {
        const sub = map[name];
        if (isSchemaObject(sub)) out.push(sub);
      }
    }
    for (const keyword of POSITIONAL) {
      const sub = ownValue(schema, keyword);
      if (isSchemaObject(sub)) out.push(sub);
      else if (Array.isArray(sub)) for (const item of sub) if (isSchemaObject(item)) out.push(item);
    }
    return out;
  }

  /**
   * Marks every schema of the document with the `WORK_*` bits reachable from it, by one pass
   * backwards over the reference and position edges, so the walk can skip idle subtrees whole.
   */
  private markReach(): void {
    const schemas = this.doc.schemas;
    const parents = new Map<SchemaObject, SchemaObject[]>();
    for (let i = 0; i < schemas.length; i++) {
      const schema = schemas[i]!;
      for (const next of [...this.inPlace(schema), ...this.positional(schema)]) {
        const list = parents.get(next);
        if (list === undefined) parents.set(next, [schema]);
        else list.push(schema);
      }
    }
    for (const [bit, seeds] of [
      [WORK_INTEGER, schemas.filter((s) => declaresInteger(ownValue(s, 'type')))],
      [WORK_LENIENT, schemas.filter(isTyped)],
    ] as const) {
      const queue = [...seeds];
      for (const seed of seeds) this.marks.set(seed, (this.marks.get(seed) ?? 0) | bit);
      while (queue.length > 0) {
        for (const parent of parents.get(queue.pop()!) ?? []) {
          const mark = this.marks.get(parent) ?? 0;
          if ((mark & bit) === 0) {
            this.marks.set(parent, mark | bit);
            queue.push(parent);
          }
        }
      }
    }
  }

  /** The types a schema lets through: `type`, narrowed by `enum`/`const`, combinators and refs. */
  private acceptOf(schema: unknown, depth: number): number {
    if (schema === false) return 0;
    if (!isSchemaObject(schema)) return ALL_TYPES;
    return this.structural(schema, '', depth, undefined, ownTypes, (sub, d) => this.acceptOf(sub, d));
  }
}

/** The subschema an array element at `index` is read against in `schema`, if any. */
function itemSchema(schema: SchemaObject, index: number): unknown {
  const prefix = ownValue(schema, 'prefixItems');
  const items = ownValue(schema, 'items');
  if (Array.isArray(prefix)) return index < prefix.length ? prefix[index] : Array.isArray(items) ? undefined : items;
  if (Array.isArray(items)) return index < items.length ? items[index] : ownValue(schema, 'additionalItems');
  return items;
}

/** The types a schema's own `type`, `enum` and `const` let through. */
function ownTypes(schema: SchemaObject): number {
  let mask = typeMaskOf(ownValue(schema, 'type')) || ALL_TYPES;
  if (hasOwn(schema, 'const')) mask &= typeBitsOf(schema['const']);
  const enumValues = ownValue(schema, 'enum');
  if (Array.isArray(enumValues)) mask &= enumValues.reduce((m: number, v) => m | typeBitsOf(v), 0);
  return mask;
}

function isTyped(schema: SchemaObject): boolean {
  return typeMaskOf(ownValue(schema, 'type')) !== 0 || hasOwn(schema, 'enum') || hasOwn(schema, 'const');
}

function unionOf(lists: SchemaObject[][]): SchemaObject[] {
  return [...new Set(lists.flat())];
}

/**
 * The one test of "does anything at or below this node need a look": true when `node` exists and
 * carries one of the `WORK_*` bits in `mask`. Every walk skips what fails it, whole.
 */
export function hasWork(node: PlanNode | null, mask: number): node is PlanNode {
  return node !== null && (node.work & mask) !== 0;
}

const plans = new WeakMap<object, PlanNode | null>();

/**
 * The cached plan root for a schema, or `null` when the schema is not an object (boolean
 * schemas, `null`, strings, arrays and numbers coerce nothing).
 */
export function planFor(schema: unknown): PlanNode | null {
  if (!isSchemaObject(schema)) return null;
  let root = plans.get(schema);
  if (root === undefined) {
    root = compilePlan(schema);
    plans.set(schema, root);
  }
  return root;
}

/** `planFor`, or `null` when reading the schema throws (a hostile getter or Proxy). */
export function planOrNull(schema: unknown): PlanNode | null {
  try {
    return planFor(schema);
  } catch {
    return null;
  }
}

/** Compiles a plan without the cache (`planFor` is the cached entry point). */
export function compilePlan(schema: unknown): PlanNode | null {
  return isSchemaObject(schema) ? new Compiler(schema).root(schema) : null;
}
