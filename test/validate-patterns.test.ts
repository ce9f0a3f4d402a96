import { describe, expect, test } from 'vitest';
import { validateArgs } from '../src/validate.js';

// Ajv runs `pattern` and `patternProperties` against model-chosen strings through the linear-time
// matcher (Ajv's `code.regExp`): a pattern that would backtrack without bound in the native engine
// is answered at once, and one the matcher cannot check fails validation closed, saying why.
const hostile = 'a'.repeat(40) + '!';

describe('validateArgs and patterns that could backtrack without bound', () => {
  test.each([
    ['patternProperties, additionalProperties false', { type: 'object', patternProperties: { '^(a+)+$': { type: 'integer' } }, additionalProperties: false }, { [hostile]: 1 }, 'additionalProperties'],
    ['patternProperties', { type: 'object', patternProperties: { '^(a|a?)+$': { type: 'integer' } } }, { [hostile.slice(0, -1)]: 'x' }, 'type'],
    ['pattern', { type: 'object', properties: { s: { type: 'string', pattern: '^(a+)+$' } } }, { s: hostile }, 'pattern'],
    ['pattern with nested groups', { type: 'object', properties: { s: { type: 'string', pattern: '^((a+))+$' } } }, { s: hostile }, 'pattern'],
    ['bounded repeats', { type: 'object', properties: { s: { type: 'string', pattern: '^(.*a){12}$' } } }, { s: hostile }, 'pattern'],
  ])('%s: answered by the matcher, the value judged', (_, schema, args, keyword) => {
    const result = validateArgs(args, schema);
    expect(result.ok).toBe(false);
    expect(result.validator).toBe('ajv-2020');
    expect(!result.ok && result.errors.map((error) => error.keyword)).toContain(keyword);
  });

  test.each([
    ['^a(b)c$', 'abc', true],
    ['^a(b)c$', 'abd', false],
    ['^\\p{L}+$', 'héllo', true],
    ['^(ab)+$', 'abab', true],
    ['a'.repeat(1001), 'a'.repeat(1001), true],
    ['^(?!\\.)(?!.*\\.\\.)[a-z.]+@x$', 'a.b@x', true],
    ['^(?!\\.)(?!.*\\.\\.)[a-z.]+@x$', 'a..b@x', false],
    ['^(a+)+$', 'a'.repeat(40), true],
  ])('pattern %s, value %s: valid is %s, with the u flag', (pattern, s, ok) => {
    const result = validateArgs({ s }, { type: 'object', properties: { s: { type: 'string', pattern } } });
    expect(result).toMatchObject({ ok, validator: 'ajv-2020' });
  });

  test('a pattern with a backreference cannot be checked: validation fails closed, saying why', () => {
    const result = validateArgs({ s: 'aa' }, { type: 'object', properties: { s: { type: 'string', pattern: '^(a)\\1$' } } }, { toolName: 't' });
    expect(result).toMatchObject({ ok: false, validator: 'ajv-2020', reason: 'the pattern "^(a)\\\\1$" cannot be checked in bounded time (it uses a backreference)' });
    expect(!result.ok && result.errors).toEqual([
      { path: '', keyword: 'unchecked', message: 'could not be checked against the schema (the pattern "^(a)\\\\1$" cannot be checked in bounded time (it uses a backreference)); send a value the pattern can be checked against' },
    ]);
  });

  test('a value past the step bound cannot be checked; a long pattern is shown cut', () => {
    const pattern = `(?:a|b){0,2000}c${'d'.repeat(60)}`;
    const result = validateArgs({ s: 'a'.repeat(3000) }, { type: 'object', properties: { s: { type: 'string', pattern } } });
    expect(result.ok).toBe(false);
    expect(result.reason).toBe(`the pattern ${JSON.stringify(pattern.slice(0, 60) + '…')} cannot be checked in bounded time (the text is too long for it)`);
  });

  test('a pattern invalid in the u syntax does not compile, as with Ajv\'s own engine: validation is skipped, saying why', () => {
    const result = validateArgs({ s: 'a-b' }, { type: 'object', properties: { s: { type: 'string', pattern: '^a\\-b$' } } });
    expect(result).toMatchObject({ ok: true, validator: 'skipped' });
    expect(result.reason).toContain('Invalid regular expression');
  });
});
