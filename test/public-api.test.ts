import { expect, test } from 'vitest';
import * as api from '../src/index.js';

test('the package root exports exactly these names', () => {
  expect(Object.keys(api).sort()).toEqual([
    'ArgsParseError',
    'LosslessNumber',
    'coerceArgs',
    'coerceArgsJson',
    'coerceIntegerArgs',
    'formatToolCall',
    'isLosslessNumber',
    'parseArgs',
    'stringifyArgs',
  ]);
});
