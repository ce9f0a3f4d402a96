import { describe, expect, test } from 'vitest';
import { coerceArgs, coerceArgsJson, parseArgs, stringifyArgs } from '../src/index.js';

// The suite's draft7 "$ref prevents a sibling $id from changing the base uri", with its $schema.
const siblingId = (dialect: string) => ({
  $schema: dialect,
  $id: 'http://localhost:1234/sibling_id/base/',
  definitions: {
    foo: { $id: 'http://localhost:1234/sibling_id/foo.json', type: 'string' },
    base_foo: { $id: 'foo.json', type: 'number' },
  },
  allOf: [{ $id: 'http://localhost:1234/sibling_id/', $ref: 'foo.json' }],
});

// A $ref beside an integer type: draft-07 ignores the sibling, 2020-12 applies both.
const siblingType = (dialect: string) => ({
  $schema: dialect,
  definitions: { n: { type: 'number' } },
  properties: { n: { $ref: '#/definitions/n', type: 'integer' } },
});

const lenient = (text: string, schema: unknown) => stringifyArgs(coerceArgs(parseArgs(text), schema, { lenient: true }).value);

describe.each([
  'http://json-schema.org/draft-07/schema#',
  'http://json-schema.org/draft-06/schema#',
  'http://json-schema.org/draft-04/schema#',
])('%s: $ref overrides its siblings', (dialect) => {
  test('a sibling $id does not change the base URI: valid 1 stays 1', () => {
    expect(lenient('1', siblingId(dialect))).toBe('1');
    expect(lenient('"a"', siblingId(dialect))).toBe('"a"');
  });

  test('a sibling type is ignored: 5.0 under a $ref to a number stays 5.0, on both paths', () => {
    expect(coerceArgsJson('{"n":5.0}', siblingType(dialect))).toBe('{"n":5.0}');
    expect(stringifyArgs(coerceArgs(parseArgs('{"n":5.0}'), siblingType(dialect)).value)).toBe('{"n":5.0}');
  });
});

describe('2020-12 (the default) applies the siblings of $ref', () => {
  test.each([['https://json-schema.org/draft/2020-12/schema'], [undefined]])('$schema %s', (dialect) => {
    const schema = { ...siblingType('x'), $schema: dialect };
    expect(coerceArgsJson('{"n":5.0}', schema)).toBe('{"n":5}');
  });

  test('a sibling $id changes the base URI: the $ref finds the string schema', () => {
    expect(lenient('1', siblingId('https://json-schema.org/draft/2020-12/schema'))).toBe('"1"');
  });
});
