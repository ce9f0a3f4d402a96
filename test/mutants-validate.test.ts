/**
 * `validateArgs` asked for each part of its verdict: boolean schemas, what is not a schema, the
 * draft-07 retry and the reason a schema is skipped, a provider's verdict (its message or the
 * default one, its validator cached per schema object, a schema it cannot compile), undeclared
 * keys with and without `rejectUndeclared`, and the errors' fields.
 */
import { describe, expect, test } from 'vitest';
import { validateArgs, type JsonSchemaValidatorProvider } from '../src/validate.js';
import { parseArgs } from '../src/index.js';
import { deepFreeze } from './_helpers/fixtures.js';

const SCHEMA = deepFreeze({ type: 'object', properties: { n: { type: 'integer' } }, additionalProperties: false });

describe('the schema', () => {
  test('true passes everything, false nothing, by the 2020-12 validator', () => {
    expect(validateArgs({ a: 1 }, true)).toEqual({ ok: true, validator: 'ajv-2020' });
    expect(validateArgs({ a: 1 }, false)).toMatchObject({ ok: false, validator: 'ajv-2020', errors: [{ path: '', keyword: 'false schema' }], undeclared: [] });
  });

  test.each([['a string', 'object'], ['an array', [{ type: 'object' }]], ['null', null], ['a number', 5]])('%s is no schema: skipped, saying so', (_name, schema) => {
    expect(validateArgs({ a: 1 }, schema)).toEqual({ ok: true, validator: 'skipped', reason: 'the schema is not a JSON Schema object' });
  });

  test('a draft-07 schema is judged by the draft-07 validator, a 2020-12 one (or none named) by the 2020-12 one', () => {
    const d7 = { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: { n: { type: 'integer' } } };
    expect(validateArgs({ n: 'x' }, d7)).toMatchObject({ ok: false, validator: 'ajv-draft-07' });
    expect(validateArgs({ n: 1 }, d7)).toEqual({ ok: true, validator: 'ajv-draft-07' });
    expect(validateArgs({ n: 1 }, { ...d7, $schema: 'https://json-schema.org/draft/2020-12/schema' })).toEqual({ ok: true, validator: 'ajv-2020' });
  });

  test('a schema that compiles in neither dialect is skipped with both reasons', () => {
    const result = validateArgs({ n: 1 }, { type: 'object', properties: { n: { type: 'integr' } } });
    expect(result.ok).toBe(true);
    expect(result.validator).toBe('skipped');
    expect(result.reason).toMatch(/^the schema does not compile \(.+\), nor as draft-07 without \$schema \(.+\)$/);
  });

  test('a 2020-12 schema that only draft-07 compiles is judged as draft-07, without its $schema', () => {
    const schema = { $schema: 'https://json-schema.org/draft/2099-01/schema', type: 'object', properties: { n: { type: 'integer' } } };
    expect(validateArgs({ n: 'x' }, schema)).toMatchObject({ ok: false, validator: 'ajv-draft-07', errors: [{ path: '/n', keyword: 'type' }] });
  });
});

describe('the errors', () => {
  test('each has the instance path, the keyword, the message and the params', () => {
    const result = validateArgs(parseArgs('{"n":1.5}'), SCHEMA);
    expect(result).toMatchObject({ ok: false, validator: 'ajv-2020', undeclared: [] });
    if (!result.ok) expect(result.errors).toEqual([{ path: '/n', keyword: 'type', message: 'must be integer', params: { type: 'integer' } }]);
  });

  test('undeclared keys are found unless rejectUndeclared is false; the verdict fails on them alone', () => {
    const open = { type: 'object', properties: { n: { type: 'integer' } } };
    expect(validateArgs({ m: 1 }, open)).toMatchObject({ ok: false, errors: [], undeclared: [{ path: '/m', key: 'm' }] });
    expect(validateArgs({ m: 1 }, open, { rejectUndeclared: false })).toEqual({ ok: true, validator: 'ajv-2020' });
    expect(validateArgs({ m: 1 }, open, { rejectUndeclared: true })).toMatchObject({ ok: false });
  });

  test('the message names the tool', () => {
    const result = validateArgs({ n: 'x' }, SCHEMA, { toolName: 'count' });
    expect(result.ok ? '' : result.message).toBe('Invalid parameters for tool "count": the arguments do not match the tool schema.\n/n: must be integer; you sent "x".\nCorrect the parameters and call the tool again.');
  });

  test('a skipped schema still fails on an undeclared key, saying why it was skipped', () => {
    expect(validateArgs({ m: 1 }, { properties: { n: { type: 'integr' } } })).toMatchObject({ ok: false, validator: 'skipped', reason: expect.stringMatching(/^the schema does not compile/), errors: [] });
  });
});

