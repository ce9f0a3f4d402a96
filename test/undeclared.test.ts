import { describe, expect, test } from 'vitest';
import { parseArgs, stringifyArgs } from '../src/index.js';
import { findUndeclaredKeys, renameUnambiguousKeys } from '../src/validate.js';
import { deepFreeze, loadFixtures } from './_helpers/fixtures.js';

interface Row {
  readonly name: string;
  readonly schema: unknown;
  readonly input: string;
  readonly expected: unknown[];
}

const files = loadFixtures<Row>('validate').filter(({ file }) => file.endsWith('undeclared-keys.json'));

describe.each(files)('$file', ({ cases }) => {
  test.each(cases)('$name', ({ schema, input, expected }) => {
    expect(findUndeclaredKeys(deepFreeze(parseArgs(input)), deepFreeze(schema))).toStrictEqual(expected);
  });
});

test('names equal but for case, white space, underscores, dots and hyphens are suggested', () => {
  const schema = { type: 'object', properties: { thoughtNumber: {}, total: {} } };
  for (const key of ['thought_Number', 'Thought-Number', 'thought.number', 'THOUGHT NUMBER', 'thought__number']) {
    expect(findUndeclaredKeys({ [key]: 1 }, schema)).toStrictEqual([{ path: `/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`, key, suggestion: 'thoughtNumber' }]);
  }
});

describe('renameUnambiguousKeys', () => {
  const schema = deepFreeze({
    type: 'object',
    properties: {
      thoughtNumber: { type: 'integer' },
      nested: { type: 'object', properties: { style_id: { type: 'string' } } },
      list: { type: 'array', items: { type: 'object', properties: { maxResults: { type: 'integer' } } } },
    },
  });

  test('renames in place, keeping key order, and reports where the new key is', () => {
    const args = deepFreeze(parseArgs('{"a":1,"thought_number":2,"nested":{"styleId":"x"},"list":[{"max-results":3}],"z":0}'));
    const { value, changes } = renameUnambiguousKeys(args, schema);
    expect(stringifyArgs(value)).toBe('{"a":1,"thoughtNumber":2,"nested":{"style_id":"x"},"list":[{"maxResults":3}],"z":0}');
    expect(Object.keys(value as object)).toEqual(['a', 'thoughtNumber', 'nested', 'list', 'z']);
    expect(changes).toEqual([
      { path: '/thoughtNumber', from: '"thought_number"', to: '"thoughtNumber"', rule: 'rename-key' },
      { path: '/nested/style_id', from: '"styleId"', to: '"style_id"', rule: 'rename-key' },
      { path: '/list/0/maxResults', from: '"max-results"', to: '"maxResults"', rule: 'rename-key' },
    ]);
  });

  test('leaves a key alone when the declared name is already there, or two names match', () => {
    const ambiguous = { properties: { user_id: {}, userId: {} } };
    const args = { userid: 1 };
    expect(renameUnambiguousKeys(args, ambiguous)).toEqual({ value: args, changes: [], conflicts: [] });
    const present = { thought_number: 1, thoughtNumber: 2 };
    expect(renameUnambiguousKeys(present, schema).value).toBe(present);
  });

  test('two keys that mean one declared name are both left as they are, and listed', () => {
    const args = deepFreeze(parseArgs('{"thought_number":1,"ThoughtNumber":2,"nested":{"styleId":"x","style-id":"y","STYLE_ID":"z"},"list":[{"max-results":3}]}'));
    const { value, changes, conflicts } = renameUnambiguousKeys(args, schema);
    expect(stringifyArgs(value)).toBe('{"thought_number":1,"ThoughtNumber":2,"nested":{"styleId":"x","style-id":"y","STYLE_ID":"z"},"list":[{"maxResults":3}]}');
    expect(changes).toEqual([{ path: '/list/0/maxResults', from: '"max-results"', to: '"maxResults"', rule: 'rename-key' }]);
    expect(conflicts).toEqual([
      { path: '/thought_number', key: 'thought_number', suggestion: 'thoughtNumber' },
      { path: '/ThoughtNumber', key: 'ThoughtNumber', suggestion: 'thoughtNumber' },
      { path: '/nested/styleId', key: 'styleId', suggestion: 'style_id' },
      { path: '/nested/style-id', key: 'style-id', suggestion: 'style_id' },
      { path: '/nested/STYLE_ID', key: 'STYLE_ID', suggestion: 'style_id' },
    ]);
    // A conflict in one object does not stop a rename in its sibling.
    const sibling = renameUnambiguousKeys(deepFreeze({ thought_number: 1, nested: { styleId: 'x' } }), schema);
    expect(sibling.value).toEqual({ thoughtNumber: 1, nested: { style_id: 'x' } });
    expect(sibling.conflicts).toEqual([]);
  });

  test("a key holding a parameter tag's whole text is renamed to the name it tags; not where that name is sent too", () => {
    const tagged = deepFreeze({ type: 'object', properties: { ops: { type: 'array' }, _i: { type: 'string' } }, additionalProperties: false });
    const args = deepFreeze(parseArgs('{"parameter name=\\"_i\\"":"x","<parameter name=\\"ops\\">":[1]}'));
    const { value, changes } = renameUnambiguousKeys(args, tagged);
    expect(stringifyArgs(value)).toBe('{"_i":"x","ops":[1]}');
    expect(changes.map((change) => [change.path, change.from, change.to])).toEqual([
      ['/_i', '"parameter name=\\"_i\\""', '"_i"'],
      ['/ops', '"<parameter name=\\"ops\\">"', '"ops"'],
    ]);
    const both = deepFreeze(parseArgs('{"parameter name=\\"ops\\"":[1],"ops":[2]}'));
    expect(renameUnambiguousKeys(both, tagged).value).toBe(both);
    // Where the object takes any key, the key as sent is a reading too: it stays.
    const map = deepFreeze({ ...tagged, additionalProperties: true });
    const sent = deepFreeze(parseArgs('{"parameter name=\\"ops\\"":[1]}'));
    expect(renameUnambiguousKeys(sent, map).value).toBe(sent);
  });

  test('a rename under a __proto__ key stays data, never a prototype', () => {
    const schema = deepFreeze({ properties: { ['__proto__']: { properties: { styleId: {} } } } });
    const { value } = renameUnambiguousKeys(deepFreeze(parseArgs('{"__proto__":{"style_id":1}}')), schema);
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.keys(value as object)).toEqual(['__proto__']);
    expect(stringifyArgs(value)).toBe('{"__proto__":{"styleId":1}}');
  });
});
