/**
 * The property index of one plan node: which of its schemas can say anything about a key, so
 * that a key is looked up in the few schemas that name it, match it by pattern or give extra
 * keys a schema, never by scanning every schema of a wide `anyOf` (2,000 object branches cost
 * one lookup per key, not 2,000). Built once per node, in time linear in the declared names.
 */
import { ownValue } from '../json/objects.js';
import { UNCHECKED, type Applicators } from './applicators.js';
import { isSchemaObject, type SchemaObject } from './document.js';

/** The declared names of a node, and which of its schemas to ask about a key. */
export class PropertyIndex {
  /** Declared property names, each once, in schema order. */
  readonly declared: readonly string[];
  /** The same names, for lookups. */
  readonly names: ReadonlySet<string>;
  /** Some schema sets `additionalProperties` or `unevaluatedProperties` to `true` or a schema. */
  readonly open: boolean;
  private readonly members: readonly SchemaObject[];
  private readonly applicators: Applicators;
  /** Per name, the positions of the schemas that declare it, in order. */
  private readonly byName = new Map<string, number[]>();
  /** Positions of the schemas that have patterns or an `additionalProperties` schema: asked about every key. */
  private readonly always: number[] = [];

  constructor(members: readonly SchemaObject[], applicators: Applicators) {
    this.members = members;
    this.applicators = applicators;
    const declared: string[] = [];
    let open = false;
    members.forEach((member, position) => {
      const properties = ownValue(member, 'properties');
      if (isSchemaObject(properties)) {
        for (const name of Object.keys(properties)) {
          const holders = this.byName.get(name);
          if (holders === undefined) {
            this.byName.set(name, [position]);
            declared.push(name);
          } else holders.push(position);
        }
      }
      for (const keyword of ['additionalProperties', 'unevaluatedProperties']) {
        const extra = ownValue(member, keyword);
        if (extra === true || isSchemaObject(extra)) open = true;
      }
      if (applicators.patterns(member).length > 0 || isSchemaObject(ownValue(member, 'additionalProperties'))) this.always.push(position);
    });
    this.declared = declared;
    this.names = new Set(declared);
    this.open = open;
  }

  /**
   * The subschemas that apply to property `key`, in schema order, as `propertySchemas` of every
   * schema would give them (leaving out only values that are no schema object, which apply
   * nothing); `[UNCHECKED]` when some pattern's match against `key` cannot be checked.
   */
  schemasFor(key: string): unknown[] {
    const named = this.byName.get(key);
    const positions = named === undefined ? this.always : mergeSorted(named, this.always);
    const out: unknown[] = [];
    for (const position of positions) {
      const schemas = this.applicators.propertySchemas(this.members[position]!, key);
      if (schemas[0] === UNCHECKED) return [UNCHECKED];
      out.push(...schemas);
    }
    return out;
  }

  /**
   * True when `key` is declared here or matches a pattern; also when a pattern's match cannot
   * be checked (the key cannot be called undeclared).
   */
  declares(key: string): boolean {
    if (this.names.has(key)) return true;
    for (const position of this.always) {
      for (const [pattern] of this.applicators.patterns(this.members[position]!)) if (pattern.test(key) !== false) return true;
    }
    return false;
  }
}

/** The union of two ascending lists of positions, ascending, each once. */
function mergeSorted(a: readonly number[], b: readonly number[]): number[] {
  const out: number[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    const next = j >= b.length || (i < a.length && a[i]! <= b[j]!) ? a[i++]! : b[j++]!;
    if (out[out.length - 1] !== next) out.push(next);
  }
  return out;
}
