/**
 * `renderSchemaForModel` and `normalizeSchemaForModel` asked for each part of their answer: the
 * budget's exact edge, the names listed in a cut note (all, the first few, none), the `$ref` a
 * cycle below the root becomes, the depth at which a note replaces a subschema, what is kept of
 * data values (bigints, lossless numbers, shared references) and what is left out, and the cut
 * next to the first and last high surrogates.
 */
import { describe, expect, test } from 'vitest';
import { LosslessNumber } from 'lossless-json';
import { normalizeSchemaForModel, renderSchemaForModel } from '../src/render.js';

/** Eight parameters of 38 characters each (40 with the `, ` that joins them), long descriptions. */
const NAMES = Array.from({ length: 8 }, (_, i) => `parameter_${i}_`.padEnd(38, 'x'));
const WIDE = { type: 'object', properties: Object.fromEntries(NAMES.map((name) => [name, { type: 'string', description: 'd'.repeat(100) }])) };

describe('the budget', () => {
  test('a text exactly as long as the budget is given whole', () => {
    const whole = renderSchemaForModel(WIDE, { maxChars: 100_000 });
    expect(renderSchemaForModel(WIDE, { maxChars: whole.length })).toBe(whole);
    expect(renderSchemaForModel(WIDE, { maxChars: whole.length - 1 })).not.toBe(whole);
  });

  test('a cut note lists as many names as fit in a third of the budget, the last one exactly at the edge', () => {
    // A third of 600 is 200: five names of 40 characters fill it exactly; 599 leaves room for four.
    const five = renderSchemaForModel(WIDE, { maxChars: 600 });
    expect(five).toContain(` The first 5 of 8 top-level parameters: ${NAMES.slice(0, 5).join(', ')}.]`);
    expect(five.length).toBeLessThanOrEqual(600);
    expect(renderSchemaForModel(WIDE, { maxChars: 599 })).toContain(` The first 4 of 8 top-level parameters: ${NAMES.slice(0, 4).join(', ')}.]`);
  });

  test('a cut note lists every name when all fit, the required ones marked', () => {
    const schema = { ...WIDE, properties: { id: { type: 'integer' }, q: { type: 'string', description: 'd'.repeat(400) } }, required: ['id'] };
    expect(renderSchemaForModel(schema, { maxChars: 350 })).toMatch(/ All 2 top-level parameters: id \(required\), q\.\]$/);
  });

  test('a cut note over a schema that is no object names no parameter', () => {
    expect(renderSchemaForModel(['d'.repeat(400)], { maxChars: 300 })).toMatch(/the rest is not available here\. Use only the property names shown above\.\]$/);
  });

  test('a cut note over a schema without parameter names says to use only the names shown', () => {
    const schema = { type: 'array', items: { type: 'string', description: 'd'.repeat(400) } };
    expect(renderSchemaForModel(schema, { maxChars: 300 })).toMatch(/the rest is not available here\. Use only the property names shown above\.\]$/);
  });

  test('a schema whose getters throw is shown as an empty object with no names, never a throw', () => {
    const schema = { type: 'object', properties: { a: {} }, get required(): never { throw new Error('boom'); } };
    expect(normalizeSchemaForModel(schema)).toStrictEqual({});
    expect(renderSchemaForModel(schema, { maxChars: 150 })).toBe(
      'Parameter schema: use these EXACT property names; do not rename or guess them.\n[Schema not shown: its 2 characters do not fit in the 150 allowed.]',
    );
  });
});

