import { expect, test } from 'vitest';
// schema-coerce/langchain, /openai-agents and /mastra import packages of the full install: their
// export lists are pinned in test/langchain.test.ts, test/openai-agents.test.ts and test/mastra.test.ts.
import * as ai from '../src/ai.js';
import * as root from '../src/index.js';
import * as mcp from '../src/mcp.js';
import * as render from '../src/render.js';
import * as validate from '../src/validate.js';

test('the package root exports exactly these names', () => {
  expect(Object.keys(root).sort()).toEqual([
    'ArgsCycleError',
    'ArgsParseError',
    'ExactNumber',
    'InvalidArgsError',
    'LosslessNumber',
    'MissingPeerError',
    'NumberPrecisionError',
    'SchemaCoerceError',
    'coerceArgs',
    'coerceArgsJson',
    'coerceIntegerArgs',
    'findUndeclaredKeys',
    'formatToolCall',
    'isLosslessNumber',
    'parseArgs',
    'prepareToolCall',
    'stringifyArgs',
    'toPlainNumbers',
  ]);
});

test('schema-coerce/validate exports exactly these names', () => {
  expect(Object.keys(validate).sort()).toEqual(['findUndeclaredKeys', 'renameUnambiguousKeys', 'validateArgs']);
});

test('schema-coerce/render exports exactly these names', () => {
  expect(Object.keys(render).sort()).toEqual(['normalizeSchemaForModel', 'renderSchemaForModel']);
});

test('schema-coerce/mcp exports exactly these names', () => {
  expect(Object.keys(mcp).sort()).toEqual(['InvalidToolArgumentsError', 'NumberPrecisionError', 'toWire', 'withArgCoercion', 'withServerArgCoercion']);
});

test('schema-coerce/ai exports exactly these names', () => {
  expect(Object.keys(ai).sort()).toEqual(['coercedJsonSchema', 'createToolCallRepair', 'repairToolInput']);
});
