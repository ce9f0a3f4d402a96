/**
 * OpenAI-style tool calls carry their arguments as a JSON string. Repair that string against the
 * tool's JSON Schema, text in, text out, before handing it to whatever runs the tool.
 *
 *   npx tsx examples/openai-arguments.ts
 */
import { coerceArgs, coerceArgsJson, formatToolCall, parseArgs } from 'schema-coerce';

const tools = {
  get_symbol_info: {
    type: 'object',
    properties: { line: { type: 'integer' }, column: { type: 'integer' }, filePath: { type: 'string' } },
    required: ['line', 'filePath'],
  },
  create_alert: {
    type: 'object',
    properties: { threshold: { type: 'number' }, enabled: { type: 'boolean' }, ids: { type: 'array', items: { type: 'integer' } } },
  },
} as const;

// As they arrive in a chat completion's message.tool_calls.
const toolCalls = [
  { id: 'call_1', function: { name: 'get_symbol_info', arguments: '{"line": 5.0, "column": 1.0, "filePath": "server.go"}' } },
  { id: 'call_2', function: { name: 'create_alert', arguments: '{"threshold":"0.75","enabled":"false","ids":"[1271, 2106.0]"}' } },
  { id: 'call_3', function: { name: 'create_alert', arguments: '{"threshold":"","enabled":"no"}' } },
];

for (const { function: call } of toolCalls) {
  const schema = tools[call.name as keyof typeof tools];
  const repaired = coerceArgsJson(call.arguments, schema, { lenient: true });
  console.log(`${call.arguments}\n  → ${repaired}`);
  console.log(`  shown as ${formatToolCall(call.name, parseArgs(repaired))}`);
  for (const refusal of coerceArgs(parseArgs(call.arguments), schema, { lenient: true }).refusals) {
    console.log(`  left as sent: ${refusal.message}`);
  }
}
