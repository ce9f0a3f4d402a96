/**
 * The Vercel AI SDK with deterministic tool-call repair: when a model's tool call fails the
 * tool's schema, schema-coerce repairs the arguments instead of asking the model again.
 * A mock model stands in for a real one, so this runs anywhere.
 *
 *   npx tsx examples/ai-sdk-repair.ts
 */
import { generateText, tool } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { createToolCallRepair } from 'schema-coerce/ai';
import { z } from 'zod';

const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } };
let step = 0;
const model = new MockLanguageModelV3({
  doGenerate: async () =>
    ++step === 1
      ? {
          content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'forecast', input: '{"city":"Lyon","days":"3","metric":"true"}' }],
          finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
          usage,
          warnings: [],
        }
      : { content: [{ type: 'text', text: 'Sunny.' }], finishReason: { unified: 'stop', raw: 'stop' }, usage, warnings: [] },
});

const forecast = tool({
  description: 'Weather forecast.',
  inputSchema: z.object({ city: z.string(), days: z.number().int(), metric: z.boolean() }),
  execute: async (args) => {
    console.log('forecast ran with', JSON.stringify(args));
    return 'sunny';
  },
});

const result = await generateText({
  model,
  prompt: 'Weather in Lyon for three days?',
  tools: { forecast },
  experimental_repairToolCall: createToolCallRepair({
    onRepair: ({ input, repaired }) => console.log(`repaired ${input} → ${repaired}`),
  }),
});
console.log('tool output:', JSON.stringify(result.steps[0]!.toolResults[0]!.output));
