// A 2025-era MCP server on stdio that writes its tool results as text, byte for byte, as servers
// outside JavaScript do: `stats` has an outputSchema (total: integer, mean: number) and answers
// `{"mode": "float"}` with `"total": 5.0` (a float64 pipeline), `"string"` with `"total": "7"`,
// and `"error"` with an isError result whose structuredContent has another shape
// (`{"error": "boom"}`), as some servers' error results do. `server/discover` is unknown to it.
import { onLines } from './lines.mjs';

const OUTPUT = { type: 'object', properties: { total: { type: 'integer' }, mean: { type: 'number' } }, required: ['total'] };
const TOOLS = [{ name: 'stats', description: 'Counts.', inputSchema: { type: 'object', properties: { mode: { type: 'string' } } }, outputSchema: OUTPUT }];
/** The raw result text of each mode. */
const RESULTS = {
  float: '{"content":[{"type":"text","text":"{\\"total\\": 5.0, \\"mean\\": 2.5}"}],"structuredContent":{"total": 5.0, "mean": 2.5}}',
  string: '{"content":[{"type":"text","text":"total 7"}],"structuredContent":{"mean":2.5,"total":"7"}}',
  error: '{"content":[{"type":"text","text":"boom"}], "structuredContent" : {"error":"boom"} ,"isError":true}',
};

const write = (text) => process.stdout.write(text + '\n');

onLines(process.stdin, (line) => {
  const message = JSON.parse(line.toString('utf8'));
  if (message.id === undefined) return;
  const id = JSON.stringify(message.id);
  if (message.method === 'initialize') {
    write(JSON.stringify({ jsonrpc: '2.0', id: message.id, result: { protocolVersion: message.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'raw-results', version: '1.0.0' } } }));
  } else if (message.method === 'tools/list') {
    write(JSON.stringify({ jsonrpc: '2.0', id: message.id, result: { tools: TOOLS } }));
  } else if (message.method === 'tools/call') {
    write(`{"jsonrpc":"2.0","id":${id},"result":${RESULTS[message.params.arguments.mode]}}`);
  } else if (message.method === 'ping') {
    write(JSON.stringify({ jsonrpc: '2.0', id: message.id, result: {} }));
  } else {
    write(JSON.stringify({ jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'Method not found' } }));
  }
});
