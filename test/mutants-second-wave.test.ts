/**
 * Tests that kill hand mutants of the second wave of repairs which survived the suite (found by an
 * independent review). Each passes on the code as it is and fails under the edit named beside it.
 */
import { describe, expect, test } from 'vitest';
import { coerceArgsJson, prepareToolCall } from '../src/index.js';

describe('control characters: every one below U+0020 is escaped, U+001F included', () => {
  // Mutant (src/json/tolerant/quoted.ts, escapeKinds): `code < 0x20` → `code < 0x1f`.
  test.each([
    ['U+001F (unit separator)', '\u001f', '\\u001f'],
    ['U+0000', '\u0000', '\\u0000'],
    ['U+001E', '\u001e', '\\u001e'],
  ])('a raw %s inside a string is escaped, reported as control-character', (_name, raw, escaped) => {
    const text = `{"message":"a${raw}b"}`;
    const schema = { type: 'object', properties: { message: { type: 'string' } } };
    expect(coerceArgsJson(text, schema, { lenient: true })).toBe(`{"message":"a${escaped}b"}`);
    const call = prepareToolCall(text, schema, { lenient: true });
    expect(call.ok).toBe(true);
    expect(JSON.parse(call.json)).toEqual({ message: `a${raw}b` });
    expect(call.changes.map((change) => change.rule)).toEqual(['control-character']);
  });
});

describe('a string mixing a backslash as written with \\/ is refused, not read with literal backslashes', () => {
  // Mutant (src/json/tolerant/quoted.ts, resolve, JSON reading): `literal(…, kinds & (SHARED | JSON_ONLY))`
  // → `literal(…, kinds & SHARED)`: `"C:\Dev\/x"` then goes out as `C:\Dev\/x` (a backslash kept
  // before the slash) although JSON reads `\/` as `/`: which backslash is which cannot be known.
  const schema = { type: 'object', properties: { path: { type: 'string' } } };
  const text = '{"path":"C:\\Dev\\/x"}';

  test('coerceArgsJson refuses it, naming the mix', () => {
    expect(() => coerceArgsJson(text, schema, { lenient: true })).toThrow(/mixes escapes with backslashes that open none/);
  });

  test('prepareToolCall answers ok: false, not truncated', () => {
    const call = prepareToolCall(text, schema, { lenient: true });
    expect(call.ok).toBe(false);
    expect(call.parseError?.truncated).not.toBe(true);
  });

  test('\\/ alone in a repaired JSON text still reads as "/"', () => {
    const call = prepareToolCall('{"path":"a\\/b",}', schema, { lenient: true });
    expect(call.ok).toBe(true);
    expect(JSON.parse(call.json)).toEqual({ path: 'a/b' });
  });
});
