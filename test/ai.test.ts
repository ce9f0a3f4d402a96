import type { JSONSchema7 } from 'json-schema';
import { generateText, jsonSchema, tool } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { coercedJsonSchema, createToolCallRepair, repairToolInput } from '../src/ai.js';
import { validateArgs } from '../src/validate.js';

/** A mock model that calls `toolName` with `input` once, then answers with text. */
function modelCalling(toolName: string, input: string): MockLanguageModelV3 {
  let step = 0;
  return new MockLanguageModelV3({
    doGenerate: async () => {
      step++;
      const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } };
      if (step === 1) {
        return { content: [{ type: 'tool-call', toolCallId: 'call-1', toolName, input }], finishReason: { unified: 'tool-calls', raw: 'tool_calls' }, usage, warnings: [] };
      }
      return { content: [{ type: 'text', text: 'done' }], finishReason: { unified: 'stop', raw: 'stop' }, usage, warnings: [] };
    },
  });
}

describe('createToolCallRepair with the AI SDK', () => {
  test('a zod tool executes with the repaired arguments', async () => {
    const received: unknown[] = [];
    const weather = tool({
      description: 'Forecast.',
      inputSchema: z.object({ city: z.string(), days: z.number().int(), metric: z.boolean(), tags: z.array(z.string()) }),
      execute: async (args) => {
        received.push(args);
        return 'sunny';
      },
    });
    const result = await generateText({
      prompt: 'Go.',
      model: modelCalling('weather', '{"city":"Paris","days":"3","metric":"false","tags":"trip"}'),
      tools: { weather },
      experimental_repairToolCall: createToolCallRepair(),
      maxRetries: 0,
    });
    expect(received).toEqual([{ city: 'Paris', days: 3, metric: false, tags: ['trip'] }]);
    expect(result.steps[0]!.toolResults[0]).toMatchObject({ output: 'sunny' });
  });

  test('a jsonSchema-wrapped (MCP-style) tool with a validator is repaired through experimental_repairToolCall', async () => {
    const received: unknown[] = [];
    const schema: JSONSchema7 = { type: 'object', properties: { line: { type: 'integer' }, filePath: { type: 'string' } }, required: ['line', 'filePath'] };
    const strict = (value: unknown) => {
      const verdict = validateArgs(value, schema);
      return verdict.ok ? { success: true as const, value: value as { line: number; filePath: string } } : { success: false as const, error: new Error(verdict.message) };
    };
    const lookup = tool({
      description: 'An MCP tool.',
      inputSchema: jsonSchema<{ line: number; filePath: string }>(schema, { validate: strict }),
      execute: async (args) => {
        received.push(args);
        return 'ok';
      },
    });
    const repairs: unknown[] = [];
    await generateText({
      prompt: 'Go.',
      model: modelCalling('lookup', '{"line":"5","filePath":"server.go"}'),
      tools: { lookup },
      experimental_repairToolCall: createToolCallRepair({ onRepair: (repair) => repairs.push(repair) }),
      maxRetries: 0,
    });
    expect(received).toEqual([{ line: 5, filePath: 'server.go' }]);
    expect(repairs).toEqual([{ toolName: 'lookup', input: '{"line":"5","filePath":"server.go"}', repaired: '{"line":5,"filePath":"server.go"}' }]);
  });

  test('the whole call repeated, {"name": <the tool>, "arguments": {…}}, is unwrapped with the call\'s tool name', async () => {
    const received: unknown[] = [];
    const schema: JSONSchema7 = { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] };
    const strict = (value: unknown) => {
      const verdict = validateArgs(value, schema);
      return verdict.ok ? { success: true as const, value: value as { path: string } } : { success: false as const, error: new Error(verdict.message) };
    };
    const read = tool({
      inputSchema: jsonSchema<{ path: string }>(schema, { validate: strict }),
      execute: async (args) => (received.push(args), 'ok'),
    });
    const repairs: unknown[] = [];
    const input = '{"name":"read","arguments":{"path":"a"}}';
    await generateText({ prompt: 'Go.', model: modelCalling('read', input), tools: { read }, experimental_repairToolCall: createToolCallRepair({ onRepair: (repair) => repairs.push(repair) }), maxRetries: 0 });
    expect(received).toEqual([{ path: 'a' }]);
    expect(repairs).toEqual([{ toolName: 'read', input, repaired: '{"path":"a"}' }]);
  });

  test('a tool built from a bare MCP inputSchema with coercedJsonSchema receives coerced input', async () => {
    const received: unknown[] = [];
    const lookup = tool({
      description: 'An MCP tool.',
      inputSchema: coercedJsonSchema<{ line: number; filePath: string }>({ type: 'object', properties: { line: { type: 'integer' }, filePath: { type: 'string' } } }),
      execute: async (args) => {
        received.push(args);
        return 'ok';
      },
    });
    await generateText({ prompt: 'Go.', model: modelCalling('lookup', '{"line":"5","filePath":"server.go"}'), tools: { lookup }, maxRetries: 0 });
    expect(received).toEqual([{ line: 5, filePath: 'server.go' }]);
  });

  test('coercedJsonSchema with validate reports what still does not match as a tool error', async () => {
    let ran = false;
    const lookup = tool({
      inputSchema: coercedJsonSchema({ type: 'object', properties: { line: { type: 'integer' } }, required: ['line'] }, { validate: true }),
      execute: async () => ((ran = true), 'ran'),
    });
    const result = await generateText({ prompt: 'Go.', model: modelCalling('lookup', '{"line":"five"}'), tools: { lookup }, maxRetries: 0 });
    expect(ran).toBe(false);
    const error = result.steps[0]!.content.find((part) => part.type === 'tool-error') as { error: Error } | undefined;
    expect(String(error?.error)).toContain('/line: must be integer; you sent "five".');
  });

  test('what cannot be repaired is left to the SDK: the tool does not run with a guess', async () => {
    let ran = false;
    const counter = tool({ inputSchema: z.object({ n: z.number().int() }), execute: async () => ((ran = true), 'ran') });
    const result = await generateText({
      prompt: 'Go.',
      model: modelCalling('counter', '{"n":"0x10"}'),
      tools: { counter },
      experimental_repairToolCall: createToolCallRepair(),
      maxRetries: 0,
    });
    expect(ran).toBe(false);
    expect(result.steps[0]!.content.some((part) => part.type === 'tool-error')).toBe(true);
  });
});

describe('repairToolInput', () => {
  test('returns the repaired text, or undefined when nothing changes or the input is not JSON', () => {
    const schema = { properties: { n: { type: 'integer' } } };
    expect(repairToolInput('{"n":"7"}', schema)).toBe('{"n":7}');
    expect(repairToolInput('{"n":7}', schema)).toBeUndefined();
    expect(repairToolInput('{"n":', schema)).toBeUndefined();
    expect(repairToolInput('{"n":"7"}', schema, { lenient: false })).toBeUndefined();
  });
});
