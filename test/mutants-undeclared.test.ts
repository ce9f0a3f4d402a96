/**
 * The suggestion tiers of `findUndeclaredKeys`, one row per boundary: each row is a key sent, the
 * declared names (none required unless the row says so), the other keys present, and the
 * suggestion expected (`null`: none stands out). Rows on both sides of each threshold, so that an
 * off-by-one in the edit distance, the containment test or the abbreviation test changes an answer.
 */
import { describe, expect, test } from 'vitest';
import { findUndeclaredKeys, validateArgs } from '../src/validate.js';

interface Row {
  readonly why: string;
  readonly key: string;
  readonly declared: readonly string[];
  readonly required?: readonly string[];
  readonly present?: readonly string[];
  readonly suggestion: string | null;
}

const ROWS: readonly Row[] = [
  // Edit distance: Levenshtein with adjacent transpositions, at most a third of the longer name (at least 1).
  { why: 'one substitution, at the threshold of 1', key: 'lumit', declared: ['limit', 'query'], suggestion: 'limit' },
  { why: 'a transposition at the start costs 1', key: 'ilmit', declared: ['limit', 'query'], suggestion: 'limit' },
  { why: 'a transposition at the end costs 1', key: 'limti', declared: ['limit', 'query'], suggestion: 'limit' },
  { why: 'a transposition inside costs 1', key: 'lmiit', declared: ['limit', 'query'], suggestion: 'limit' },
  { why: 'two substitutions are 2, over the threshold of 1', key: 'iamit', declared: ['limit', 'query'], suggestion: null },
  { why: 'a substitution next to a transposed pair is 2', key: 'almit', declared: ['limit', 'query'], suggestion: null },
  { why: 'a repeated letter is no transposition', key: 'itmit', declared: ['limit', 'query'], suggestion: null },
  { why: 'nor is a doubled inner letter', key: 'ltiit', declared: ['limit', 'query'], suggestion: null },
  { why: 'a deletion and a substitution are 2', key: 'amit', declared: ['limit', 'query'], suggestion: null },
  { why: 'two edits within a six-letter threshold of 2', key: 'kolor', declared: ['colour', 'limit'], suggestion: 'colour' },
  { why: 'two edits in five letters are over the threshold of 1', key: 'pages', declared: ['paths', 'limit'], suggestion: null },
  { why: 'two edits in two letters are no suggestion', key: 'ab', declared: ['cd', 'limit'], suggestion: null },
  { why: 'three deletions in ten letters (threshold 3, first letter gone)', key: 'axreslt', declared: ['maxResults', 'limit'], suggestion: 'maxResults' },
  { why: 'four deletions are past the length gap of 3, whatever the threshold', key: 'axresultsperp', declared: ['maxResultsPerPage', 'limit'], suggestion: null },
  { why: 'equally close names: the first declared wins', key: 'cap', declared: ['cat', 'car'], suggestion: 'cat' },
  { why: 'the closest name wins over a later, farther one', key: 'colour', declared: ['color', 'colr'], suggestion: 'color' },
  { why: 'a name already present is never suggested', key: 'qury', declared: ['query', 'q'], present: ['query'], suggestion: 'q' },
  // Containment: one name at the start or end of the other, or abbreviating it (first letter kept).
  { why: 'the key is the start of the name', key: 'q', declared: ['query', 'limit'], suggestion: 'query' },
  { why: 'the name is the start of the key', key: 'querystring', declared: ['query', 'limit'], suggestion: 'query' },
  { why: 'the key is the end of the name', key: 'depth', declared: ['maxDepth', 'limit'], suggestion: 'maxDepth' },
  { why: 'a three-letter abbreviation', key: 'qty', declared: ['quantity', 'limit'], suggestion: 'quantity' },
  { why: 'a two-letter abbreviation', key: 'qt', declared: ['quantity', 'limit'], suggestion: 'quantity' },
  { why: 'letters in the wrong order abbreviate nothing', key: 'qyt', declared: ['quantity', 'limit'], suggestion: null },
  { why: 'an abbreviation keeps the first letter', key: 'nty', declared: ['quantity', 'limit'], suggestion: null },
  { why: 'two names contain the key: none stands out', key: 'max', declared: ['maxDepth', 'maxResults'], suggestion: null },
  { why: 'a key of separators only contains nothing', key: '__', declared: ['query'], suggestion: null },
  // The last tier: the only undeclared key, the only required name missing.
  { why: 'the only required name missing', key: 'text', declared: ['body', 'limit'], required: ['body'], suggestion: 'body' },
  { why: 'a required name already present is not missing', key: 'text', declared: ['body', 'limit'], required: ['body'], present: ['body'], suggestion: null },
  { why: 'two required names missing: none stands out', key: 'text', declared: ['body', 'title'], required: ['body', 'title'], suggestion: null },
];

