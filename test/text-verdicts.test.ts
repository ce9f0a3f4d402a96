import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { coerceArgsJson, prepareToolCall, stringifyArgs, type Change, type CoerceOptions, type Refusal } from '../src/index.js';
import { applyTextEdits, TextEditsBuilder } from '../src/coerce/coerce.js';
import { coerceTextVerdicts } from '../src/coerce/text-verdicts.js';
import { caseArbitrary } from './_helpers/arbitraries.js';
import { loadFixtures, type FixtureCase } from './_helpers/fixtures.js';

// The text path's verdicts (what the CLI's `--report` and `--fail-on-refusal` read a large text
// with) against the pipeline's: for every text the text path reads to its end, the same changes and
// refusals, value for value, and the same output as `coerceArgsJson`.

/** The text path's edits and verdicts of `text`, collected; `undefined` when it hands the text on. */
function collect(text: string, schema: unknown, options?: CoerceOptions, builder: TextEditsBuilder | true = true) {
  const changes: Change[] = [];
  const refusals: Refusal[] = [];
  const edits = coerceTextVerdicts(text, schema, options, builder, { change: (change) => changes.push(change), refusal: (refusal) => refusals.push(refusal) });
  return edits === undefined ? undefined : { edits, changes, refusals };
}
/**
 * How the text path's verdicts of `text` differ from `prepareToolCall`'s and its output from
 * `coerceArgsJson`'s: `''` when they agree, `undefined` when the text path hands the text on.
 * A string, not an assertion, so that a generated case that fails shrinks without a diff per step.
 */
function difference(text: string, schema: unknown, options: CoerceOptions): string | undefined {
  const verdicts = collect(text, schema, options);
  if (verdicts === undefined) return undefined;
  const call = prepareToolCall(text, schema, options);
  // In order: `--fail-on-refusal` names the first refusal.
  const mine = stringifyArgs([verdicts.changes, verdicts.refusals, applyTextEdits(text, verdicts.edits)]);
  const theirs = stringifyArgs([call.changes, call.refusals, coerceArgsJson(text, schema, options)]);
  return mine === theirs ? '' : `text path ${mine}\npipeline  ${theirs}`;
}

/** Every coercion fixture row with a string input, in its own mode and in the other. */
const rows = ['lenient', 'wild', 'warp', 'product', 'techspec', 'numbers', 'schema'].flatMap((area) =>
  loadFixtures<FixtureCase>(area).flatMap(({ file, cases }) =>
    cases
      .filter((row) => typeof row.input === 'string' && row.schema !== undefined)
      .flatMap((row, i) => [false, true].map((lenient) => ({ id: `${file}#${i} ${lenient ? 'lenient' : 'integer'}`, row, options: { ...row.options, lenient: row.options?.lenient ?? lenient } }))),
  ),
);

describe('the text path reports what the pipeline reports', () => {
  test('every fixture row it reads to its end', () => {
    let read = 0;
    for (const { id, row, options } of rows) {
      const found = difference(row.input, row.schema, options);
      expect(found, `${id} (${row.name})`).not.toBeTruthy();
      if (found === '') read++;
    }
    // Most rows are strict JSON the text path reads; the others are handed on.
    expect(read).toBeGreaterThan(rows.length / 3);
  });

  test.each([false, true])('generated schemas and arguments (lenient: %s)', (lenient) => {
    fc.assert(
      fc.property(caseArbitrary(), fc.constantFrom<NonNullable<CoerceOptions['integerRange']>>('int64', 'safe'), ([schema, value], integerRange) => {
        return !difference(stringifyArgs(value), schema, { lenient, integerRange });
      }),
      { numRuns: 300 },
    );
  });
});

describe('paths', () => {
  const schema = {
    type: 'object',
    properties: {
      rows: { type: 'array', items: { type: 'object', properties: { n: { type: 'integer' }, 'a/b~c': { type: 'integer' } } } },
      grid: { type: 'array', items: { type: 'array', items: { type: 'integer' } } },
      flag: { type: 'boolean' },
    },
  };
  const verdicts = (text: string, lenient = false) => collect(text, schema, { lenient })!;

  test('keys and indexes, escaped as JSON Pointer tokens, after empty and nested containers', () => {
    const { changes, refusals } = verdicts('{"x":{},"rows":[{},{"n":1.0,"skip":[1.5,{}]},{"a/b~c":2.0,"n":2.5}],"grid":[[],[3.0],[4,5.0]],"after":[],"n":7.0}');
    expect(changes.map((c) => [c.path, c.from, c.to])).toEqual([
      ['/rows/1/n', '1.0', '1'],
      ['/rows/2/a~1b~0c', '2.0', '2'],
      ['/grid/1/0', '3.0', '3'],
      ['/grid/2/1', '5.0', '5'],
    ]);
    expect(refusals.map((r) => [r.path, r.reason])).toEqual([['/rows/2/n', 'not-whole']]);
  });

  test('a lenient conversion reports at its path; a string decoded with its escapes', () => {
    const { changes, refusals } = verdicts('{"rows":[{"n":"4"},{"n":"\\u0035"}],"flag":"yes"}', true);
    expect(changes.map((c) => [c.path, c.rule])).toEqual([['/rows/0/n', 'string-to-integer'], ['/rows/1/n', 'string-to-integer']]);
    expect(refusals.map((r) => [r.path, r.reason])).toEqual([['/flag', 'unconvertible']]);
  });

  test('a root scalar is at the root', () => {
    expect(collect(' 5.0 ', { type: 'integer' })!.changes.map((c) => c.path)).toEqual(['']);
  });
});

