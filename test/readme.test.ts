import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { END, README, START, peerTable } from '../scripts/peer-table.js';
import { coerceArgs, coerceArgsJson, formatToolCall, parseArgs, stringifyArgs } from '../src/index.js';

const readme = readFileSync(README, 'utf8');

describe('README', () => {
  test('the peer table is what the real packages do today', () => {
    const block = readme.slice(readme.indexOf(START) + START.length, readme.indexOf(END)).trim();
    expect(block).toBe(peerTable());
  });

  test('the first-screen example', () => {
    const schema = {
      type: 'object',
      properties: { line: { type: 'integer' }, column: { type: 'integer' }, ratio: { type: 'number' } },
    };
    expect(coerceArgsJson('{"line":5.0,"column":1.0,"ratio":1.0}', schema)).toBe('{"line":5,"column":1,"ratio":1.0}');
    expect(readme).toContain(`// → '{"line":5,"column":1,"ratio":1.0}'`);
  });

  test('the literal-form example', () => {
    const args = parseArgs('{"id":1730419200000123.0,"ratio":1.0}');
    const { value, changes, refusals } = coerceArgs(args, {
      properties: { id: { type: 'integer' }, ratio: { type: 'number' } },
    });
    expect(stringifyArgs(value)).toBe('{"id":1730419200000123,"ratio":1.0}');
    expect(changes).toEqual([{ path: '/id', from: '1730419200000123.0', to: '1730419200000123', rule: 'integer-literal' }]);
    expect(refusals).toEqual([]);
  });

  test('the formatToolCall example', () => {
    const schema = { properties: { line: { type: 'integer' }, column: { type: 'integer' }, filePath: { type: 'string' } } };
    expect(formatToolCall('get_symbol_info', parseArgs('{"line":5.0,"column":1.0,"filePath":"server.go"}'), schema))
      .toBe('get_symbol_info({"line":5,"column":1,"filePath":"server.go"})');
  });

  test('the lenient example', () => {
    const schema = {
      type: 'object',
      properties: {
        page: { type: 'integer' },
        deleted: { type: 'boolean' },
        tags: { type: 'array', items: { type: 'string' } },
        ids: { type: 'array', items: { type: 'integer' } },
      },
    };
    const out = coerceArgsJson('{"page":"2","deleted":"false","tags":"急件","ids":"[1271, 2106.0]"}', schema, { lenient: true });
    expect(out).toBe('{"page":2,"deleted":false,"tags":["急件"],"ids":[1271,2106]}');
    expect(readme).toContain(`// → '${out}'`);
  });
});

describe('README: validation', () => {
  test('the validateArgs example', async () => {
    const { validateArgs } = await import('../src/validate.js');
    const schema = { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] };
    const result = validateArgs({ query: 'cats' }, schema, { toolName: 'mcp__demo__search' });
    expect(result.ok).toBe(false);
    if (!result.ok) {
      for (const line of result.message.split('\n')) expect(readme).toContain(`// ${line}\n`);
    }
  });

  test('the renderSchemaForModel example', async () => {
    const { renderSchemaForModel } = await import('../src/render.js');
    const text = renderSchemaForModel({ type: 'object', properties: { q: { type: 'string' } }, required: ['q'] }, { toolName: 'search' });
    for (const line of text.split('\n')) expect(readme).toContain(`// ${line}\n`);
  });
});
