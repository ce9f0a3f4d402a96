import { expect, test } from 'vitest';
import * as ai from '../src/ai.js';
import * as root from '../src/index.js';
import * as langchain from '../src/langchain.js';
import * as mastra from '../src/mastra.js';
import * as mcp from '../src/mcp.js';
import * as openaiAgents from '../src/openai-agents.js';
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
  expect(Object.keys(mcp).sort()).toEqual(['InvalidToolArgumentsError', 'NumberPrecisionError', 'repairToolResult', 'toWire', 'withArgCoercion', 'withServerArgCoercion']);
});

test('schema-coerce/ai exports exactly these names', () => {
  expect(Object.keys(ai).sort()).toEqual(['coercedJsonSchema', 'createToolCallRepair', 'repairToolInput']);
});

test('schema-coerce/openai-agents exports exactly these names', () => {
  expect(Object.keys(openaiAgents).sort()).toEqual(['coerceFunctionTool', 'coerceMcpServer', 'coerceTools']);
});

test('schema-coerce/langchain exports exactly these names', () => {
  expect(Object.keys(langchain).sort()).toEqual(['coerceTool', 'coerceTools', 'loadCoercedMcpTools']);
});

test('schema-coerce/mastra exports exactly these names', () => {
  expect(Object.keys(mastra).sort()).toEqual(['coerceTool', 'coerceTools']);
});
