/**
 * What a caller's editor sees of the public API: the types of results and options, checked by
 * `npm run typecheck` (each `expectTypeOf` fails the type check when the type changes; a
 * `@ts-expect-error` fails it when the line becomes valid), and the runtime facts the types claim.
 */
import { describe, expect, expectTypeOf, test } from 'vitest';
import {
  coerceArgs, coerceArgsJson, coerceIntegerArgs, parseArgs, prepareToolCall,
  type ArgsParseError, type Change, type ChangeRule, type CoerceOptions, type CoerceResult, type IntegerRange, type LenientRules,
  type PreparedCall, type ReadyCall, type Refusal, type RefusalReason, type RejectedCall,
} from '../src/index.js';
import { validateArgs, type ValidationResult } from '../src/validate.js';

const schema = { type: 'object', properties: { q: { type: 'string' }, limit: { type: 'integer' } }, required: ['q'] };

describe('prepareToolCall', () => {
  test('its result narrows on ok: a message exactly when the call is rejected', () => {
    const calls = ['{"q":"cats","limit":5.0}', '{"query":"cats"}', '{"q":'].map((text) => prepareToolCall(text, schema, { validate: validateArgs, toolName: 'search' }));
    for (const call of calls) {
      expectTypeOf(call).toEqualTypeOf<PreparedCall>();
      if (call.ok) {
        expectTypeOf(call).toEqualTypeOf<ReadyCall>();
        expectTypeOf(call.message).toEqualTypeOf<undefined>();
        expect(call.message).toBeUndefined();
      } else {
        expectTypeOf(call).toEqualTypeOf<RejectedCall>();
        expectTypeOf(call.message).toEqualTypeOf<string>();
        expectTypeOf(call.parseError).toEqualTypeOf<ArgsParseError | undefined>();
        expect(call.message).toMatch(/^Invalid parameters for tool "search"/);
      }
    }
    expect(calls.map((call) => call.ok)).toEqual([true, false, false]);
    expect(calls[2]!.parseError?.truncated).toBe(true);
  });

  test('the fields every call has', () => {
    const call = prepareToolCall('{"q":"cats","limit":5.0}', schema);
    expectTypeOf(call.json).toEqualTypeOf<string>();
    expectTypeOf(call.display).toEqualTypeOf<string>();
    expectTypeOf(call.args).toEqualTypeOf<unknown>();
    expectTypeOf(call.changes).toEqualTypeOf<readonly Change[]>();
    expectTypeOf(call.refusals).toEqualTypeOf<readonly Refusal[]>();
    expect(call.json).toBe('{"q":"cats","limit":5}');
  });

  test('its options: validate takes a validator or false, never true', () => {
    expectTypeOf(prepareToolCall).parameter(2).toMatchTypeOf<CoerceOptions | undefined>();
    // @ts-expect-error the core does not load Ajv: `validate: true` is the adapters' spelling
    expect(() => prepareToolCall('{}', schema, { validate: true })).toThrow(TypeError);
    expect(prepareToolCall('{}', schema, { validate: false, rejectUndeclared: true, renameUnambiguous: true, rejectRefused: true }).ok).toBe(true);
  });
});

describe('coerceArgs and its kin', () => {
  test('a result of value, changes and refusals, each change and refusal with literal kinds', () => {
    const result = coerceArgs(parseArgs('{"limit":5.0,"q":1}'), schema, { lenient: { numbersToStrings: false } });
    expectTypeOf(result).toEqualTypeOf<CoerceResult>();
    expectTypeOf(result.changes[0]!.rule).toEqualTypeOf<ChangeRule>();
    expectTypeOf(result.refusals[0]!.reason).toEqualTypeOf<RefusalReason>();
    expect(result.changes.map((change) => change.rule)).toEqual(['integer-literal']);
  });

  test('options are named, their values a closed set', () => {
    expectTypeOf<CoerceOptions['integerRange']>().toEqualTypeOf<IntegerRange | undefined>();
    expectTypeOf<IntegerRange>().toEqualTypeOf<'int64' | 'safe' | 'unbounded'>();
    expectTypeOf<CoerceOptions['lenient']>().toEqualTypeOf<boolean | LenientRules | undefined>();
    // @ts-expect-error no such range
    coerceArgsJson('{}', schema, { integerRange: 'int32' });
    // @ts-expect-error no such rule
    coerceArgsJson('{}', schema, { lenient: { dates: true } });
  });

  test('coerceIntegerArgs keeps the caller\'s type; coerceArgsJson is text in, text out', () => {
    const args = { limit: 5, q: 'cats' };
    expectTypeOf(coerceIntegerArgs(args, schema)).toEqualTypeOf<{ limit: number; q: string }>();
    expectTypeOf(coerceArgsJson).returns.toEqualTypeOf<string>();
    expect(coerceIntegerArgs(args, schema)).toBe(args);
  });

  test('validateArgs narrows as prepareToolCall does', () => {
    const verdict = validateArgs({ q: 1 }, schema);
    if (!verdict.ok) expectTypeOf(verdict.message).toEqualTypeOf<string>();
    expectTypeOf(verdict).toEqualTypeOf<ValidationResult>();
    expect(verdict.ok).toBe(false);
  });
});
