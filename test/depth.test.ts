import { describe, expect, test } from 'vitest';
import { coerceArgs, coerceArgsJson, findUndeclaredKeys, formatToolCall, isLosslessNumber, parseArgs, prepareToolCall, stringifyArgs, toPlainNumbers } from '../src/index.js';
import { renameUnambiguousKeys } from '../src/validate.js';

// Every walk over arguments works at any depth: none of these may throw or overflow the stack.
const DEPTH = 100_000;
const schema = {
  type: 'object',
  properties: { a: { $ref: '#' }, thoughtNumber: { type: 'integer' } },
};
const text = '{"a":'.repeat(DEPTH) + '{"thought_number":1.0}' + '}'.repeat(DEPTH);
const args = parseArgs(text);
const bottom = '/a'.repeat(DEPTH);

function deepest(value: unknown): Record<string, unknown> {
  let current = value as Record<string, unknown>;
  while (current['a'] !== undefined) current = current['a'] as Record<string, unknown>;
  return current;
}

describe(`${DEPTH.toLocaleString('en')} levels of nesting`, () => {
  test('findUndeclaredKeys finds the key at the bottom', () => {
    expect(findUndeclaredKeys(args, schema)).toEqual([{ path: `${bottom}/thought_number`, key: 'thought_number', suggestion: 'thoughtNumber' }]);
  });

  test('renameUnambiguousKeys renames the key at the bottom, copying only the path to it', () => {
    const { value, changes } = renameUnambiguousKeys(args, schema);
    expect(changes).toEqual([{ path: `${bottom}/thoughtNumber`, from: '"thought_number"', to: '"thoughtNumber"', rule: 'rename-key' }]);
    expect(Object.keys(deepest(value))).toEqual(['thoughtNumber']);
    expect(Object.keys(deepest(args))).toEqual(['thought_number']);
  });

  test('prepareToolCall rejects the undeclared key with a bounded message naming its path', () => {
    const call = prepareToolCall(text, schema, { rejectUndeclared: true, toolName: 'deep' });
    expect(call.ok).toBe(false);
    expect(call.undeclared).toHaveLength(1);
    expect(call.message).toMatch(/^Invalid parameters for tool "deep": the parameter names do not match the tool schema\.\nAt (\/a)+/);
    expect(call.message!.length).toBeLessThanOrEqual(4000);
  });

  test('prepareToolCall renames, then restores the integer at the bottom', () => {
    const call = prepareToolCall(text, schema, { renameUnambiguous: true });
    expect(call.ok).toBe(true);
    expect(call.json.endsWith('{"thoughtNumber":1' + '}'.repeat(DEPTH + 1))).toBe(true);
  });

  test('toPlainNumbers turns the number at the bottom into a plain number', () => {
    const plain = toPlainNumbers(args);
    expect(deepest(plain)['thought_number']).toBe(1);
    expect(isLosslessNumber(deepest(args)['thought_number'])).toBe(true);
  });

  test('formatToolCall renders the whole call', () => {
    const shown = formatToolCall('deep', args, schema);
    expect(shown.length).toBe('deep()'.length + text.length);
  });
});

// A change at every level: each is recorded at its path in O(1) (the walk keeps the pointer of
// each prefix), so these finish in well under a second; at O(depth) per change they took minutes.
describe(`${DEPTH.toLocaleString('en')} levels with a change at every level`, () => {
  const levels = { type: 'object', properties: { a: { $ref: '#' }, n: { type: 'integer' } } };
  const wrapped = (inner: string): string => inner.repeat(DEPTH) + '{}' + '}'.repeat(DEPTH);
  const nulls = wrapped('{"n":null,"a":');
  const bare = wrapped('{"a":');
  /** The path of `n` at `level` (0: the root object). */
  const nAt = (level: number): string => '/a'.repeat(level) + '/n';

  test('coerceArgs restores the integer at every level, each change at its own path', { timeout: 120_000 }, () => {
    const { value, changes, refusals } = coerceArgs(parseArgs(wrapped('{"n":5.0,"a":')), levels);
    expect(refusals).toEqual([]);
    expect(changes).toHaveLength(DEPTH);
    for (const level of [0, 1, 2, 77, DEPTH - 1]) expect(changes[level]).toEqual({ path: nAt(level), from: '5.0', to: '5', rule: 'integer-literal' });
    expect(stringifyArgs(value)).toBe(wrapped('{"n":5,"a":'));
  });

  test('coerceArgsJson removes the optional null at every level', { timeout: 120_000 }, () => {
    expect(coerceArgsJson(nulls, levels, { lenient: true })).toBe(bare);
  });

  test('prepareToolCall removes them too, innermost first, each at its own path', { timeout: 120_000 }, () => {
    const call = prepareToolCall(nulls, levels, { lenient: true });
    expect([call.ok, call.json === bare]).toEqual([true, true]);
    expect(call.changes).toHaveLength(DEPTH);
    for (const level of [0, 1, 2, 77, DEPTH - 1]) expect(call.changes[DEPTH - 1 - level]).toEqual({ path: nAt(level), from: 'null', to: '', rule: 'optional-null' });
  });

  test('findUndeclaredKeys finds an undeclared key at every level, each at its own path', { timeout: 120_000 }, () => {
    const found = findUndeclaredKeys(parseArgs(wrapped('{"x/~":1,"a":')), levels);
    expect(found).toHaveLength(DEPTH);
    for (const level of [0, 1, 77, DEPTH - 1]) expect(found[level]).toEqual({ path: '/a'.repeat(level) + '/x~1~0', key: 'x/~' });
  });
});
