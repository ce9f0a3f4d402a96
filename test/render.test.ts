import { describe, expect, test } from 'vitest';
import { normalizeSchemaForModel, renderSchemaForModel, type RenderOptions } from '../src/render.js';
import { deepFreeze, loadFixtures } from './_helpers/fixtures.js';

interface NormalizeRow { readonly name: string; readonly schema: unknown; readonly expected: unknown }
interface RenderRow { readonly name: string; readonly schema: unknown; readonly options?: RenderOptions; readonly expected: string }

describe.each(loadFixtures<NormalizeRow>('render').filter(({ file }) => file.endsWith('normalize.json')))('$file', ({ cases }) => {
  test.each(cases)('$name', ({ schema, expected }) => {
    expect(normalizeSchemaForModel(deepFreeze(schema))).toEqual(expected);
  });
});

describe.each(loadFixtures<RenderRow>('render').filter(({ file }) => file.endsWith('render.json')))('$file', ({ cases }) => {
  test.each(cases)('$name', ({ schema, options, expected }) => {
    const text = renderSchemaForModel(deepFreeze(schema), options);
    expect(text).toBe(expected);
    if (options?.maxChars !== undefined) expect(text.length).toBeLessThanOrEqual(options.maxChars);
  });
});

describe('rendering hostile schemas', () => {
  test('a cyclic JS object becomes a $ref to the ancestor it repeats', () => {
    const node: Record<string, unknown> = { type: 'object', properties: {} };
    (node['properties'] as Record<string, unknown>)['next'] = node;
    node['items'] = { anyOf: [node] };
    expect(normalizeSchemaForModel(node)).toEqual({
      type: 'object',
      properties: { next: { $ref: '#' } },
      items: { anyOf: [{ $ref: '#' }] },
    });
    expect(renderSchemaForModel(node)).toContain('{"type":"object","properties":{"next":{"$ref":"#"}},"items":{"anyOf":[{"$ref":"#"}]}}');
  });

  test('a cyclic value inside default is left out, not followed', () => {
    const data: Record<string, unknown> = { a: 1 };
    data['self'] = data;
    expect(normalizeSchemaForModel({ default: data })).toEqual({ default: { a: 1 } });
  });

  test('very deep nesting is replaced by a note', () => {
    let schema: Record<string, unknown> = { type: 'integer' };
    for (let i = 0; i < 200; i++) schema = { properties: { a: schema } };
    expect(renderSchemaForModel(schema, { maxChars: 100_000 })).toContain('"$comment":"nested too deep to show"');
  });

  test('never throws, and never exceeds the budget', () => {
    const everyTrapThrows = new Proxy({}, { get: () => () => { throw new Error('boom'); } });
    const hostile = new Proxy({}, everyTrapThrows);
    for (const schema of [undefined, null, 42, 'x', [], hostile, { properties: { a: { type: 'string', description: '😀'.repeat(500) } } }]) {
      for (const maxChars of [0, 10, 150, 300, 5000]) {
        const text = renderSchemaForModel(schema, { maxChars });
        expect(text.length).toBeLessThanOrEqual(maxChars);
      }
    }
  });

  test('every budget gets whole parts: the heading, the fenced JSON (cut, the fence closed) and a note, or less of them, never a line cut short', () => {
    const schema = { type: 'object', properties: { alpha: { type: 'string', description: 'x'.repeat(200) }, beta: { type: 'integer' } }, required: ['beta'] };
    const whole = renderSchemaForModel(schema, { toolName: 'search', maxChars: 100_000 }).split('\n');
    for (let maxChars = 0; maxChars <= 700; maxChars++) {
      const text = renderSchemaForModel(schema, { toolName: 'search', maxChars });
      expect(text.length).toBeLessThanOrEqual(maxChars);
      if (text === '') continue;
      const lines = text.split('\n');
      const json = lines.indexOf('```json');
      for (const [i, line] of lines.entries()) {
        if (i === json + 1 && json !== -1) expect(whole[3]!.startsWith(line)).toBe(true);
        else if (line.startsWith('[Schema')) expect(line).toMatch(/^\[Schema (truncated|not shown): [^\]]*\.\]$/);
        else expect(whole).toContain(line);
      }
      if (json !== -1) expect(lines[json + 2]).toBe('```');
      if (text !== whole.join('\n')) expect(lines.at(-1)).toMatch(/^\[Schema/);
    }
  });

  test('a cut never splits a surrogate pair', () => {
    const schema = { properties: { a: { description: '😀'.repeat(500) } } };
    for (let maxChars = 300; maxChars < 330; maxChars++) {
      const text = renderSchemaForModel(schema, { maxChars });
      expect(text).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
    }
  });

  test('the schema is never touched', () => {
    const schema = deepFreeze({ $schema: 'x', type: 'object', properties: { a: { $schema: 'y' } } });
    expect(() => renderSchemaForModel(schema)).not.toThrow();
    expect(schema).toHaveProperty('$schema', 'x');
  });
});
