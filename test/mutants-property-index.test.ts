/**
 * The property index (`src/schema/property-index.ts`): the schemas asked about a key come in
 * schema order, whether a schema names the key or matches it by pattern, so the names a nested
 * object declares are listed in the order the schema gives them.
 */
import { describe, expect, test } from 'vitest';
import { prepareToolCall } from '../src/index.js';

const named = (name: string) => ({ properties: { x: { type: 'object', properties: { [name]: { type: 'string' } }, required: [name] } } });
const matched = (name: string) => ({ patternProperties: { '^x$': { type: 'object', properties: { [name]: { type: 'string' } }, required: [name] } } });

describe('the schemas of a key, named and matched, in schema order', () => {
  test.each([
    ['a pattern before the name', [matched('pa'), named('qa')], 'pa (string, required), qa (string, required)'],
    ['the name before a pattern', [named('qa'), matched('pa')], 'qa (string, required), pa (string, required)'],
  ])('%s', (_, allOf, expected) => {
    const call = prepareToolCall('{"x":{"zz":1}}', { type: 'object', allOf }, { lenient: true, rejectUndeclared: true });
    expect(call.message).toBe(`Invalid parameters: the parameter names do not match the tool schema.\nAt /x, expected parameters: ${expected}. You sent undeclared key(s): zz.\nCorrect the parameters and call the tool again.`);
  });
});
