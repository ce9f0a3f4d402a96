/**
 * `schema-coerce/openai-agents` with the real Agents SDK: a scripted `Model` drives a `Runner`,
 * and MCP tools go through the SDK's own `MCPServerStdio` to a strict Node server.
 */
import {
  Agent, MCPServerStdio, Runner, hostedMcpTool, tool, Usage, type MCPServer, type Model, type ModelRequest, type ModelResponse, type Tool,
} from '@openai/agents-core';
import type { JsonObjectSchemaNonStrict } from '@openai/agents-core/types';
import { afterEach, describe, expect, test } from 'vitest';
import * as openaiAgents from '../src/openai-agents.js';
import { coerceFunctionTool, coerceMcpServer, coerceTools, type FrameworkCoercionReport as CoercionReport } from '../src/openai-agents.js';
import { HOPELESS, MCP_REPAIRED, MCP_STRINGLY, REPAIRED, STRICT_SERVER, STRINGLY, gotoJsonSchema, gotoZod } from './_helpers/frameworks.js';

test('schema-coerce/openai-agents exports exactly these names', () => {
  expect(Object.keys(openaiAgents).sort()).toEqual(['coerceFunctionTool', 'coerceMcpServer', 'coerceTools']);
});

/** A model that calls one tool with the given arguments, then answers "done". */
class ScriptedModel implements Model {
  readonly requests: ModelRequest[] = [];

  constructor(private readonly toolName: string, private readonly args: string) {}

  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    this.requests.push(request);
    if (this.requests.length === 1) {
      return { usage: new Usage(), output: [{ type: 'function_call', callId: 'call-1', name: this.toolName, arguments: this.args, status: 'completed' }] };
    }
    return { usage: new Usage(), output: [{ type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'done' }] }] };
  }

  async *getStreamedResponse(): AsyncIterable<never> {
    throw new Error('not scripted');
  }
}

/** Runs one scripted turn and returns the tool output the model was shown. */
async function runOnce(options: { tools?: Tool[]; mcpServers?: MCPServer[] }, toolName: string, args: string): Promise<unknown> {
  const model = new ScriptedModel(toolName, args);
  const result = await new Runner({ tracingDisabled: true }).run(new Agent({ name: 'editor', model, ...options }), 'go');
  expect(result.finalOutput).toBe('done');
  const input = model.requests[1]!.input as { type: string; output?: unknown }[];
  return input.find((item) => item.type === 'function_call_result')!.output;
}

const shown = (output: unknown): string => {
  const item = (Array.isArray(output) ? output[0] : output) as { text: string };
  return item.text;
};

function zodTool(received: unknown[]) {
  return tool({ name: 'goto', description: 'Opens the file at a line.', parameters: gotoZod, execute: async (args) => { received.push(args); return 'opened'; } });
}

function jsonTool(received: unknown[]) {
  const parameters = { ...gotoJsonSchema, additionalProperties: true } as JsonObjectSchemaNonStrict<Record<string, never>>;
  return tool({ name: 'goto', description: 'Opens the file at a line.', parameters, strict: false, execute: async (args) => { received.push(args); return 'opened'; } });
}

describe('coerceFunctionTool: a strict zod tool (repair only by default)', () => {
  test('without the library the SDK refuses the call with its generic message', async () => {
    const received: unknown[] = [];
    expect(shown(await runOnce({ tools: [zodTool(received)] }, 'goto', STRINGLY))).toBe('An error occurred while running the tool. Please try again.');
    expect(received).toEqual([]);
  });

  test('with it, execute receives the repaired arguments', async () => {
    const received: unknown[] = [];
    expect(shown(await runOnce({ tools: [coerceFunctionTool(zodTool(received))] }, 'goto', STRINGLY))).toBe('opened');
    expect(received).toEqual([REPAIRED]);
  });

  test('hopeless arguments never run the tool, and the model is told what to fix, naming line', async () => {
    const received: unknown[] = [];
    const output = shown(await runOnce({ tools: [coerceFunctionTool(zodTool(received))] }, 'goto', HOPELESS));
    expect(output).toMatch(/^Invalid parameters for tool "goto": /);
    expect(output).toContain('/line: must be number; you sent "five".');
    expect(received).toEqual([]);
  });

  test('with rejectRefused: false, zod stays the judge of what repair could not fix', async () => {
    const received: unknown[] = [];
    expect(shown(await runOnce({ tools: [coerceFunctionTool(zodTool(received), { rejectRefused: false })] }, 'goto', HOPELESS))).toBe('An error occurred while running the tool. Please try again.');
    expect(received).toEqual([]);
  });

  test('with validate: true the model is told what to fix, naming line', async () => {
    const received: unknown[] = [];
    const output = shown(await runOnce({ tools: [coerceFunctionTool(zodTool(received), { validate: true })] }, 'goto', HOPELESS));
    expect(output).toMatch(/^Invalid parameters for tool "goto": /);
    expect(output).toContain('/line: must be number; you sent "five".');
    expect(received).toEqual([]);
  });

  test('the copy keeps the definition the model sees, and the original is left as it is', () => {
    const original = zodTool([]);
    const copy = coerceFunctionTool(original);
    expect(copy).not.toBe(original);
    expect(copy.invoke).not.toBe(original.invoke);
    expect({ ...copy, invoke: undefined }).toEqual({ ...original, invoke: undefined });
    expect(Object.getOwnPropertySymbols(copy)).toEqual(Object.getOwnPropertySymbols(original));
  });
});