describe('findUndeclaredKeys: which declared name is suggested', () => {
  test.each(ROWS)('$why: $key', ({ key, declared, required, present = [], suggestion }) => {
    const schema = { type: 'object', properties: Object.fromEntries(declared.map((name) => [name, {}])), ...(required === undefined ? {} : { required }) };
    const args = Object.fromEntries([...present.map((name) => [name, 1]), [key, 1]]);
    const expected = { path: `/${key}`, key, ...(suggestion === null ? {} : { suggestion }) };
    expect(findUndeclaredKeys(args, schema)).toStrictEqual([expected]);
  });

  test('with two undeclared keys the required-name tier stays silent', () => {
    const schema = { properties: { body: {}, limit: {} }, required: ['body'] };
    expect(findUndeclaredKeys({ text: 1, zzz: 2 }, schema)).toStrictEqual([
      { path: '/text', key: 'text' },
      { path: '/zzz', key: 'zzz' },
    ]);
  });

  test('an array where properties are declared has no keys to report', () => {
    const schema = { properties: { list: { type: ['array', 'object'], properties: { a: {} } } } };
    expect(findUndeclaredKeys({ list: [1, 2] }, schema)).toStrictEqual([]);
    expect(findUndeclaredKeys({ list: { b: 1 } }, schema)).toStrictEqual([{ path: '/list/b', key: 'b', suggestion: 'a' }]);
  });
});

describe('suggestions are bounded per scan: 10,000 name comparisons and 100 more a key, then by spelling alone', () => {
  // 299 names and `inner`: 300 at the root. Compared in full while 300 × keys ≤ 10,000 + 100 × keys: up to 50 keys.
  const declared = Object.fromEntries(Array.from({ length: 299 }, (_, i) => [`field_${i}`, { type: 'string' }]));
  const schema = { type: 'object', properties: { ...declared, inner: { type: 'object', properties: declared } } };
  /** `count` unknown keys: one a respelling of `field_0`, one an edit away from `field_1`, the rest unlike any name. */
  const keys = (count: number): Record<string, string> => Object.fromEntries(['FIELD-0', 'field_1x', ...Array.from({ length: count - 2 }, (_, i) => `zz${i}`)].map((key) => [key, 'v']));

  test('50 unknown keys against 300 names (15,000 comparisons, exactly the bound): every tier', () => {
    const found = findUndeclaredKeys(keys(50), schema);
    expect(found.slice(0, 2)).toEqual([
      { path: '/FIELD-0', key: 'FIELD-0', suggestion: 'field_0' },
      { path: '/field_1x', key: 'field_1x', suggestion: 'field_1' },
    ]);
    expect(found.some((key) => key.bySpelling === true)).toBe(false);
  });

  test('51 unknown keys: names compared by spelling only, each key says so, and the message too', () => {
    const found = findUndeclaredKeys(keys(51), schema);
    expect(found.slice(0, 2)).toEqual([
      { path: '/FIELD-0', key: 'FIELD-0', suggestion: 'field_0', bySpelling: true },
      { path: '/field_1x', key: 'field_1x', bySpelling: true },
    ]);
    expect(found.every((key) => key.bySpelling === true)).toBe(true);
    const result = validateArgs(keys(51), schema);
    expect(!result.ok && result.message).toContain('You sent undeclared key(s): FIELD-0 (did you mean field_0?), field_1x, zz0');
    expect(!result.ok && result.message).toContain('(Too many names to compare: only differences of case, spaces, _, . and - were looked for.)');
  });

  test('the bound is for the whole scan: a second object past what is left is compared by spelling', () => {
    // 30 × 300 = 9,000 of 13,000 at the root; then 30 × 299 = 8,970 against the 4,000 left and 3,000 more.
    const found = findUndeclaredKeys({ ...keys(30), inner: keys(30) }, schema);
    expect(found.filter((key) => key.path.startsWith('/inner/')).every((key) => key.bySpelling === true)).toBe(true);
    expect(found.filter((key) => !key.path.startsWith('/inner/')).some((key) => key.bySpelling === true)).toBe(false);
    expect(found.find((key) => key.path === '/field_1x')?.suggestion).toBe('field_1');
    expect(found.find((key) => key.path === '/inner/field_1x')?.suggestion).toBeUndefined();
  });

  test('each key adds to the bound: many objects of a few keys against a few names are all compared in full', () => {
    const small = { type: 'object', properties: { name: { type: 'string' }, items: { type: 'array', items: { $ref: '#' } } } };
    const args = { nmae: 'a', items: Array.from({ length: 5000 }, () => ({ nmae: 'b' })) };
    const found = findUndeclaredKeys(args, small);
    expect(found).toHaveLength(5001);
    expect(found.every((key) => key.suggestion === 'name' && key.bySpelling === undefined)).toBe(true);
  });

  test('a scan starts with the whole bound: two scans in a row answer alike', () => {
    expect(findUndeclaredKeys(keys(50), schema)).toEqual(findUndeclaredKeys(keys(50), schema));
  });
});
