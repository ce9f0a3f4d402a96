/**
 * Accepted types: which JSON types a schema lets through, as a mask of `TYPE_BITS`, at the value
 * itself, at one of its properties, or at one of its items. Lenient mode converts a value only
 * into a type some applicable schema accepts, so this analysis errs towards "anything": a cycle
 * or nesting past `MAX_ACCEPT_DEPTH` answers `ALL_TYPES`, which only makes lenient mode more
 * careful.
 */
import { hasOwn, ownValue } from '../json/objects.js';
import { flatCopy } from '../json/strings.js';
import { isSchemaObject, type SchemaDocument, type SchemaObject } from './document.js';
import { itemSchema, type Applicators } from './applicators.js';
import { ALL_TYPES, TYPE_BITS, typeBitsOf, typeMaskOf } from './keywords.js';

/** Recursion bound for the analysis of nested combinators. */
const MAX_ACCEPT_DEPTH = 64;
/**
 * Bound on the memoised slots of one schema document: arguments keyed by ids or paths add one per
 * distinct key. A full memo is dropped whole between two queries, never during one (the answers
 * of one query lean on each other), so each query still works out each slot once.
 */
const MAX_MEMO_SLOTS = 4096;

/** The accepted-types analysis of one schema document, memoised per schema and slot. */
export class AcceptedTypes {
  private readonly doc: SchemaDocument;
  private readonly applicators: Applicators;
  private readonly bySchema = new Map<SchemaObject, Map<string, number>>();
  /** How many slots are memoised, and how many slot computations are under way. */
  private memoised = 0;
  private active = 0;

  constructor(doc: SchemaDocument, applicators: Applicators) {
    this.doc = doc;
    this.applicators = applicators;
  }

  /** The types a schema lets through: `type`, narrowed by `enum`/`const`, combinators and refs. */
  of(schema: unknown, depth = 0): number {
    if (schema === false) return 0;
    if (!isSchemaObject(schema)) return ALL_TYPES;
    return this.slotAccept(this.doc.view(schema), '', depth, undefined, ownTypes, (sub, d) => this.of(sub, d));
  }

  /**
   * The types the value at property `key` may have, as far as `schema` says: its own property,
   * pattern or additional schema, narrowed by every `allOf` branch and ref, and by the union over
   * `anyOf`/`oneOf` branches (a branch that does not mention the key allows anything; a branch
   * that cannot be an object allows nothing, since it cannot be the one that matches).
   */
  atProperty(schema: SchemaObject, key: string, depth = 0): number {
    const own = (s: SchemaObject) => this.applicators.propertySchemas(s, key).reduce((mask: number, sub) => mask & this.of(sub), ALL_TYPES);
    return this.slotAccept(schema, 'k' + key, depth, TYPE_BITS.object, own, (sub, d) => this.atProperty(sub, key, d));
  }

  /** The types the array element at `index` may have, as far as `schema` says (see `atProperty`). */
  atItem(schema: SchemaObject, index: number, depth = 0): number {
    // Indices past every tuple that applies here (branches and refs included) share one answer.
    const slot = 'i' + Math.min(index, this.applicators.tupleLength(this.applicators.closure(schema)));
    return this.slotAccept(schema, slot, depth, TYPE_BITS.array, (s) => this.of(itemSchema(s, index)), (sub, d) => this.atItem(sub, index, d));
  }

  /**
   * What `schema` lets through at one slot (`''` the value itself, `k…` a property, `i…` an
   * item): `own`, narrowed by every `allOf` branch and ref, and by the union over `anyOf`/`oneOf`
   * branches. For a property or an item, a schema whose value cannot be a `container` lets
   * nothing through. Memoised per schema and slot.
   */
  private slotAccept(
    schema: SchemaObject,
    slot: string,
    depth: number,
    container: number | undefined,
    own: (schema: SchemaObject) => number,
    recurse: (schema: SchemaObject, depth: number) => number,
  ): number {
    if (depth > MAX_ACCEPT_DEPTH) return ALL_TYPES;
    if (this.active === 0 && this.memoised >= MAX_MEMO_SLOTS) {
      this.bySchema.clear();
      this.memoised = 0;
    }
    let bySlot = this.bySchema.get(schema);
    if (bySlot === undefined) this.bySchema.set(schema, (bySlot = new Map()));
    const known = bySlot.get(slot);
    if (known !== undefined) return known;
    // A copy of the slot: a key read from arguments may be a slice of a larger text, kept whole by it.
    const memo = flatCopy(slot);
    // The placeholder answers a cycle back to this slot while it is worked out.
    bySlot.set(memo, ALL_TYPES);
    this.memoised++;
    this.active++;
    try {
      const branch = (sub: unknown, d: number) => (isSchemaObject(sub) ? recurse(this.doc.view(sub), d) : sub === false ? 0 : ALL_TYPES);
      let mask = container !== undefined && (this.of(schema) & container) === 0 ? 0 : own(schema);
      const allOf = ownValue(schema, 'allOf');
      if (Array.isArray(allOf)) for (const sub of allOf) mask &= branch(sub, depth + 1);
      for (const keyword of ['anyOf', 'oneOf']) {
        const branches = ownValue(schema, keyword);
        if (!Array.isArray(branches) || branches.length === 0) continue;
        let union = 0;
        // Once some branch lets everything through, the rest cannot add to the union: a wide
        // `anyOf` costs as many branches as it takes to find one that says nothing of the slot.
        for (let i = 0; i < branches.length && union !== ALL_TYPES; i++) union |= branch(branches[i], depth + 1);
        mask &= union;
      }
      for (const target of this.applicators.refTargets(schema)) mask &= recurse(target, depth + 1);
      bySlot.set(memo, mask);
      return mask;
    } finally {
      this.active--;
    }
  }
}

/** The types a schema's own `type` (with OpenAPI's `nullable: true`, null too), `enum` and `const` let through. */
function ownTypes(schema: SchemaObject): number {
  let mask = typeMaskOf(ownValue(schema, 'type')) || ALL_TYPES;
  if (ownValue(schema, 'nullable') === true) mask |= TYPE_BITS.null;
  if (hasOwn(schema, 'const')) mask &= typeBitsOf(schema['const']);
  const enumValues = ownValue(schema, 'enum');
  if (Array.isArray(enumValues)) mask &= enumValues.reduce((m: number, v) => m | typeBitsOf(v), 0);
  return mask;
}