describe('coerceFunctionTool: a non-strict JSON Schema tool (validated by default)', () => {
  test('without the library the SDK hands the strings straight to execute', async () => {
    const received: unknown[] = [];
    expect(shown(await runOnce({ tools: [jsonTool(received)] }, 'goto', STRINGLY))).toBe('opened');
    expect(received).toEqual([JSON.parse(STRINGLY)]);
  });

  test('with it, execute receives the repaired arguments, and onCoerce hears of it', async () => {
    const received: unknown[] = [];
    const reports: CoercionReport[] = [];
    await runOnce({ tools: coerceTools([jsonTool(received)], { onCoerce: (report) => reports.push(report) }) }, 'goto', STRINGLY);
    expect(received).toEqual([REPAIRED]);
    expect(reports.map(({ tool, schemaFound, dispatched, call }) => ({ tool, schemaFound, dispatched, json: call?.json }))).toEqual([
      { tool: 'goto', schemaFound: true, dispatched: true, json: JSON.stringify(REPAIRED) },
    ]);
  });

  test('hopeless arguments never run the tool; the model sees the message naming line', async () => {
    const received: unknown[] = [];
    const output = shown(await runOnce({ tools: coerceTools([jsonTool(received)]) }, 'goto', HOPELESS));
    expect(output).toBe('Invalid parameters for tool "goto": the arguments do not match the tool schema.\n/line: must be integer; you sent "five".\nCorrect the parameters and call the tool again.');
    expect(received).toEqual([]);
  });

  test('text that is not JSON is refused by the runner itself, before the hook', async () => {
    const received: unknown[] = [];
    const output = shown(await runOnce({ tools: coerceTools([jsonTool(received)]) }, 'goto', '{"line":'));
    expect(output).toBe('An error occurred while parsing tool arguments. Please try again with valid JSON.');
    expect(received).toEqual([]);
  });

  test('validate: false repairs only', async () => {
    const received: unknown[] = [];
    expect(shown(await runOnce({ tools: coerceTools([jsonTool(received)], { validate: false }) }, 'goto', HOPELESS))).toBe('opened');
    expect(received).toEqual([{ line: 'five' }]);
  });
});

test('coerceTools passes tools other than function tools through as they are', () => {
  const hosted = hostedMcpTool({ serverLabel: 'docs', serverUrl: 'https://example.invalid/mcp' });
  const [first, second] = coerceTools([hosted, zodTool([])]);
  expect(first).toBe(hosted);
  expect(second!.type).toBe('function');
});

// The SDK gives a stdio server 5 s to start and answer; a tsx server on a loaded 2-core machine can take longer.
const LOADED_MACHINE_S = 60;

describe('coerceMcpServer: MCPServerStdio against a strict Node server', () => {
  const servers: MCPServer[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.close()));
  });
  async function connect(wrap: boolean, useStructuredContent = false): Promise<MCPServer> {
    const raw = new MCPServerStdio({ ...STRICT_SERVER, name: 'strict', cacheToolsList: true, clientSessionTimeoutSeconds: LOADED_MACHINE_S });
    raw.useStructuredContent = useStructuredContent;
    const server = wrap ? coerceMcpServer(raw) : raw;
    await server.connect();
    servers.push(server);
    return server;
  }

  test('without the library the strict server refuses "7" for anyOf [integer, null]', async () => {
    expect(shown(await runOnce({ mcpServers: [await connect(false)] }, 'goto', MCP_STRINGLY))).toMatch(/^strict-node-server refused: /);
  }, 30_000);

  test.each([false, true])('with it the server receives 7 (callToolResult path: %s)', async (useStructuredContent) => {
    expect(JSON.parse(shown(await runOnce({ mcpServers: [await connect(true, useStructuredContent)] }, 'goto', MCP_STRINGLY)))).toEqual(MCP_REPAIRED);
  }, 30_000);

  test('both call paths answer hopeless arguments with the message naming line, without calling the server', async () => {
    const server = await connect(true);
    const content = await server.callTool('goto', { line: 'five' });
    const result = await server.callToolResult!('goto', { line: 'five' });
    expect(content.isError).toBe(true);
    expect(result.isError).toBe(true);
    for (const text of [content[0]!.text, result.content[0]!.text]) {
      expect(text).toMatch(/^Invalid parameters for tool "goto": the arguments do not match the tool schema\.\n\/line: must be integer; you sent "five"\./);
    }
  }, 30_000);

  test('the model sees that message through the agent', async () => {
    expect(shown(await runOnce({ mcpServers: [await connect(true)] }, 'goto', HOPELESS))).toMatch(/^Invalid parameters for tool "goto": .*\n\/line: must be integer; you sent "five"\./);
  }, 30_000);

  test('a tool the server does not list is called as it is, and reported as such', async () => {
    const reports: CoercionReport[] = [];
    const raw = new MCPServerStdio({ ...STRICT_SERVER, name: 'strict', clientSessionTimeoutSeconds: LOADED_MACHINE_S });
    const server = coerceMcpServer(raw, { onCoerce: (report) => reports.push(report) });
    await server.connect();
    servers.push(server);
    const result = await server.callToolResult!('nope', { a: '1' });
    expect(result.content[0]!.text).toBe('Unknown tool nope');
    expect(reports).toEqual([{ tool: 'nope', schemaFound: false, dispatched: true }]);
    expect(server.name).toBe(raw.name);
  }, 30_000);
});
