/**
 * A schema document: every subschema object in it, the base URI each one is read against, and
 * the `$id` resources and anchors that local `$ref`s resolve to. Built once per root schema by
 * an iterative walk that terminates on cyclic JS objects.
 *
 * Dialects: when the root's `$schema` names draft-04, -06 or -07, a schema holding `$ref` is
 * read as that draft reads it, as the reference alone: its sibling keywords are ignored, `$id`
 * included (it does not change the base URI). 2020-12, the default, applies the siblings too.
 * Draft-04 names a resource with `id`, every later draft with `$id`; each reads only its own.
 */
import { ownValue } from '../json/objects.js';
import { ARRAY_SUBSCHEMAS, MAP_SUBSCHEMAS, SINGLE_SUBSCHEMA } from './keywords.js';
import { valueAtPointer } from '../json/pointer.js';

/** A schema in object form; boolean schemas never reach the document. */
export type SchemaObject = Record<string, unknown>;

const DEFAULT_BASE = 'https://schema-coerce.invalid/root';

const LEGACY_DIALECT = /draft-0[4-7]/;
const DRAFT_04 = /draft-04/;

/**
 * True when a `$schema` value names draft-04, -06 or -07, whose `$ref` overrides its siblings.
 *
 * @param dialect - The value of a root schema's `$schema` keyword.
 */
export function isLegacyDialect(dialect: unknown): boolean {
  return typeof dialect === 'string' && LEGACY_DIALECT.test(dialect);
}

/** The index of one root schema. */
export class SchemaDocument {
  /** Every subschema object reached from the root, root first. */
  readonly schemas: SchemaObject[] = [];
  /** The root names a draft whose `$ref` overrides its siblings. */
  private readonly refAlone: boolean;
  /** The keyword that names a resource: `id` under draft-04, `$id` under every later draft. */
  private readonly idKeyword: '$id' | 'id';
  private readonly bases = new Map<SchemaObject, string>();
  private readonly resources = new Map<string, SchemaObject>();
  private readonly anchors = new Map<string, SchemaObject>();
  private readonly refViews = new Map<SchemaObject, SchemaObject>();

  constructor(root: SchemaObject) {
    const dialect = ownValue(root, '$schema');
    this.refAlone = isLegacyDialect(dialect);
    this.idKeyword = typeof dialect === 'string' && DRAFT_04.test(dialect) ? 'id' : '$id';
    this.add(root);
  }

  /**
   * The schema as the dialect reads it: itself, or under draft-04/-06/-07, for a schema holding
   * `$ref`, a stand-in holding only that `$ref` (the same stand-in every time), read against the
   * schema's own base URI.
   */
  view(schema: SchemaObject): SchemaObject {
    if (!this.refAlone) return schema;
    const ref = ownValue(schema, '$ref');
    if (typeof ref !== 'string') return schema;
    let alone = this.refViews.get(schema);
    if (alone === undefined) {
      alone = { $ref: ref };
      this.refViews.set(schema, alone);
      this.refViews.set(alone, alone);
      this.bases.set(alone, this.bases.get(schema) ?? DEFAULT_BASE);
    }
    return alone;
  }

  /** True when `schema` is part of this document. */
  has(schema: SchemaObject): boolean {
    return this.bases.has(schema);
  }

  /**
   * Walks `schema` and its subschemas into the index, reading them against `base`. Objects
   * already indexed are skipped, so shared and cyclic objects are visited once.
   */
  add(schema: SchemaObject, base: string = DEFAULT_BASE): void {
    const stack: [SchemaObject, string][] = [[schema, base]];
    while (stack.length > 0) {
      const [current, outerBase] = stack.pop()!;
      if (this.bases.has(current)) continue;
      const currentBase = this.register(current, outerBase);
      this.schemas.push(current);
      forEachSubschema(current, (sub) => stack.push([sub, currentBase]));
    }
  }

  /**
   * The schema a reference points to, or `undefined` when it is remote, dangling or malformed.
   *
   * @param ref - The reference text (`#`, `#/json/pointer`, `#anchor`, `other.json#…`).
   * @param from - The schema holding the reference; its base URI resolves `ref`.
   */
  resolve(ref: string, from: SchemaObject): unknown {
    const url = parseUrl(ref, this.bases.get(from) ?? DEFAULT_BASE);
    if (url === undefined) return undefined;
    const fragment = safeDecode(url.hash.slice(1));
    url.hash = '';
    const resource = this.resources.get(url.href);
    if (resource === undefined || fragment === undefined) return undefined;
    if (fragment === '') return resource;
    if (fragment[0] !== '/') return this.anchors.get(url.href + '#' + fragment);
    return valueAtPointer(resource, fragment);
  }

  private register(schema: SchemaObject, outerBase: string): string {
    let base = outerBase;
    if (this.schemas.length === 0) this.resources.set(base, schema);
    if (this.refAlone && typeof ownValue(schema, '$ref') === 'string') {
      this.bases.set(schema, base);
      return base;
    }
    const id = ownValue(schema, this.idKeyword);
    if (typeof id === 'string') {
      const url = parseUrl(id, outerBase);
      if (url !== undefined) {
        const fragment = url.hash.slice(1);
        url.hash = '';
        if (id[0] === '#') {
          this.anchors.set(url.href + '#' + fragment, schema);
        } else {
          base = url.href;
          this.resources.set(base, schema);
          if (fragment !== '' && fragment[0] !== '/') this.anchors.set(base + '#' + fragment, schema);
        }
      }
    }
    for (const keyword of ['$anchor', '$dynamicAnchor']) {
      const anchor = ownValue(schema, keyword);
      if (typeof anchor === 'string') this.anchors.set(base + '#' + anchor, schema);
    }
    this.bases.set(schema, base);
    return base;
  }
}

/** Calls `visit` with every subschema object a known keyword of `schema` holds. */
function forEachSubschema(schema: SchemaObject, visit: (sub: SchemaObject) => void): void {
  for (const keyword of SINGLE_SUBSCHEMA) {
    const sub = ownValue(schema, keyword);
    if (isSchemaObject(sub)) visit(sub);
  }
  for (const keyword of ARRAY_SUBSCHEMAS) {
    const subs = ownValue(schema, keyword);
    if (Array.isArray(subs)) for (const sub of subs) if (isSchemaObject(sub)) visit(sub);
  }
  for (const keyword of MAP_SUBSCHEMAS) {
    const map = ownValue(schema, keyword);
    if (!isSchemaObject(map)) continue;
    for (const name of Object.keys(map)) {
      const sub = map[name];
      if (isSchemaObject(sub)) visit(sub);
    }
  }
}

/** A schema in object form (not an array, not null). */
export function isSchemaObject(value: unknown): value is SchemaObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function parseUrl(ref: string, base: string): URL | undefined {
  try {
    return new URL(ref, base);
  } catch {
    return undefined;
  }
}

function safeDecode(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}
