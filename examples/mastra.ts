/**
 * Mastra with schema-coerce: a model sends `"5"`, `"urgent"` and `"false"` where the tool wants
 * an integer, an array and a boolean. Without the library Mastra's input validation refuses the
 * call; with `coerceTools` the tool runs with the types it declared. The AI SDK's mock model
 * stands in for a real one, so this runs anywhere.
 *
 *   npx tsx examples/mastra.ts
 */
import { Agent } from '@mastra/core/agent';
import { createTool } from '@mastra/core/tools';
import { MockLanguageModelV3 } from 'ai/test';
import { coerceTools } from 'schema-coerce/mastra';
import { z } from 'zod';

const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } };

/** Calls `goto` once with stringly typed arguments, then answers with what the tool said. */
function scriptedModel(): MockLanguageModelV3 {
  return new MockLanguageModelV3({
    doGenerate: async ({ prompt }) => {
      const result = prompt.flatMap((message) => (message.role === 'tool' ? message.content : [])).find((part) => part.type === 'tool-result');
      if (result === undefined) {
        return {
          content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'goto', input: '{"line":"5","tags":"urgent","deleted":"false"}' }],
          finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
          usage,
          warnings: [],
        };
      }
      const { output } = result;
      const said = output.type === 'text' ? output.value : output.type === 'json' ? (output.value as { message: string }).message.split('\n')[0] : output.type;
      return { content: [{ type: 'text', text: `the tool said: ${said}` }], finishReason: { unified: 'stop', raw: 'stop' }, usage, warnings: [] };
    },
  });
}

const goto = createTool({
  id: 'goto',
  description: 'Opens the file at a line.',
  inputSchema: z.object({ line: z.number().int(), tags: z.array(z.string()).optional(), deleted: z.boolean().optional() }),
  execute: async (input) => {
    console.log('goto ran with', JSON.stringify(input));
    return 'opened';
  },
});

for (const [label, tools] of [['without schema-coerce', { goto }], ['with coerceTools', coerceTools({ goto })]] as const) {
  const agent = new Agent({ id: 'editor', name: 'editor', instructions: 'Edit files.', model: scriptedModel(), tools });
  console.log(`${label}: ${(await agent.generate('Open line 5.')).text}`);
}
