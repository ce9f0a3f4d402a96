/**
 * The plan: a JSON Schema compiled into nodes, one node per set of schemas that apply at a
 * value position. It is the single source of truth for "which schemas apply here": the walk,
 * lenient decisions and undeclared-key detection all ask it, and nothing else walks the schema.
 * Its parts: the schema document (`document.ts`), which subschemas apply (`applicators.ts`), the
 * accepted types (`accepted-types.ts`) and work marking (`work-marks.ts`); this module holds the
 * nodes and the cache.
 *
 * Compiled once per schema object and cached in a `WeakMap`; child nodes are built lazily, so
 * recursive schemas cost only as much as the value is deep. Schemas are treated as immutable.
 */
import { hasOwn, ownValue } from '../json/objects.js';
import { AcceptedTypes } from './accepted-types.js';
import { Applicators, itemSchema, UNCHECKED } from './applicators.js';
import { PropertyIndex } from './property-index.js';
import { SchemaDocument, isSchemaObject, type SchemaObject } from './document.js';
import { ALL_TYPES, accepts, declaresInteger } from './keywords.js';
import { markWork } from './work-marks.js';
import { flatCopy } from '../json/strings.js';

export { WORK_INTEGER, WORK_LENIENT } from './work-marks.js';

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
  /** Work bits (`WORK_INTEGER`, `WORK_LENIENT`): what at or below this node needs a look (see `hasWork`). */
  readonly work: number;
  /** The applicable schema objects, combinator branches and `$ref` targets included. */
  readonly members: readonly SchemaObject[];
  /** The schemas this position was reached by, before combinators and refs were followed. */
  private readonly entries: readonly SchemaObject[];
  private readonly compiler: Compiler;
  private keyed: Map<string, PlanNode | null> | undefined;
  private tuple: (PlanNode | null | undefined)[] | undefined;
  private rest: PlanNode | null | undefined;
  private index: PropertyIndex | undefined;
  private objectShape: ObjectShape | undefined;
  private enumMembers: readonly string[] | null | undefined;
  private requiredNames: readonly string[] | undefined;
  private nullKeeps: NullKeeps | undefined;

  constructor(compiler: Compiler, entries: readonly SchemaObject[], members: readonly SchemaObject[], accept: number) {
    this.compiler = compiler;
    this.entries = entries;
    this.members = members;
    this.accept = accept;
    let integer = false;
    let work = 0;
    for (const member of members) {
      integer ||= declaresInteger(ownValue(member, 'type'));
      work |= compiler.workOf(member);
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
    const entries = this.properties().schemasFor(key);
    let node: PlanNode | null;
    if (entries[0] === UNCHECKED) node = this.compiler.node(entries, ALL_TYPES);
    else {
      let accept = ALL_TYPES;
      for (const entry of this.entries) accept &= this.compiler.types.atProperty(entry, key);
      node = this.compiler.node(entries, accept);
    }
    // A copy of the key: the key read from arguments may be a slice of a larger text, kept whole by it.
    if (cache.size < MAX_CACHED_KEYS) cache.set(flatCopy(key), node);
    return node;
  }

  /**
   * The property names the applicable schemas declare, in schema order, and whether keys beyond
   * them are allowed: they are when some schema sets `additionalProperties` or
   * `unevaluatedProperties` to `true` or a schema, or when no schema declares any property.
   */
  shape(): ObjectShape {
    if (this.objectShape === undefined) {
      const { declared, open } = this.properties();
      this.objectShape = { declared, open: open || declared.length === 0 };
    }
    return this.objectShape;
  }

  /**
   * True when `key` is a declared property here or matches a `patternProperties` pattern, or
   * when whether it matches one cannot be checked.
   */
  declares(key: string): boolean {
    return this.properties().declares(key);
  }

  /** The property index of this node's schemas, built on first need. */
  private properties(): PropertyIndex {
    return (this.index ??= new PropertyIndex(this.members, this.compiler.applicators));
  }

  /**
   * The string members of every `enum` and `const` here (each once, in schema order); `null` when
   * there are none, or when some applicable schema accepts any string.
   */
  stringEnum(): readonly string[] | null {
    if (this.enumMembers === undefined) this.enumMembers = stringMembers(this.members);
    return this.enumMembers;
  }

  /** The names some applicable schema lists in `required` (each once, in schema order). */
  required(): readonly string[] {
    if (this.requiredNames === undefined) this.requiredNames = [...namesIn(this.members, requiredLists)];
    return this.requiredNames;
  }

  /**
   * Rule `optionalNull`: true when a `null` at property `key` of an object here may be removed
   * as "not given". It may not when the key is, or may become, required (`required`, and every
   * name of a `dependentRequired` or draft-07 array `dependencies`, present trigger or not), when
   * it is no key of `properties` (a map entry, whose null may mean "unset"), or when the value's
   * own schemas accept null (a type, enum or const with null, or OpenAPI `nullable: true`).
   */
  dropsNull(key: string): boolean {
    const keeps = (this.nullKeeps ??= { required: namesIn(this.members, keptLists), declared: this.properties().names });
    if (keeps.required.has(key) || !keeps.declared.has(key)) return false;
    const child = this.child(key);
    return child !== null && !accepts(child.accept, null);
  }

  /** The largest `minProperties` of the applicable schemas (0 when none sets one). */
  minProperties(): number {
    let min = 0;
    for (const member of this.members) {
      const value = ownValue(member, 'minProperties');
      if (typeof value === 'number' && value > min) min = value;
    }
    return min;
  }

  /** The node for the array element at `index` here, or `null` when none applies. */
  item(index: number): PlanNode | null {
    const tuple = (this.tuple ??= new Array(this.compiler.applicators.tupleLength(this.members)));
    if (index >= tuple.length) return (this.rest ??= this.itemNode(index));
    return (tuple[index] ??= this.itemNode(index));
  }

  /**
   * True when no value may be the array element at `index` here (`items: false`, a `false` in
   * `prefixItems`), which `item` does not tell from an element no schema constrains: both are `null`.
   */
  forbidsItem(index: number): boolean {
    return this.itemAccept(index) === 0;
  }

  private itemNode(index: number): PlanNode | null {
    const entries = this.members.map((member) => itemSchema(member, index));
    return this.compiler.node(entries, this.itemAccept(index));
  }

  /** The JSON types every schema this position was reached by lets through at array element `index`. */
  private itemAccept(index: number): number {
    let accept = ALL_TYPES;
    for (const entry of this.entries) accept &= this.compiler.types.atItem(entry, index);
    return accept;
  }
}

