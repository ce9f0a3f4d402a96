/**
 * The model-facing message, asked directly (`describeProblems`): its first line, which objects get
 * a line and in what order, the parameter list of each (types, enums, arrays, required markers,
 * the bound on names), the missing names read from a validator's params or its words, the errors
 * an undeclared key already covers, the other errors with the value sent, and the size bounds.
 */
import { describe, expect, test } from 'vitest';
import { describeProblems, invalidParameters, type ProblemReport, type ValidationIssue } from '../src/report/message.js';
import type { UndeclaredKey } from '../src/report/undeclared.js';
import { deepFreeze } from './_helpers/fixtures.js';

const LAST = 'Correct the parameters and call the tool again.';
const message = (report: Partial<ProblemReport>): string =>
  describeProblems(deepFreeze({ args: {}, schema: {}, errors: [], undeclared: [], ...report }) as ProblemReport);
const lines = (report: Partial<ProblemReport>): string[] => message(report).split('\n');
const required = (path: string, name: string): ValidationIssue => ({ path, keyword: 'required', message: `must have required property '${name}'`, params: { missingProperty: name } });
const key = (path: string, suggestion?: string): UndeclaredKey =>
  ({ path, key: path.slice(path.lastIndexOf('/') + 1), ...(suggestion === undefined ? {} : { suggestion }) }) as UndeclaredKey;

describe('the first line', () => {
  test('names the tool when there is one, quoted as JSON', () => {
    expect(invalidParameters('search')).toBe('Invalid parameters for tool "search"');
    expect(invalidParameters('say "hi"')).toBe('Invalid parameters for tool "say \\"hi\\""');
    expect(invalidParameters(undefined)).toBe('Invalid parameters');
  });

  test('says the names do not match when a key is undeclared, else that the arguments do not', () => {
    const schema = { properties: { q: { type: 'string' } } };
    expect(lines({ toolName: 't', schema, args: { x: 1 }, undeclared: [key('/x')] })[0]).toBe('Invalid parameters for tool "t": the parameter names do not match the tool schema.');
    expect(lines({ schema, errors: [required('', 'q')] })[0]).toBe('Invalid parameters: the arguments do not match the tool schema.');
  });

  test('a message with nothing to say still ends with the request', () => {
    expect(message({})).toBe(`Invalid parameters: the arguments do not match the tool schema.\n${LAST}`);
  });
});

describe('one line per object, shallow first', () => {
  const place = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };
  const schema = { type: 'object', properties: { b: place, a: place, ab: place, list: { type: 'array', items: place } }, required: ['a'] };

  test('objects are ordered by path length, then by name; array indices follow the arguments', () => {
    const args = { a: {}, b: {}, ab: {}, list: [{ city: 'x' }, {}] };
    const errors = ['/list/1', '/b', '/ab', '', '/a'].map((path) => required(path, path === '' ? 'a' : 'city'));
    expect(lines({ schema, args, errors }).slice(1, -1)).toEqual([
      'Expected parameters: b (object), a (object, required), ab (object), list (array of object). Missing required: a.',
      'At /a, expected parameters: city (string, required). Missing required: city.',
      'At /b, expected parameters: city (string, required). Missing required: city.',
      'At /ab, expected parameters: city (string, required). Missing required: city.',
      'At /list/1, expected parameters: city (string, required). Missing required: city.',
    ]);
  });

  test('an undeclared key and a missing name at one object share its line, each under its own object', () => {
    const args = { a: { town: 'x' }, b: { city: 'y', zip: 1 } };
    const out = lines({ schema, args, errors: [required('/a', 'city')], undeclared: [key('/a/town', 'city'), key('/b/zip')] });
    expect(out.slice(1, -1)).toEqual([
      'At /a, expected parameters: city (string, required). You sent undeclared key(s): town (did you mean city?). Missing required: city.',
      'At /b, expected parameters: city (string, required). You sent undeclared key(s): zip.',
    ]);
  });

  test('several undeclared keys and missing names of one object are listed in order', () => {
    const out = lines({ schema: place, args: { town: 1, zip: 2 }, errors: [required('', 'city'), required('', 'country')], undeclared: [key('/town', 'city'), key('/zip')] });
    expect(out[1]).toBe('Expected parameters: city (string, required). You sent undeclared key(s): town (did you mean city?), zip. Missing required: city, country.');
  });

  test('a key holding a slash is one token of its object', () => {
    const out = lines({ schema: { properties: { 'a/b': place } }, args: { 'a/b': {} }, errors: [required('/a~1b', 'city')] });
    expect(out[1]).toBe('At /a~1b, expected parameters: city (string, required). Missing required: city.');
  });

  test('an object the plan cannot reach, or a schema with no plan, is "(not known)"', () => {
    expect(lines({ schema: { properties: { a: false } }, args: { a: {} }, errors: [required('/a', 'x')] })[1]).toBe('At /a, expected parameters: (not known). Missing required: x.');
    expect(lines({ schema: 'not a schema', args: {}, errors: [required('', 'x')] })[1]).toBe('Expected parameters: (not known). Missing required: x.');
    expect(lines({ schema: place, args: { city: 'x' }, errors: [required('/city/deeper', 'x')] })[1]).toBe('At /city/deeper, expected parameters: (not known). Missing required: x.');
    expect(lines({ schema: { properties: { a: false } }, args: { a: { b: {} } }, errors: [required('/a/b', 'x')] })[1]).toBe('At /a/b, expected parameters: (not known). Missing required: x.');
  });

  test('a path that is no JSON Pointer names no object of the plan: "(not known)", never the root\'s parameters', () => {
    expect(lines({ schema: place, args: {}, errors: [required('city', 'x')] }).slice(1, -1)).toEqual(['At city, expected parameters: (not known). Missing required: x.']);
  });

  test('an object that declares nothing is "(none declared)"', () => {
    expect(lines({ schema: { type: 'object' }, args: { x: 1 }, undeclared: [key('/x')] })[1]).toBe('Expected parameters: (none declared). You sent undeclared key(s): x.');
  });
});

