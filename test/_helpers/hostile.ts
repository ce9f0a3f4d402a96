/**
 * Recipes for hostile inputs: each builds its input (too large or too strange to store), runs it
 * through the library, and returns a short summary the fixture table states as its expectation.
 * Run one per child process by `hostile-child.ts`, so a hang can be killed and memory measured.
 */
import { ArgsParseError, LosslessNumber, coerceArgs, coerceArgsJson, parseArgs, stringifyArgs } from '../../src/index.js';
import { renderSchemaForModel } from '../../src/render.js';
import { findUndeclaredKeys, validateArgs } from '../../src/validate.js';
import { hostileOperations, hostileWorkloads } from '../../bench/hostile.js';

type Params = Record<string, unknown>;
const INT = { type: 'integer' };
const ANY_DEPTH = { anyOf: [INT, { type: 'array', items: { $ref: '#' } }, { type: 'object', additionalProperties: { $ref: '#' } }] };

function parseError(run: () => unknown): string {
  try {
    run();
    return 'no error';
  } catch (error) {
    return error instanceof ArgsParseError ? `ArgsParseError: ${error.reason}` : `other error: ${String(error)}`;
  }
}

function nestedObjects(depth: number, leaf: unknown): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  let cursor = root;
  for (let i = 0; i < depth; i++) cursor = cursor['c'] = {};
  cursor['n'] = leaf;
  return root;
}

