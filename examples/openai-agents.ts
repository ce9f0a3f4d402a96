/**
 * The OpenAI Agents SDK with schema-coerce: a model sends `"5"`, `"urgent"` and `"false"` where
 * the tool wants an integer, an array and a boolean. Without the library the SDK's zod check
 * refuses the call; with `coerceTools` the tool runs with the types it declared. A scripted model
 * stands in for a real one, so this runs anywhere.
 *
 *   npx tsx examples/openai-agents.ts
 */
import { Agent, Runner, tool, Usage, type Model, type ModelRequest, type ModelResponse } from '@openai/agents-core';
import { coerceTools } from 'schema-coerce/openai-agents';
import { z } from 'zod';

/** Calls `goto` once with stringly typed arguments, then answers with what the tool said. */
class ScriptedModel implements Model {
  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    const items = Array.isArray(request.input) ? request.input : [];
    const result = items.find((item) => item.type === 'function_call_result');
    if (result === undefined) {
      return { usage: new Usage(), output: [{ type: 'function_call', callId: 'c1', name: 'goto', arguments: '{"line":"5","tags":"urgent","deleted":"false"}', status: 'completed' }] };
    }
    const text = (result.output as { text: string }).text;
    return { usage: new Usage(), output: [{ type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: `the tool said: ${text}` }] }] };
  }

  async *getStreamedResponse(): AsyncIterable<never> {
    throw new Error('this example does not stream');
  }
}

const goto = tool({
  name: 'goto',
  description: 'Opens the file at a line.',
  parameters: z.object({ line: z.number().int(), tags: z.array(z.string()).optional(), deleted: z.boolean().optional() }),
  execute: async (args) => {
    console.log('goto ran with', JSON.stringify(args));
    return 'opened';
  },
});

const runner = new Runner({ tracingDisabled: true });
for (const [label, tools] of [['without schema-coerce', [goto]], ['with coerceTools', coerceTools([goto])]] as const) {
  const result = await runner.run(new Agent({ name: 'editor', model: new ScriptedModel(), tools: [...tools] }), 'Open line 5.');
  console.log(`${label}: ${result.finalOutput}`);
}
