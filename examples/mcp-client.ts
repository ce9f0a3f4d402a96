/**
 * An MCP client whose tool calls are repaired before they are sent: the model's raw arguments
 * are parsed losslessly, coerced against the tool's own schema, validated, and a renamed key is
 * answered with a message the model can act on instead of reaching the server.
 *
 *   npx tsx examples/mcp-client.ts
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { parseArgs } from 'schema-coerce';
import { withArgCoercion } from 'schema-coerce/mcp';

const client = withArgCoercion(new Client({ name: 'example', version: '1.0.0' }), {
  lenient: true,
  validate: true,
  rejectUndeclared: true,
  onCoerce: ({ tool, call }) => {
    for (const change of call?.changes ?? []) console.log(`  ${tool}${change.path}: ${change.from} → ${change.to} (${change.rule})`);
  },
});
await client.connect(new StdioClientTransport({ command: process.execPath, args: ['--import', 'tsx', new URL('./mcp-server.ts', import.meta.url).pathname] }));

const text = (result: unknown) => (result as { content: { text: string }[] }).content[0]!.text;

// What a model (through a float64 pipeline) sent: numbers as 2.0, a boolean as a string.
const fromModel = parseArgs('{"page":2.0,"includeClosed":"false","labels":"urgent"}') as Record<string, unknown>;
console.log(text(await client.callTool({ name: 'list_tickets', arguments: fromModel })));

// A renamed key never reaches the server; the model is told what to send.
console.log(text(await client.callTool({ name: 'list_tickets', arguments: { pageNumber: 1, includeClosed: true } })));

await client.close();