describe("the object model's order", () => {
  // An object lists its integer-like keys first, ascending: the text path reads on while the keys
  // holding verdicts come in that order, and hands the text on when they do not.
  const map = { additionalProperties: { type: 'integer' } };
  const nested = { additionalProperties: map };
  test.each([
    ['{"0":2.5,"b":1.5}', map, true],
    ['{"b":1.5,"0":2}', map, true],
    ['{"1":1.5,"4294967294":2.5,"4294967295":3.5,"01":4.5}', map, true],
    ['{"b":1.5,"0":2.5}', map, false],
    ['{"2":1.5,"1":2.5}', map, false],
    ['{"4294967295":1.5,"4294967294":2.5}', map, false],
    ['{"b":{"x":1.5},"1":{"y":2.5}}', nested, false],
    ['{"b":{"x":1.5},"a":{"1":2.5,"0":3}}', nested, true],
    ['{"a":{"b":1.5,"1":2.5}}', nested, false],
    ['{"2":1.5,"1":2.5,"b":3.5}', map, false],
    ['{"b":1.5,"4294967295":2.5}', map, true],
    ['{"b":1.5,"9999999999":2.5}', map, true],
  ])('%s', (text, schema, read) => {
    expect(difference(text, schema, {})).toBe(read ? '' : undefined);
  });
});

describe('what it hands on', () => {
  const integer = { type: 'object', properties: { n: { type: 'integer' }, list: { type: 'array', items: { type: 'string' } } } };
  test.each([
    ['text that is not JSON', '{"n": 5.0', integer, false],
    ['a repeated key', '{"n": 5.0, "n": 5.0}', integer, false],
    ['a container no schema accepts, refused with its value', '{"n": [1]}', integer, true],
    ['an object where a list is', '{"list": {"a": 1}}', integer, true],
    ['a string holding parameter tags', '{"list": ["<parameter name=\\"n\\">5</parameter>"]}', integer, true],
    ['a root string under syntax repair', '"{\\"n\\": 5.0}"', integer, true],
    ['a root null under syntax repair', 'null', integer, true],
    ['a schema whose reading throws', '{"n": 5.0}', { type: 'object', get properties(): never { throw new Error('no'); } }, false],
    ['a root key the schema does not declare, under unwrap (an envelope is refused with its value)', '{"n": 5.0, "other": 1}', { ...integer, additionalProperties: false }, true],
  ])('%s', (_name, text, schema, lenient) => {
    expect(collect(text, schema, { lenient })).toBeUndefined();
  });

  test('a container no schema accepts under lenient rules with arrays off (no rule hands it on): handed on all the same', () => {
    expect(collect('{"n": {"a": 1}}', integer, { lenient: { arrays: false } })).toBeUndefined();
  });

  test.each([
    ['a root null without syntax repair', 'null', integer, {}],
    ['a root string without syntax repair', '"x"', { type: 'string' }, {}],
    ['a root string with the syntax rule off', '"x"', { type: 'string' }, { lenient: { syntax: false } }],
    ['a container no schema accepts without lenient rules (nothing to refuse)', '{"n": {}}', integer, {}],
  ])('read in its one pass: %s', (_name, text, schema, options) => {
    expect(difference(text, schema, options as CoerceOptions)).toBe('');
  });

  test("a sink's own error is the caller's, never a hand-off", () => {
    const sink = { refusal: (): never => { throw new RangeError('the sink is full'); } };
    expect(() => coerceTextVerdicts('{"n": 5.5}', integer, {}, true, sink)).toThrow('the sink is full');
  });

  test("the edits go to the caller's builder as they are found", () => {
    const pushed: [number, number, string][] = [];
    const builder = new (class extends TextEditsBuilder {
      override push(start: number, end: number, text: string): void {
        pushed.push([start, end, text]);
        super.push(start, end, text);
      }
    })();
    const result = collect('{"n": 5.0}', integer, undefined, builder)!;
    expect(pushed).toEqual([[6, 9, '5']]);
    expect(applyTextEdits('{"n": 5.0}', result.edits)).toBe('{"n": 5}');
  });
});
