// A minimal MCP server on stdio for the proxy's byte and memory tests, reading bytes, never
// text. It answers initialize, tools/list (one tool, `search`: q string, limit integer) and
// tools/call with the size of the line it received and the line's last 40 bytes. With
// FLOOD_BYTES set it first writes that many bytes of one unterminated line, then waits for its
// input to end. With EXIT_AFTER_FLOOD it exits as soon as the flood is written.
import { onLines } from './lines.mjs';

const SCHEMA = { type: 'object', properties: { q: { type: 'string' }, limit: { type: 'integer' } }, required: ['q'] };
const flood = Number(process.env.FLOOD_BYTES ?? 0);

function send(message) {
  process.stdout.write(JSON.stringify(message) + '\n');
}

function handle(line) {
  const head = line.subarray(0, 300).toString('latin1');
  const token = /"id":("[^"]*"|\d+)/.exec(head)?.[1];
  const id = token === undefined ? undefined : JSON.parse(token);
  const method = /"method":"([^"]+)"/.exec(head)?.[1];
  if (id === undefined) return;
  if (method === 'initialize') {
    send({ jsonrpc: '2.0', id, result: { protocolVersion: '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 'bytes', version: '1' } } });
  } else if (method === 'tools/list') {
    send({ jsonrpc: '2.0', id, result: { tools: [{ name: 'search', inputSchema: SCHEMA }] } });
  } else {
    const text = JSON.stringify({ bytes: line.length, tail: line.subarray(-40).toString('latin1') });
    send({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text }] } });
  }
}

onLines(process.stdin, handle);

if (flood > 0) {
  const piece = Buffer.alloc(1 << 16, 0x78);
  let left = flood;
  const write = () => {
    while (left > 0) {
      const size = Math.min(left, piece.length);
      left -= size;
      if (!process.stdout.write(piece.subarray(0, size))) return void process.stdout.once('drain', write);
    }
    if (process.env.EXIT_AFTER_FLOOD) process.exit(0);
  };
  write();
}
