/**
 * Work marking: which schemas have, at or below them, a position some pass must look at, so
 * that every walk can skip an idle subtree of the arguments whole. "Work" is one of two bits:
 * `WORK_INTEGER`, an integer position (integer restoration), and `WORK_LENIENT`, a typed
 * position (`type`, `enum` or `const`: lenient conversion).
 */
import { hasOwn, ownValue } from '../json/objects.js';
import type { Applicators } from './applicators.js';
import type { SchemaDocument, SchemaObject } from './document.js';
import { declaresInteger, typeMaskOf } from './keywords.js';

/** Work bit: an integer position is at or below. */
export const WORK_INTEGER = 1;
/** Work bit: a typed position (`type`, `enum`, `const`) is at or below. */
export const WORK_LENIENT = 2;

/**
 * The work bits of every schema of a document that has any, by one pass backwards over the
 * in-place and positional edges from the schemas that carry a bit themselves.
 *
 * @param doc - The document; resolving its refs may index more schemas, and those are marked too.
 * @param applicators - The document's applicator lookups.
 */
export function markWork(doc: SchemaDocument, applicators: Applicators): Map<SchemaObject, number> {
  const marks = new Map<SchemaObject, number>();
  const parents = new Map<SchemaObject, SchemaObject[]>();
  const schemas: SchemaObject[] = [];
  for (let i = 0; i < doc.schemas.length; i++) {
    const schema = doc.view(doc.schemas[i]!);
    schemas.push(schema);
    for (const next of [...applicators.inPlace(schema), ...applicators.positional(schema)]) {
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
    for (const seed of seeds) marks.set(seed, (marks.get(seed) ?? 0) | bit);
    while (queue.length > 0) {
      for (const parent of parents.get(queue.pop()!) ?? []) {
        const mark = marks.get(parent) ?? 0;
        if ((mark & bit) === 0) {
          marks.set(parent, mark | bit);
          queue.push(parent);
        }
      }
    }
  }
  return marks;
}

function isTyped(schema: SchemaObject): boolean {
  return typeMaskOf(ownValue(schema, 'type')) !== 0 || hasOwn(schema, 'enum') || hasOwn(schema, 'const');
}