describe('a provider', () => {
  const counting = (verdict: (input: unknown) => { valid: boolean; errorMessage?: string }) => {
    const seen: unknown[] = [];
    const provider: JsonSchemaValidatorProvider = { getValidator: (schema: never) => (seen.push(schema), verdict) };
    return { seen, provider };
  };

  test('its error message is the one error; without one, a plain default', () => {
    const { provider } = counting((input) => ({ valid: false, ...((input as { n?: unknown }).n === 1 ? {} : { errorMessage: 'n is wrong' }) }));
    expect(validateArgs({ n: 2 }, SCHEMA, { provider })).toMatchObject({ ok: false, validator: 'provider', errors: [{ path: '', keyword: 'schema', message: 'n is wrong' }] });
    expect(validateArgs({ n: 1 }, SCHEMA, { provider })).toMatchObject({ ok: false, validator: 'provider', errors: [{ path: '', keyword: 'schema', message: 'the arguments are invalid' }] });
  });

  test('it is handed plain numbers, and passes valid arguments', () => {
    const inputs: unknown[] = [];
    const { provider } = counting((input) => (inputs.push(input), { valid: true }));
    expect(validateArgs(parseArgs('{"n":5.0}'), SCHEMA, { provider })).toEqual({ ok: true, validator: 'provider' });
    expect(inputs).toEqual([{ n: 5 }]);
  });

  test('its validator is compiled once per schema object and provider; a schema that is no object is compiled every time', () => {
    const { seen, provider } = counting(() => ({ valid: true }));
    const other = counting(() => ({ valid: true }));
    for (let i = 0; i < 3; i++) validateArgs({ n: i }, SCHEMA, { provider, rejectUndeclared: false });
    validateArgs({ n: 1 }, { ...SCHEMA }, { provider, rejectUndeclared: false });
    validateArgs({ n: 1 }, SCHEMA, { provider: other.provider, rejectUndeclared: false });
    expect(seen).toHaveLength(2);
    expect(other.seen).toHaveLength(1);
    for (let i = 0; i < 2; i++) validateArgs({}, true, { provider, rejectUndeclared: false });
    expect(seen).toHaveLength(4);
  });

  test('one that cannot compile the schema skips, with the reason, and fails on an undeclared key', () => {
    const provider = { getValidator: () => { throw 'no such dialect'; } };
    expect(validateArgs({ n: 1 }, SCHEMA, { provider })).toEqual({ ok: true, validator: 'skipped', reason: 'the validator provider could not compile the schema: no such dialect' });
    expect(validateArgs({ m: 1 }, SCHEMA, { provider })).toMatchObject({ ok: false, validator: 'skipped', undeclared: [{ path: '/m' }] });
  });

  test('one that throws on the arguments fails closed, naming what it threw', () => {
    const provider = { getValidator: () => () => { throw new RangeError('stack'); } };
    const result = validateArgs({ n: 1 }, SCHEMA, { provider });
    expect(result).toMatchObject({ ok: false, validator: 'provider', reason: 'the validator provider threw: stack' });
    if (!result.ok) {
      expect(result.errors).toEqual([{ path: '', keyword: 'unchecked', message: 'could not be checked against the schema (the validator provider threw: stack); send them less deeply nested' }]);
    }
  });
});

describe('arguments that cannot be read', () => {
  test('a getter that throws: refused, skipped, with the reason and a message', () => {
    const args = Object.defineProperty({}, 'n', { enumerable: true, get: () => { throw new Error('nope'); } });
    const result = validateArgs(args, SCHEMA, { toolName: 't' });
    expect(result).toMatchObject({ ok: false, validator: 'skipped', reason: 'the arguments could not be read: nope', undeclared: [] });
    if (!result.ok) {
      expect(result.errors).toEqual([{ path: '', keyword: 'unchecked', message: 'could not be checked against the schema (the arguments could not be read: nope); send them less deeply nested' }]);
      expect(result.message.startsWith('Invalid parameters for tool "t": the arguments do not match the tool schema.\narguments: could not be checked')).toBe(true);
    }
  });
});
