/**
 * LangChain.js with schema-coerce: a model sends `"5"`, `"urgent"` and `"false"` where the tool
 * wants an integer, an array and a boolean. Without the library LangChain's own schema check
 * refuses the call; with `coerceTools` the tool runs with the types it declared. A scripted chat
 * model stands in for a real one inside LangGraph's prebuilt ReAct agent, so this runs anywhere.
 *
 *   npx tsx examples/langchain.ts
 */
import { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { AIMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages';
import type { ChatResult } from '@langchain/core/outputs';
import { tool } from '@langchain/core/tools';
import { createReactAgent } from '@langchain/langgraph/prebuilt';
import { coerceTools } from 'schema-coerce/langchain';
import { z } from 'zod';

/** Calls `goto` once with stringly typed arguments, then answers with what the tool said. */
class ScriptedChatModel extends BaseChatModel {
  _llmType(): string {
    return 'scripted';
  }

  override bindTools(): this {
    return this;
  }

  async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    const result = messages.find((message) => ToolMessage.isInstance(message));
    const message = result === undefined
      ? new AIMessage({ content: '', tool_calls: [{ id: 'c1', name: 'goto', args: { line: '5', tags: 'urgent', deleted: 'false' }, type: 'tool_call' }] })
      : new AIMessage(`the tool said: ${String(result.content).split('\n')[0]}`);
    return { generations: [{ message, text: '' }] };
  }
}

const goto = tool(
  async (args) => {
    console.log('goto ran with', JSON.stringify(args));
    return 'opened';
  },
  {
    name: 'goto',
    description: 'Opens the file at a line.',
    schema: z.object({ line: z.number().int(), tags: z.array(z.string()).optional(), deleted: z.boolean().optional() }),
  },
);

for (const [label, tools] of [['without schema-coerce', [goto]], ['with coerceTools', coerceTools([goto])]] as const) {
  const agent = createReactAgent({ llm: new ScriptedChatModel({}), tools: [...tools] });
  const result = await agent.invoke({ messages: [{ role: 'user', content: 'Open line 5.' }] });
  console.log(`${label}: ${String(result.messages.at(-1)!.content)}`);
}
