/**
 * `schema-coerce/langchain` with the real LangChain.js: a scripted chat model drives LangGraph's
 * prebuilt ReAct agent (its `ToolNode` runs the tools), and MCP tools come from
 * `@langchain/mcp-adapters` over stdio from a strict Node server.
 */
import { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { AIMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages';
import type { ChatResult } from '@langchain/core/outputs';
import { ToolInputParsingException, tool, type StructuredToolInterface } from '@langchain/core/tools';
import { convertToOpenAITool } from '@langchain/core/utils/function_calling';
import { createReactAgent } from '@langchain/langgraph/prebuilt';
import { loadMcpTools } from '@langchain/mcp-adapters';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterEach, describe, expect, test } from 'vitest';
import * as langchain from '../src/langchain.js';
import { coerceTool, coerceTools, loadCoercedMcpTools, type FrameworkCoercionReport } from '../src/langchain.js';
import { HOPELESS, MCP_REPAIRED, MCP_STRINGLY, REPAIRED, STRICT_SERVER, STRINGLY, gotoJsonSchema, gotoZod } from './_helpers/frameworks.js';

/** A chat model that calls one tool with the given arguments, then answers "done". */
class ScriptedChatModel extends BaseChatModel {
  readonly seen: BaseMessage[][] = [];

  constructor(private readonly toolName: string, private readonly args: Record<string, unknown>) {
    super({});
  }

  _llmType(): string {
    return 'scripted';
  }

  override bindTools(): this {
    return this;
  }

  async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    this.seen.push(messages);
    const message = this.seen.length === 1
      ? new AIMessage({ content: '', tool_calls: [{ id: 'call-1', name: this.toolName, args: this.args, type: 'tool_call' }] })
      : new AIMessage('done');
    return { generations: [{ message, text: '' }] };
  }
}

/** Runs one scripted turn through the ReAct agent and returns the tool message the model was shown. */
async function runOnce(tools: StructuredToolInterface[], toolName: string, args: string): Promise<ToolMessage> {
  const model = new ScriptedChatModel(toolName, JSON.parse(args) as Record<string, unknown>);
  const result = await createReactAgent({ llm: model, tools }).invoke({ messages: [{ role: 'user', content: 'go' }] });
  expect(result.messages.at(-1)!.content).toBe('done');
  return model.seen[1]!.find((message): message is ToolMessage => ToolMessage.isInstance(message))!;
}

function zodTool(received: unknown[]) {
  return tool(async (args) => { received.push(args); return 'opened'; }, { name: 'goto', description: 'Opens the file at a line.', schema: gotoZod });
}

test('schema-coerce/langchain exports exactly these names', () => {
  expect(Object.keys(langchain).sort()).toEqual(['coerceTool', 'coerceTools', 'loadCoercedMcpTools']);
});