export const RECIPES: Record<string, (params: Params) => unknown> = {
  /** Text nested `depth` deep, through the text path and the lossless parser. */
  'deep-text': ({ depth, open, close }) => {
    const text = String(open).repeat(Number(depth)) + '7.0' + String(close).repeat(Number(depth));
    const out = coerceArgsJson(text, ANY_DEPTH);
    const parsed = stringifyArgs(parseArgs(text)) === text;
    return { rewritten: out.slice(Number(depth) * String(open).length - 2, Number(depth) * String(open).length + 4), parsed };
  },
  /** JS objects nested `depth` deep, through the object walk. */
  'deep-objects': ({ depth }) => {
    const out = coerceArgs(nestedObjects(Number(depth), new LosslessNumber('7.0')), { properties: { n: INT, c: { $ref: '#' } } });
    let cursor = out.value as Record<string, unknown>;
    for (let i = 0; i < Number(depth); i++) cursor = cursor['c'] as Record<string, unknown>;
    return { leaf: stringifyArgs(cursor['n']), changes: out.changes.length, written: stringifyArgs(out.value).length };
  },
  /** A schema object that contains itself, in properties, items and combinators. */
  'cyclic-schema': () => {
    const schema: Record<string, unknown> = { type: 'object', properties: { n: INT } };
    (schema['properties'] as Record<string, unknown>)['self'] = schema;
    schema['items'] = schema;
    schema['anyOf'] = [schema, { allOf: [schema] }];
    const args = parseArgs('{"n":1.0,"self":{"n":2.0,"self":{"n":3.0}}}');
    return {
      coerced: stringifyArgs(coerceArgs(args, schema, { lenient: true }).value),
      undeclared: findUndeclaredKeys(args, schema).length,
      rendered: renderSchemaForModel(schema).includes('"$ref":"#"'),
    };
  },
  /** `$ref` cycles: to the root, A → B → A, and a ref to itself. */
  'ref-cycles': () => {
    const schemas = [
      { $ref: '#' },
      { $defs: { A: { $ref: '#/$defs/B' }, B: { $ref: '#/$defs/A', properties: { n: INT } } }, $ref: '#/$defs/A' },
      { $defs: { S: { $ref: '#/$defs/S' } }, properties: { n: { $ref: '#/$defs/S' } } },
    ];
    return schemas.map((schema) => coerceArgsJson('{"n":1.0}', schema));
  },
  /** `levels` nested anyOf, each of `width` $refs to the next level: width^levels paths if expanded. */
  'combinator-blowup': ({ levels, width }) => {
    const defs: Record<string, unknown> = { [`L${Number(levels)}`]: { type: 'object', properties: { n: INT } } };
    for (let level = Number(levels) - 1; level >= 0; level--) {
      defs[`L${level}`] = { anyOf: Array.from({ length: Number(width) }, (_, i) => ({ $ref: `#/$defs/L${level + 1}`, properties: { [`k${i}`]: { $ref: '#' } } })) };
    }
    const schema = { $defs: defs, $ref: '#/$defs/L0' };
    return { coerced: coerceArgsJson('{"n":1.0,"k0":{"n":2.0}}', schema), lenient: coerceArgsJson('{"n":"3"}', schema, { lenient: true }) };
  },
  /** Exponents that would expand into a billion digits, and literals of ten thousand digits. */
  'huge-literals': () => {
    const nines = '9'.repeat(10_000);
    const schema = { properties: { a: INT, b: INT, c: INT, d: { type: 'number' } } };
    const text = `{"a":1e1000000000,"b":${nines}.0,"c":-${nines}e0,"d":1e-1000000000}`;
    const out = coerceArgsJson(text, schema, { integerRange: 'unbounded' });
    const lenient = coerceArgsJson(`{"a":"1e1000000000","b":"${nines}"}`, schema, { lenient: true, integerRange: 'unbounded' });
    return { length: out.length, a: out.includes('"a":1e1000000000'), b: out.includes(`"b":${nines},`), c: out.includes(`"c":-${nines},`), lenientB: lenient.includes(`"b":${nines}`), lenientA: lenient.includes('"a":"1e1000000000"') };
  },
  /** A payload of `megabytes` MB through the text path and the object path. */
  'big-payload': ({ megabytes }) => {
    const item = '{"id":1.0,"name":"' + 'x'.repeat(200) + '","tags":["a","b"],"score":0.5},';
    const count = Math.ceil((Number(megabytes) * 1e6) / item.length);
    const text = `{"items":[${item.repeat(count).slice(0, -1)}]}`;
    const schema = { properties: { items: { items: { properties: { id: INT } } } } };
    const out = coerceArgsJson(text, schema);
    const object = coerceArgs(parseArgs(text), schema);
    return { shorter: text.length - out.length === 2 * count, changes: object.changes.length === count };
  },
  /** Keys named __proto__, constructor and prototype, in arguments and in schemas. */
  'prototype-keys': () => {
    const schema = JSON.parse('{"properties":{"__proto__":{"properties":{"polluted":{"type":"integer"}}},"constructor":{"properties":{"prototype":{"properties":{"polluted":{"type":"integer"}}}}}},"additionalProperties":{"type":"integer"}}') as unknown;
    const text = '{"__proto__":{"polluted":1.0},"constructor":{"prototype":{"polluted":2.0}},"prototype":3.0}';
    const out = coerceArgs(parseArgs(text), schema, { lenient: true });
    validateArgs(out.value, schema);
    findUndeclaredKeys(out.value, schema);
    const polluted = Object.prototype.hasOwnProperty.call(Object.prototype, 'polluted') || ({} as Record<string, unknown>)['polluted'] !== undefined;
    return { text: coerceArgsJson(text, schema), object: stringifyArgs(out.value), polluted, prototypeIntact: Object.getPrototypeOf(out.value) === Object.prototype };
  },
  /** Lone surrogates, raw and escaped, in keys and values. */
  'lone-surrogates': () => {
    const text = '{"\\ud800":1.0,"s":"\ud800\\udc00x\udfff","n":2.0}';
    return { text: coerceArgsJson(text, { additionalProperties: INT }), object: stringifyArgs(parseArgs(text)) };
  },
  /** Duplicate keys: refused when the values differ, collapsed when they are the same. */
  'duplicate-keys': () => ({
    differing: parseError(() => coerceArgsJson('{"a":1.0,"b":2,"a":3.0}', { properties: { a: INT } })),
    same: coerceArgsJson('{"a":1.0,"a":1.0}', { properties: { a: INT } }),
    nested: parseError(() => parseArgs('{"o":{"x":1},"o":{"x":2}}')),
  }),
  /** Values JSON cannot hold, in the arguments of the object path. */
  'non-json-values': () => {
    class Point { x = new LosslessNumber('1.0'); }
    const args = { u: undefined, f: () => 1, d: new Date(0), m: new Map([['n', 1]]), p: new Point(), s: Symbol.for('s'), b: 5n };
    const result = coerceArgs(args, { additionalProperties: INT }, { lenient: true });
    return { same: result.value === args, changes: result.changes.length, refusals: result.refusals.length };
  },
  /**
   * One workload of bench/hostile.ts (about 10 KB of arguments against a hostile schema), through
   * every operation the bench times, the plan compiled afresh: a summary of each answer.
   */
  'hostile-workload': ({ index }) => {
    const workload = hostileWorkloads()[Number(index)]!;
    return Object.fromEntries(hostileOperations(workload).map(([task, run]) => [task, summary(run())]));
  },
  /** patternProperties whose pattern is invalid or backtracks catastrophically. */
  'hostile-patterns': () => {
    const schema = { patternProperties: { '([': INT, '^(a+)+$': INT, '(x|x)*y': INT, '^(\\w*)*$': INT }, additionalProperties: { type: 'number' } };
    const key = 'a'.repeat(50) + '!';
    return { text: coerceArgsJson(`{"${key}":1.0,"(x":2.0}`, schema), undeclared: findUndeclaredKeys({ [key]: 1 }, schema).length };
  },
};

/** A short, exact account of an answer: its size and its counts, never the whole. */
function summary(answer: unknown): unknown {
  if (typeof answer === 'string') return { length: answer.length, changed: (answer.match(/:1(?=[,}])/g) ?? []).length };
  if (Array.isArray(answer)) return { undeclared: answer.length, suggested: answer.filter((key: { suggestion?: string }) => key.suggestion !== undefined).length, bySpelling: answer.filter((key: { bySpelling?: true }) => key.bySpelling === true).length };
  const result = answer as { ok?: boolean; changes?: unknown[]; refusals?: unknown[]; conflicts?: unknown[]; message?: string; undeclared?: unknown[] };
  return {
    ok: result.ok,
    changes: result.changes?.length,
    refusals: result.refusals?.length,
    conflicts: result.conflicts?.length,
    undeclared: result.undeclared?.length,
    message: result.message?.length,
  };
}
