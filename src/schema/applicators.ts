/**
 * Which subschemas apply: for one schema object of a document, the schemas that apply to the
 * same value (combinator branches, `then`/`else`, dependent schemas, resolved refs: "in place")
 * and those that apply to its child values (properties, patterns, additional properties, items:
 * "positional"). Memoised per schema object; never follows `not` or `if`.
 */
import { hasOwn, ownValue } from '../json/objects.js';
import { isSchemaObject, type SchemaDocument, type SchemaObject } from './document.js';
import { IN_PLACE_ARRAY, IN_PLACE_MAP, IN_PLACE_SINGLE, POSITIONAL, POSITIONAL_MAP, REF_KEYWORDS } from './keywords.js';
import { compilePattern, type Pattern } from './patterns.js';

/**
 * What applies to a property whose key a pattern cannot be checked against (see `Pattern`): an
 * empty schema standing for "unknown", so the value is left as it is and the key is never called
 * undeclared nor read as a path.
 */
export const UNCHECKED: SchemaObject = Object.freeze({});

/** The applicator lookups of one schema document. */
export class Applicators {
  private readonly doc: SchemaDocument;
  private readonly refs = new Map<SchemaObject, SchemaObject[]>();
  private readonly closures = new Map<SchemaObject, SchemaObject[]>();
  private readonly compiledPatterns = new Map<SchemaObject, [Pattern, unknown][]>();

  constructor(doc: SchemaDocument) {
    this.doc = doc;
  }

  /**
   * The subschemas of `schema` that apply to its property `key`: the property's own, every
   * matching pattern's, or else `additionalProperties`; `[UNCHECKED]` alone when a pattern's
   * match against `key` cannot be checked.
   */
  propertySchemas(schema: SchemaObject, key: string): unknown[] {
    const out: unknown[] = [];
    const properties = ownValue(schema, 'properties');
    if (isSchemaObject(properties) && hasOwn(properties, key)) out.push(properties[key]);
    for (const [pattern, sub] of this.patterns(schema)) {
      const matched = pattern.test(key);
      if (matched === undefined) return [UNCHECKED];
      if (matched) out.push(sub);
    }
    if (out.length === 0) out.push(ownValue(schema, 'additionalProperties'));
    return out;
  }

  /** Compiled `patternProperties` of a schema; invalid patterns (valid in no syntax) are left out. */
  patterns(schema: SchemaObject): [Pattern, unknown][] {
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

  /** The resolved targets of `$ref`, `$dynamicRef` and `$recursiveRef`, indexed into the document. */
  refTargets(schema: SchemaObject): SchemaObject[] {
    let targets = this.refs.get(schema);
    if (targets === undefined) {
      targets = [];
      for (const keyword of REF_KEYWORDS) {
        const ref = ownValue(schema, keyword);
        if (typeof ref !== 'string') continue;
        const target = this.doc.resolve(ref, schema);
        if (!isSchemaObject(target)) continue;
        if (!this.doc.has(target)) this.doc.add(target);
        targets.push(this.doc.view(target));
      }
      this.refs.set(schema, targets);
    }
    return targets;
  }

  /** Schemas that apply to the same value as `schema`: itself, branches, then/else, refs. */
  closure(schema: SchemaObject): SchemaObject[] {
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
  inPlace(schema: SchemaObject): SchemaObject[] {
    const out: SchemaObject[] = [];
    for (const keyword of IN_PLACE_ARRAY) {
      const branches = ownValue(schema, keyword);
      if (Array.isArray(branches)) for (const branch of branches) if (isSchemaObject(branch)) out.push(this.doc.view(branch));
    }
    for (const keyword of IN_PLACE_SINGLE) {
      const sub = ownValue(schema, keyword);
      if (isSchemaObject(sub)) out.push(this.doc.view(sub));
    }
    this.mapValues(schema, IN_PLACE_MAP, out);
    out.push(...this.refTargets(schema));
    return out;
  }

  /** Subschemas that apply to child values: properties, patterns, additional, items. */
  positional(schema: SchemaObject): SchemaObject[] {
    const out: SchemaObject[] = [];
    this.mapValues(schema, POSITIONAL_MAP, out);
    for (const keyword of POSITIONAL) {
      const sub = ownValue(schema, keyword);
      if (isSchemaObject(sub)) out.push(this.doc.view(sub));
      else if (Array.isArray(sub)) for (const item of sub) if (isSchemaObject(item)) out.push(this.doc.view(item));
    }
    return out;
  }

  /** Adds to `out` the subschema objects of `schema`'s map-valued `keywords`, as the dialect reads them. */
  private mapValues(schema: SchemaObject, keywords: readonly string[], out: SchemaObject[]): void {
    for (const keyword of keywords) {
      const map = ownValue(schema, keyword);
      if (!isSchemaObject(map)) continue;
      for (const name of Object.keys(map)) {
        const sub = map[name];
        if (isSchemaObject(sub)) out.push(this.doc.view(sub));
      }
    }
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
}

/** The subschema an array element at `index` is read against in `schema`, if any. */
export function itemSchema(schema: SchemaObject, index: number): unknown {
  const prefix = ownValue(schema, 'prefixItems');
  const items = ownValue(schema, 'items');
  if (Array.isArray(prefix)) return index < prefix.length ? prefix[index] : Array.isArray(items) ? undefined : items;
  if (Array.isArray(items)) return index < items.length ? items[index] : ownValue(schema, 'additionalItems');
  return items;
}
