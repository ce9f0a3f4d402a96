// A minimal MCP server on stdio for the entry-point tables (test/wild-entrypoints*.test.ts): it
// lists the tools in the JSON file named by its first argument or by ECHO_TOOLS
// ([{ name, inputSchema }]) and answers every tools/call with the arguments exactly as they
// arrived (read losslessly, written compact), so a test sees what a server behind the proxy
// received, number spellings included.
import { readFileSync } from 'node:fs';
import { parse, stringify } from 'lossless-json';
import { onLines } from './lines.mjs';

const tools = JSON.parse(readFileSync(process.argv[2] ?? process.env.ECHO_TOOLS, 'utf8'));

function send(message) {
  process.stdout.write(stringify(message) + '\n');
}

onLines(process.stdin, (line) => {
  let message;
  try {
    message = parse(line.toString('utf8'));
  } catch {
    // A line that is not JSON: a JSON-RPC parse error, with the line, so a test sees what came.
    send({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error', data: line.toString('utf8') } });
    return;
  }
  const id = message.id;
  if (id === undefined) return;
  if (message.method === 'initialize') {
    send({ jsonrpc: '2.0', id, result: { protocolVersion: '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 'echo-args', version: '1' } } });
  } else if (message.method === 'tools/list') {
    send({ jsonrpc: '2.0', id, result: { tools } });
  } else {
    send({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: stringify(message.params.arguments) }] } });
  }
});