describe('coerceTool: a zod tool in a LangGraph ReAct agent', () => {
  test('without the library the tool is refused by its own schema check', async () => {
    const received: unknown[] = [];
    const message = await runOnce([zodTool(received)], 'goto', STRINGLY);
    expect(message.status).toBe('error');
    expect(message.content).toMatch(/^Error: Received tool input did not match expected schema/);
    expect(received).toEqual([]);
  });

  test('with it, the tool receives the repaired arguments', async () => {
    const received: unknown[] = [];
    const message = await runOnce([coerceTool(zodTool(received))], 'goto', STRINGLY);
    expect(message.content).toBe('opened');
    expect(received).toEqual([REPAIRED]);
  });

  test('hopeless arguments never run the tool; the model reads the message naming line, no stack trace', async () => {
    const received: unknown[] = [];
    const message = await runOnce(coerceTools([zodTool(received)]), 'goto', HOPELESS);
    expect(message.status).toBe('error');
    expect(message.tool_call_id).toBe('call-1');
    expect(message.content).toBe('Invalid parameters for tool "goto": the arguments do not match the tool schema.\n/line: must be integer; you sent "five".\nCorrect the parameters and call the tool again.');
    expect(received).toEqual([]);
  });

  test('invoked with plain arguments: the repaired call, or a ToolInputParsingException with the message', async () => {
    const received: unknown[] = [];
    const coerced = coerceTool(zodTool(received));
    await expect(coerced.invoke(JSON.parse(STRINGLY))).resolves.toBe('opened');
    expect(received).toEqual([REPAIRED]);
    const error: unknown = await coerced.invoke(JSON.parse(HOPELESS)).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(ToolInputParsingException);
    expect((error as Error).message).toMatch(/^Invalid parameters for tool "goto": .*\n\/line: must be integer; you sent "five"\./);
    expect(received).toEqual([REPAIRED]);
  });

  test('the bound tool JSON is identical, and the original is left as it is', () => {
    const original = zodTool([]);
    const coerced = coerceTool(original);
    expect(convertToOpenAITool(coerced)).toEqual(convertToOpenAITool(original));
    expect(coerced.invoke).not.toBe(original.invoke);
    expect(Object.hasOwn(original, 'invoke')).toBe(false);
  });

  test('a JSON Schema tool, validate: false, and onCoerce', async () => {
    const received: unknown[] = [];
    const reports: FrameworkCoercionReport[] = [];
    const jsonTool = tool(async (args) => { received.push(args); return 'opened'; }, { name: 'goto', description: 'Opens the file at a line.', schema: gotoJsonSchema });
    const coerced = coerceTool(jsonTool, { validate: false, onCoerce: (report) => reports.push(report) });
    expect((await runOnce([coerced], 'goto', STRINGLY)).content).toBe('opened');
    expect(received).toEqual([REPAIRED]);
    expect(reports.map(({ tool: name, dispatched, call }) => ({ name, dispatched, json: call?.json }))).toEqual([{ name: 'goto', dispatched: true, json: JSON.stringify(REPAIRED) }]);
  });
});

describe('loadCoercedMcpTools: @langchain/mcp-adapters against a strict Node server', () => {
  const clients: Client[] = [];
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
  });
  async function connect(): Promise<Client> {
    const client = new Client({ name: 'schema-coerce-test', version: '1.0.0' });
    await client.connect(new StdioClientTransport({ ...STRICT_SERVER, stderr: 'pipe' }));
    clients.push(client);
    return client;
  }

  test('without the library the adapter drops anyOf and the strict server refuses "7"', async () => {
    const tools = await loadMcpTools('editor', await connect());
    const goto = tools.find((candidate) => candidate.name === 'goto')!;
    expect(JSON.stringify(goto.schema)).not.toContain('anyOf');
    expect((await runOnce(tools, 'goto', MCP_STRINGLY)).content).toMatch(/strict-node-server refused/);
  }, 30_000);

  test('with it the server receives 7, on every page of tools/list, schemas shown to the model unchanged', async () => {
    const plain = await loadMcpTools('editor', await connect());
    const tools = await loadCoercedMcpTools('editor', await connect());
    expect(tools.map((candidate) => candidate.name)).toEqual(['goto', 'search']);
    expect(tools.map((candidate) => convertToOpenAITool(candidate))).toEqual(plain.map((candidate) => convertToOpenAITool(candidate)));
    expect(JSON.parse(String((await runOnce(tools, 'goto', MCP_STRINGLY)).content))).toEqual(MCP_REPAIRED);
    expect(JSON.parse(String((await runOnce(tools, 'search', '{"q":"x","limit":"3"}')).content))).toEqual({ q: 'x', limit: 3 });
  }, 30_000);

  test('name prefixes are mapped back to the original tools', async () => {
    const tools = await loadCoercedMcpTools('editor', await connect(), { prefixToolNameWithServerName: true, additionalToolNamePrefix: 'mcp' });
    expect(tools.map((candidate) => candidate.name)).toEqual(['mcp__editor__goto', 'mcp__editor__search']);
    expect(JSON.parse(String((await runOnce(tools, 'mcp__editor__goto', MCP_STRINGLY)).content))).toEqual(MCP_REPAIRED);
  }, 30_000);

  test('hopeless arguments never reach the server; the model reads the message naming line', async () => {
    const tools = await loadCoercedMcpTools('editor', await connect());
    const message = await runOnce(tools, 'goto', HOPELESS);
    expect(message.status).toBe('error');
    expect(message.content).toMatch(/^Invalid parameters for tool "goto": the arguments do not match the tool schema\.\n\/line: must be integer; you sent "five"\./);
  }, 30_000);
});
