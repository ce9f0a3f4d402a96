import { describe, expect, test } from 'vitest';
import { validateArgs } from '../src/validate.js';

// Ajv runs `pattern` and `patternProperties` against model-chosen strings; a pattern that can
// backtrack without bound would hang the process, so it is never run (validation is skipped, saying why).
const hostile = 'a'.repeat(40) + '!';

describe('validateArgs and patterns that could backtrack without bound', () => {
  test.each([
    ['patternProperties', { type: 'object', patternProperties: { '^(a+)+$': { type: 'integer' } } }, { [hostile]: 1 }],
    ['pattern', { type: 'object', properties: { s: { type: 'string', pattern: '^(a+)+$' } } }, { s: hostile }],
    ['a pattern over 1,000 characters', { type: 'object', properties: { s: { type: 'string', pattern: 'a'.repeat(1001) } } }, { s: 'a' }],
  ])('%s: skipped, the reason naming the pattern, never run', (_, schema, args) => {
    const result = validateArgs(args, schema);
    expect(result).toMatchObject({ ok: true, validator: 'skipped' });
    expect(result.ok && result.reason).toContain('could backtrack without bound, so it is not run');
  });

  test('a long pattern is shown cut, not whole', () => {
    const result = validateArgs({ s: 'a' }, { type: 'object', properties: { s: { type: 'string', pattern: `(x+)+${'b'.repeat(100)}` } } });
    expect(result.ok && result.reason).toContain(`"(x+)+${'b'.repeat(55)}…"`);
  });

  test.each([
    ['^a(b)c$', 'abc', true],
    ['^a(b)c$', 'abd', false],
    ['^\\p{L}+$', 'héllo', true],
    ['^(ab)+$', 'abab', true],
    ['a'.repeat(1000), 'a'.repeat(1000), true],
  ])('a safe pattern %s still runs, with the u flag: %s → %s', (pattern, s, ok) => {
    const result = validateArgs({ s }, { type: 'object', properties: { s: { type: 'string', pattern } } });
    expect(result).toMatchObject({ ok, validator: 'ajv-2020' });
  });
});