describe('the missing names', () => {
  const schema = { properties: { q: { type: 'string' } } };
  test.each([
    ['params.missingProperty', { params: { missingProperty: 'q' }, message: 'is required' }, 'q'],
    ['single quotes in the words', { message: "must have required property 'query'" }, 'query'],
    ['double quotes in the words', { message: 'must have required property "query"' }, 'query'],
    ['an empty quoted name', { message: "must have required property ''" }, null],
    ['params that are not a string fall back to the words', { params: { missingProperty: 7 }, message: "missing 'q'" }, 'q'],
  ])('%s', (_name, error, name) => {
    const out = lines({ schema, errors: [{ path: '', keyword: 'required', ...error }] });
    expect(out[1]).toBe(`Expected parameters: q (string).${name === null ? '' : ` Missing required: ${name}.`}`);
  });

  test('a name nowhere in the error is left out, and the object still gets its line', () => {
    const out = lines({ schema, errors: [{ path: '', keyword: 'required', message: 'is required' }, required('', 'q')] });
    expect(out[1]).toBe('Expected parameters: q (string). Missing required: q.');
  });
});

describe('the parameter list', () => {
  const described = (property: unknown, isRequired = false): string =>
    lines({ schema: { properties: { p: property }, ...(isRequired ? { required: ['p'] } : {}) }, args: { x: 1 }, undeclared: [key('/x')] })[1]!;

  test.each([
    ['a type', { type: 'integer' }, 'p (integer)'],
    ['a type array, in a fixed order', { type: ['integer', 'null'] }, 'p (null or integer)'],
    ['number covers integer', { type: ['number', 'integer'] }, 'p (number)'],
    ['no type at all', { description: 'anything' }, 'p'],
    ['an enum', { enum: ['a', 1, null] }, 'p (one of "a", 1, null)'],
    ['an enum of eight', { enum: [1, 2, 3, 4, 5, 6, 7, 8] }, 'p (one of 1, 2, 3, 4, 5, 6, 7, 8)'],
    ['an enum of nine', { enum: [1, 2, 3, 4, 5, 6, 7, 8, 9] }, 'p (one of 1, 2, 3, 4, 5, 6, 7, 8, …)'],
    ['an empty enum is no list of values (and lets no type through)', { type: 'string', enum: [] }, 'p'],
    ['an enum is shown before the type', { type: 'string', enum: ['a'] }, 'p (one of "a")'],
    ['an enum member too long to show is clipped', { enum: ['x'.repeat(100)] }, `p (one of "${'x'.repeat(78)}…)`],
    ['an enum in a branch', { anyOf: [{ type: 'string' }, { enum: ['a', 'b'] }] }, 'p (one of "a", "b")'],
    ['an array of a type', { type: 'array', items: { type: 'integer' } }, 'p (array of integer)'],
    ['an array of arrays', { type: 'array', items: { type: 'array', items: { type: 'string' } } }, 'p (array of array of string)'],
    ['an array of anything', { type: 'array' }, 'p (array)'],
    ['an array past its tuple', { type: 'array', prefixItems: [{ type: 'string' }], items: { type: 'boolean' } }, 'p (array of boolean)'],
    ['an array or a string is not "array of"', { type: ['array', 'string'], items: { type: 'integer' } }, 'p (string or array)'],
    ['an array or an object is not "array of"', { type: ['array', 'object'], items: { type: 'integer' } }, 'p (array or object)'],
  ])('%s', (_name, property, shown) => {
    expect(described(property)).toBe(`Expected parameters: ${shown}. You sent undeclared key(s): x.`);
  });

  test('the required marker comes after the type, or alone', () => {
    expect(described({ type: 'string' }, true)).toBe('Expected parameters: p (string, required). You sent undeclared key(s): x.');
    expect(described({}, true)).toBe('Expected parameters: p (required). You sent undeclared key(s): x.');
  });

  test('thirty names are shown; past that, how many more', () => {
    const list = (count: number): string => {
      const properties = Object.fromEntries(Array.from({ length: count }, (_, i) => [`p${i}`, {}]));
      return lines({ schema: { properties }, args: { x: 1 }, undeclared: [key('/x')] })[1]!;
    };
    const thirty = Array.from({ length: 30 }, (_, i) => `p${i}`).join(', ');
    expect(list(30)).toBe(`Expected parameters: ${thirty}. You sent undeclared key(s): x.`);
    expect(list(32)).toBe(`Expected parameters: ${thirty}, … and 2 more. You sent undeclared key(s): x.`);
  });
});