describe('cycles and depth', () => {
  test('a cycle below the root becomes a $ref to that ancestor, its tokens escaped', () => {
    const inner: Record<string, unknown> = { type: 'object', properties: {} };
    (inner['properties'] as Record<string, unknown>)['again'] = inner;
    const list: Record<string, unknown> = { type: 'array' };
    list['items'] = { properties: { up: list } };
    const schema = { properties: { 'a/b~c': inner, list }, anyOf: [inner] };
    expect(normalizeSchemaForModel(schema)).toStrictEqual({
      properties: {
        'a/b~c': { type: 'object', properties: { again: { $ref: '#/properties/a~1b~0c' } } },
        list: { type: 'array', items: { properties: { up: { $ref: '#/properties/list' } } } },
      },
      anyOf: [{ type: 'object', properties: { again: { $ref: '#/anyOf/0' } } }],
    });
  });

  test('a subschema 64 levels down is shown, one 65 levels down is replaced by the note', () => {
    let schema: Record<string, unknown> = { type: 'integer' };
    for (let i = 0; i < 70; i++) schema = { items: schema };
    let node = normalizeSchemaForModel(schema) as Record<string, unknown>;
    for (let depth = 0; depth < 64; depth++) node = node['items'] as Record<string, unknown>;
    expect(node).toStrictEqual({ items: { $comment: 'nested too deep to show' } });
  });
});

describe('data values', () => {
  test('bigints and lossless numbers are kept as they are', () => {
    const big = 12345678901234567890n;
    const lossless = new LosslessNumber('98765432109876543210');
    const copy = normalizeSchemaForModel({ type: 'integer', default: big, examples: [lossless] }) as Record<string, unknown>;
    expect(copy['default']).toBe(big);
    expect((copy['examples'] as unknown[])[0]).toBe(lossless);
    expect(renderSchemaForModel({ default: big, examples: [lossless] })).toContain('{"default":12345678901234567890,"examples":[98765432109876543210]}');
  });

  test('values JSON cannot hold are left out, their keys too, and a Map or a Date is no object to show', () => {
    const copy = normalizeSchemaForModel({ type: 'string', default: () => 1, const: new Map([['a', 1]]), examples: [{ at: new Date(0), fn: Symbol('s'), keep: 1 }] });
    expect(copy).toStrictEqual({ type: 'string', examples: [{ keep: 1 }] });
    expect(Object.keys((copy as { examples: [object] }).examples[0])).toEqual(['keep']);
  });

  test('a value shared by two places in the data is shown in both', () => {
    const shared = { unit: 'cm' };
    expect(normalizeSchemaForModel({ default: { width: shared, height: shared } })).toStrictEqual({ default: { width: { unit: 'cm' }, height: { unit: 'cm' } } });
  });

  test('a keyword named $schema inside data is data, kept; inside a subschema it is dropped', () => {
    expect(normalizeSchemaForModel({ default: { $schema: 'x', n: 1 }, items: { $schema: 'y', type: 'string' }, not: true })).toStrictEqual({
      default: { $schema: 'x', n: 1 },
      items: { type: 'string' },
      not: true,
    });
  });
});

describe('the cut and surrogate pairs', () => {
  test('next to the first and the last high surrogate, a cut keeps every pair whole and as much as fits', () => {
    // One ASCII letter between pairs, so a pair starts at every offset; over 99 characters
    // shown of fewer than 1,000, the note's two numbers have as many digits and leave no slack.
    for (const char of ['\u{10000}', '\u{10FFFF}', '\u{10400}']) {
      const schema = { description: `a${char}`.repeat(300) };
      for (let maxChars = 380; maxChars < 420; maxChars++) {
        const text = renderSchemaForModel(schema, { maxChars });
        expect(text.length).toBeLessThanOrEqual(maxChars);
        expect(text).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
        const shown = Number(/Schema truncated: (\d+) of/.exec(text)?.[1]);
        const next = renderSchemaForModel(schema, { maxChars: maxChars + 1 });
        const shownNext = Number(/Schema truncated: (\d+) of/.exec(next)?.[1]);
        // One more character of budget shows at most two more (a whole pair), never fewer.
        expect(shownNext - shown).toBeGreaterThanOrEqual(0);
        expect(shownNext - shown).toBeLessThanOrEqual(2);
      }
    }
  });
});
