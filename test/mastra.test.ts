/**
 * `schema-coerce/mastra` with the real Mastra: an AI SDK mock model drives a Mastra `Agent`, and
 * MCP tools come from `@mastra/mcp`'s `MCPClient` over stdio from a strict Node server.
 */
import { Agent } from '@mastra/core/agent';
import { createTool } from '@mastra/core/tools';
import { MCPClient } from '@mastra/mcp';
import { MockLanguageModelV3 } from 'ai/test';
import { afterEach, describe, expect, test } from 'vitest';
import * as mastra from '../src/mastra.js';
import { coerceTool, coerceTools, type FrameworkCoercionReport } from '../src/mastra.js';
import { HOPELESS, MCP_REPAIRED, MCP_STRINGLY, REPAIRED, STRICT_SERVER, STRINGLY, gotoJsonSchema, gotoZod } from './_helpers/frameworks.js';

test('schema-coerce/mastra exports exactly these names', () => {
  expect(Object.keys(mastra).sort()).toEqual(['coerceTool', 'coerceTools']);
});

const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } };

interface Turn {
  /** The tool definitions the model was given. */
  readonly tools: { name: string; inputSchema: unknown }[];
  /** The tool output the model was shown. */
  readonly output: { type: string; value: unknown };
}

/** Runs one scripted turn: the model calls `toolName` with `input`, then answers "done". */
async function runOnce(tools: Record<string, unknown>, toolName: string, input: string): Promise<Turn> {
  const calls: { tools?: unknown; prompt: unknown[] }[] = [];
  const model = new MockLanguageModelV3({
    doGenerate: async (options) => {
      calls.push(options as never);
      return calls.length === 1
        ? { content: [{ type: 'tool-call', toolCallId: 'call-1', toolName, input }], finishReason: { unified: 'tool-calls', raw: 'tool_calls' }, usage, warnings: [] }
        : { content: [{ type: 'text', text: 'done' }], finishReason: { unified: 'stop', raw: 'stop' }, usage, warnings: [] };
    },
  });
  const agent = new Agent({ id: 'editor', name: 'editor', instructions: 'Edit.', model, tools: tools as never });
  expect((await agent.generate('go')).text).toBe('done');
  const last = calls[1]!.prompt.at(-1) as { content: { output: Turn['output'] }[] };
  return { tools: calls[0]!.tools as Turn['tools'], output: last.content[0]!.output };
}

function gotoTool(received: unknown[]) {
  return createTool({ id: 'goto', description: 'Opens the file at a line.', inputSchema: gotoZod, execute: async (input) => { received.push(input); return 'opened'; } });
}

const errorOf = (output: Turn['output']): string => (output.value as { error: boolean; message: string }).message;