describe('the other errors', () => {
  const schema = { type: 'object', properties: { n: { type: 'integer' } }, additionalProperties: false };

  test('each with its path (or "arguments") and the value sent, if there is one', () => {
    const errors: ValidationIssue[] = [
      { path: '/n', keyword: 'type', message: 'must be integer' },
      { path: '', keyword: 'type', message: 'must be object' },
      { path: '/gone', keyword: 'x', message: 'is odd' },
    ];
    expect(lines({ schema, args: { n: 'five' }, errors }).slice(1)).toEqual([
      '/n: must be integer; you sent "five".',
      'arguments: must be object; you sent {"n":"five"}.',
      '/gone: is odd.',
      LAST,
    ]);
  });

  test('a value too long is clipped to 80 characters; 80 are shown whole', () => {
    const at = (text: string) => lines({ args: { s: text }, errors: [{ path: '/s', keyword: 'x', message: 'bad' }] })[1];
    expect(at('y'.repeat(78))).toBe(`/s: bad; you sent "${'y'.repeat(78)}".`);
    expect(at('y'.repeat(79))).toBe(`/s: bad; you sent "${'y'.repeat(78)}….`);
  });

  test('a value that cannot be written is not shown', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic['self'] = cyclic;
    expect(describeProblems({ args: { c: cyclic }, schema: {}, errors: [{ path: '/c', keyword: 'x', message: 'bad' }], undeclared: [] }).split('\n')[1]).toBe('/c: bad.');
  });

  test('the same line twice is written once', () => {
    const error = { path: '/n', keyword: 'type', message: 'must be integer' };
    expect(lines({ schema, args: { n: 'x' }, errors: [error, { ...error, keyword: 'other' }] }).slice(1)).toEqual(['/n: must be integer; you sent "x".', LAST]);
  });

  test('an additional or unevaluated property that is an undeclared key is not described again', () => {
    const undeclared = [key('/m', 'n'), key('/o/p~1q')];
    const errors: ValidationIssue[] = [
      { path: '', keyword: 'additionalProperties', message: 'must NOT have additional properties', params: { additionalProperty: 'm' } },
      { path: '/o', keyword: 'unevaluatedProperties', message: 'must NOT have unevaluated properties', params: { unevaluatedProperty: 'p/q' } },
      { path: '', keyword: 'additionalProperties', message: 'must NOT have additional properties here', params: { additionalProperty: 'z' } },
      { path: '', keyword: 'additionalProperties', message: 'must NOT have them', params: { additionalProperty: 1 } },
    ];
    const out = lines({ schema, args: { m: 1, o: { 'p/q': 1 }, z: 1 }, errors, undeclared });
    expect(out.slice(-3)).toEqual(['arguments: must NOT have additional properties here; you sent {"m":1,"o":{"p/q":1},"z":1}.', 'arguments: must NOT have them; you sent {"m":1,"o":{"p/q":1},"z":1}.', LAST]);
    expect(out.filter((line) => line.includes('unevaluated'))).toEqual([]);
  });

  test('twelve errors are written; past that, how many more', () => {
    const errors = (count: number): ValidationIssue[] => Array.from({ length: count }, (_, i) => ({ path: `/e${i}`, keyword: 'x', message: 'bad' }));
    const twelve = Array.from({ length: 12 }, (_, i) => `/e${i}: bad.`);
    expect(lines({ errors: errors(12) }).slice(1)).toEqual([...twelve, LAST]);
    expect(lines({ errors: errors(14) }).slice(1)).toEqual([...twelve, '… and 2 more error(s).', LAST]);
  });
});

describe('the size bound', () => {
  const sized = (length: number): string => {
    // The first line and the last are fixed; one error line of the right length fills the rest.
    const fixed = message({ errors: [{ path: '/a', keyword: 'x', message: '' }] }).length;
    return message({ errors: [{ path: '/a', keyword: 'x', message: 'm'.repeat(length - fixed) }] });
  };

  test('a message of 4,000 characters is whole; one longer is cut to 4,000, ending with "…"', () => {
    expect(sized(4000)).toHaveLength(4000);
    expect(sized(4000).endsWith(LAST)).toBe(true);
    const cut = sized(4001);
    expect(cut).toHaveLength(4000);
    expect(cut.endsWith('…')).toBe(true);
    expect(cut.slice(0, -1)).toBe(sized(4001).slice(0, 3999));
    expect(sized(4001).startsWith(sized(4000).slice(0, 3900))).toBe(true);
  });
});