/** Compiles the schemas of one document into plan nodes, memoised by the set of schemas and their accepted types. */
class Compiler {
  readonly applicators: Applicators;
  readonly types: AcceptedTypes;
  private readonly doc: SchemaDocument;
  private readonly ids = new Map<SchemaObject, number>();
  private readonly nodes = new Map<string, PlanNode | null>();
  private readonly work: Map<SchemaObject, number>;

  constructor(root: SchemaObject) {
    this.doc = new SchemaDocument(root);
    this.applicators = new Applicators(this.doc);
    this.types = new AcceptedTypes(this.doc, this.applicators);
    this.work = markWork(this.doc, this.applicators);
  }

  /** The root node. */
  root(schema: SchemaObject): PlanNode | null {
    return this.node([schema]);
  }

  /** Work bits of everything reachable from `schema` (itself included). */
  workOf(schema: SchemaObject): number {
    return this.work.get(schema) ?? 0;
  }

  /**
   * The node for a set of entry schemas (non-object entries are ignored) whose values must have
   * a type in `accept`, memoised. The root's accept mask is its schema's own.
   */
  node(entries: readonly unknown[], accept?: number): PlanNode | null {
    const schemas: SchemaObject[] = [];
    for (const entry of entries) {
      if (!isSchemaObject(entry)) continue;
      const schema = this.doc.view(entry);
      if (!schemas.includes(schema)) schemas.push(schema);
    }
    if (schemas.length === 0) return null;
    const mask = accept ?? schemas.reduce((m, schema) => m & this.types.of(schema), ALL_TYPES);
    const key = schemas.map((schema) => this.idOf(schema)).sort((a, b) => a - b).join(',') + '|' + mask;
    const known = this.nodes.get(key);
    if (known !== undefined) return known;
    const members = schemas.length === 1 ? this.applicators.closure(schemas[0]!) : unionOf(schemas.map((s) => this.applicators.closure(s)));
    const node = new PlanNode(this, schemas, members, mask);
    this.nodes.set(key, node);
    return node;
  }

  private idOf(schema: SchemaObject): number {
    let id = this.ids.get(schema);
    if (id === undefined) {
      id = this.ids.size;
      this.ids.set(schema, id);
    }
    return id;
  }
}

/** What `PlanNode.dropsNull` reads of an object's schemas, computed once per node. */
interface NullKeeps {
  readonly required: ReadonlySet<string>;
  readonly declared: ReadonlySet<string>;
}

/** The `required` list of a schema. */
function requiredLists(schema: SchemaObject): unknown[] {
  return [ownValue(schema, 'required')];
}

/** The lists whose names may be required: `required`, and the arrays of `dependentRequired` and `dependencies`. */
function keptLists(schema: SchemaObject): unknown[] {
  const lists = requiredLists(schema);
  for (const keyword of ['dependentRequired', 'dependencies']) {
    const map = ownValue(schema, keyword);
    if (isSchemaObject(map)) for (const name of Object.keys(map)) lists.push(ownValue(map, name));
  }
  return lists;
}

/** The string names of the lists `listsOf` gives for each schema, each once, in order. */
function namesIn(schemas: readonly SchemaObject[], listsOf: (schema: SchemaObject) => unknown[]): Set<string> {
  const names = new Set<string>();
  for (const schema of schemas) {
    for (const list of listsOf(schema)) if (Array.isArray(list)) for (const name of list) if (typeof name === 'string') names.add(name);
  }
  return names;
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

/** The string members of the `enum`s and `const`s of `schemas`: see `PlanNode.stringEnum`. */
function stringMembers(schemas: readonly SchemaObject[]): readonly string[] | null {
  const members = new Set<string>();
  let constrained = false;
  for (const schema of schemas) {
    const values = ownValue(schema, 'enum');
    const listed = Array.isArray(values) ? [...(values as unknown[])] : [];
    if (hasOwn(schema, 'const')) listed.push(ownValue(schema, 'const'));
    if (Array.isArray(values) || hasOwn(schema, 'const')) {
      constrained = true;
      for (const member of listed) if (typeof member === 'string') members.add(member);
    } else if (acceptsAnyString(ownValue(schema, 'type'))) {
      return null;
    }
  }
  return constrained && members.size > 0 ? [...members] : null;
}

function acceptsAnyString(type: unknown): boolean {
  return type === 'string' || (Array.isArray(type) && type.includes('string'));
}