describe('coerceTool: a zod tool in a Mastra agent', () => {
  test('without the library Mastra refuses the call before execute', async () => {
    const received: unknown[] = [];
    const { output } = await runOnce({ goto: gotoTool(received) }, 'goto', STRINGLY);
    expect(errorOf(output)).toMatch(/^Tool input validation failed for goto\..*\n- line: Invalid input: expected number, received string\n/);
    expect(received).toEqual([]);
  });

  test('with it, execute receives the repaired arguments; the JSON Schema shown to the model is unchanged', async () => {
    const received: unknown[] = [];
    const plain = await runOnce({ goto: gotoTool([]) }, 'goto', STRINGLY);
    const { tools, output } = await runOnce({ goto: coerceTool(gotoTool(received)) }, 'goto', STRINGLY);
    expect(output).toEqual({ type: 'text', value: 'opened' });
    expect(received).toEqual([REPAIRED]);
    expect(tools).toEqual(plain.tools);
  });

  test('hopeless arguments never run the tool; by default Mastra\'s own error names line', async () => {
    const received: unknown[] = [];
    const { output } = await runOnce(coerceTools({ goto: gotoTool(received) }), 'goto', HOPELESS);
    expect(errorOf(output)).toMatch(/\n- line: Invalid input: expected number, received string\n/);
    expect(received).toEqual([]);
  });

  test('with validate: true (loaded synchronously) Mastra\'s error carries the library\'s message', async () => {
    const received: unknown[] = [];
    const { output } = await runOnce({ goto: coerceTool(gotoTool(received), { validate: true }) }, 'goto', HOPELESS);
    expect(errorOf(output)).toContain('\n- root: Invalid parameters for tool "goto": the arguments do not match the tool schema.\n/line: must be integer; you sent "five".\n');
    expect(received).toEqual([]);
  });

  test('execute called directly repairs too; the original tool is left as it is', async () => {
    const received: unknown[] = [];
    const original = gotoTool(received);
    const coerced = coerceTool(original);
    expect(coerced).not.toBe(original);
    expect(coerced.inputSchema).not.toBe(original.inputSchema);
    expect(await coerced.execute!(JSON.parse(STRINGLY) as never, {} as never)).toBe('opened');
    expect(received).toEqual([REPAIRED]);
    expect(original.inputSchema!['~standard'].validate(JSON.parse(STRINGLY))).toHaveProperty('issues');
  });

  test('a JSON Schema tool, and onCoerce', async () => {
    const received: unknown[] = [];
    const reports: FrameworkCoercionReport[] = [];
    const tool = createTool({ id: 'goto', description: 'Opens the file at a line.', inputSchema: gotoJsonSchema as never, execute: async (input) => { received.push(input); return 'opened'; } });
    const { output } = await runOnce({ goto: coerceTool(tool, { onCoerce: (report) => reports.push(report) }) }, 'goto', STRINGLY);
    expect(output).toEqual({ type: 'text', value: 'opened' });
    expect(received).toEqual([REPAIRED]);
    expect(reports.map(({ tool: name, dispatched, call }) => ({ name, dispatched, json: call?.json }))).toContainEqual({ name: 'goto', dispatched: true, json: JSON.stringify(REPAIRED) });
  });

  test('a tool without an inputSchema is returned as it is', () => {
    const tool = createTool({ id: 'ping', description: 'Pings.', execute: async () => 'pong' });
    expect(coerceTool(tool)).toBe(tool);
  });
});

describe('coerceTools: @mastra/mcp tools from a strict Node server', () => {
  const clients: MCPClient[] = [];
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.disconnect()));
  });
  async function listTools(): ReturnType<MCPClient['listTools']> {
    const client = new MCPClient({ id: `strict-${clients.length}`, servers: { strict: STRICT_SERVER } });
    clients.push(client);
    return client.listTools();
  }

  test('without the library "7" for anyOf [integer, null] is refused', async () => {
    const { output } = await runOnce(await listTools(), 'strict_goto', MCP_STRINGLY);
    expect(errorOf(output)).toMatch(/^Tool input validation failed for strict_goto\..*\n- line: must be integer\n/);
  }, 30_000);

  test('with it the server receives 7, and the model is shown the same tools', async () => {
    const plain = await runOnce(await listTools(), 'strict_goto', MCP_STRINGLY);
    const { tools, output } = await runOnce(coerceTools(await listTools()), 'strict_goto', MCP_STRINGLY);
    const content = (output.value as { content: { text: string }[] }).content;
    expect(JSON.parse(content[0]!.text)).toEqual(MCP_REPAIRED);
    expect(tools).toEqual(plain.tools);
  }, 30_000);

  test('hopeless arguments never reach the server; with validate: true the model reads the message naming line', async () => {
    const { output } = await runOnce(coerceTools(await listTools(), { validate: true }), 'strict_goto', HOPELESS);
    expect(errorOf(output)).toContain('- root: Invalid parameters for tool "strict_goto": the arguments do not match the tool schema.\n/line: must be integer; you sent "five".');
  }, 30_000);
});
