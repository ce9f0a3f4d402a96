import { describe, expect, test } from 'vitest';
import { coerceArgsJson, formatToolCall, parseArgs } from '../src/index.js';

const SCHEMA = { properties: { line: { type: 'integer' }, column: { type: 'integer' }, filePath: { type: 'string' } } };
const RAW = '{"line":5.0,"column":1.0,"filePath":"server.go"}';

describe('formatToolCall: render = dispatch', () => {
  test('shows what dispatch sends', () => {
    const shown = formatToolCall('get_symbol_info', parseArgs(RAW), SCHEMA);
    expect(shown).toBe('get_symbol_info({"line":5,"column":1,"filePath":"server.go"})');
    expect(shown).toBe(`get_symbol_info(${coerceArgsJson(RAW, SCHEMA)})`);
  });

  test('with the same options as dispatch (lenient)', () => {
    const raw = '{"line":"5","column":1.0,"filePath":"a.go"}';
    const options = { lenient: true };
    expect(formatToolCall('t', parseArgs(raw), SCHEMA, options)).toBe(`t(${coerceArgsJson(raw, SCHEMA, options)})`);
  });

  test('without a schema the arguments show as they are', () => {
    expect(formatToolCall('t', parseArgs(RAW))).toBe(`t(${RAW})`);
  });

  test('no arguments show as an empty call', () => {
    expect(formatToolCall('ping', undefined, SCHEMA)).toBe('ping()');
  });

  test('never throws, even on values JSON cannot hold', () => {
    expect(formatToolCall('t', { a: 1n }, SCHEMA)).toBe('t({"a":1})');
  });
});
