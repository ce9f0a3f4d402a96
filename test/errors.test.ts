import { expect, test } from 'vitest';
import {
  ArgsCycleError, ArgsParseError, InvalidArgsError, MissingPeerError, parseArgs, prepareToolCall, SchemaCoerceError, stringifyArgs,
} from '../src/index.js';

function thrown(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('nothing was thrown');
}

test('ArgsParseError carries the position and the reason in fields, the message only repeats them', () => {
  const error = thrown(() => parseArgs('{"a":1,}')) as ArgsParseError;
  expect(error).toBeInstanceOf(SchemaCoerceError);
  expect(error).toMatchObject({ name: 'ArgsParseError', position: 7, line: 1, column: 8, reason: 'Expected a quoted object key but got "}"' });
  expect(error.detail).toBe('invalid JSON at line 1 column 8 (position 7): Expected a quoted object key but got "}"');
  expect(error.message).toBe(`[schema-coerce] ${error.detail}`);
});

test('stringifyArgs refuses a cyclic value with an ArgsCycleError', () => {
  const cyclic: unknown[] = [];
  cyclic.push(cyclic);
  const error = thrown(() => stringifyArgs(cyclic));
  expect(error).toBeInstanceOf(ArgsCycleError);
  expect(error).toBeInstanceOf(SchemaCoerceError);
  expect((error as ArgsCycleError).detail).toBe('cannot write cyclic arguments as JSON');
});

test('MissingPeerError names the feature and the peer, and keeps the cause', () => {
  const cause = new Error("Cannot find package 'ajv'");
  const error = new MissingPeerError('validation', 'ajv', cause);
  expect(error).toMatchObject({ feature: 'validation', peer: 'ajv', cause });
  expect(error.need).toBe("needs the optional peer dependency ajv (npm install ajv): Cannot find package 'ajv'");
  expect(error.message).toBe(`[schema-coerce] validation ${error.need}`);
});

test('InvalidArgsError carries the prepared call and its model-facing message', () => {
  const call = prepareToolCall('{"query":"x"}', { properties: { q: { type: 'string' } } }, { rejectUndeclared: true });
  const error = new InvalidArgsError(call);
  expect(error.call).toBe(call);
  expect(error.detail).toBe(call.message);
  expect(error).toBeInstanceOf(SchemaCoerceError);
});
