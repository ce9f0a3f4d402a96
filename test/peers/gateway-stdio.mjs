/**
 * A small strict MCP server over stdio, in Node with no dependency, for the gateway's lifecycle
 * tests: `echo` (n: integer, checked strictly: 7.0 is written `7.0` on the wire and refused),
 * `pid` (its process id), `slow` (answers after `ms` milliseconds, with a progress notification
 * first when the call carries a progress token). With LOG_FILE set it appends every line it
 * receives to that file.
 */
import { appendFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

const TOOLS = [
  { name: 'echo', description: 'Echoes n.', inputSchema: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] } },
  { name: 'pid', description: 'Its process id.', inputSchema: { type: 'object', properties: {} } },
  { name: 'slow', description: 'Answers late.', inputSchema: { type: 'object', properties: { ms: { type: 'integer' } }, required: ['ms'] } },
];
const send = (message) => process.stdout.write(JSON.stringify(message) + '\n');
const text = (value) => ({ content: [{ type: 'text', text: String(value) }] });

createInterface({ input: process.stdin }).on('line', (line) => {
  if (process.env.LOG_FILE) appendFileSync(process.env.LOG_FILE, line + '\n');
  const message = JSON.parse(line);
  const { id, method, params } = message;
  if (id === undefined || method === undefined) return;
  if (method === 'initialize') send({ jsonrpc: '2.0', id, result: { protocolVersion: params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'gateway-stdio', version: '1.0.0' } } });
  else if (method === 'tools/list') send({ jsonrpc: '2.0', id, result: { tools: TOOLS } });
  else if (method === 'tools/call') {
    const args = params.arguments ?? {};
    // The raw text of the argument, so a 7.0 on the wire is seen as written.
    const raw = /"n"\s*:\s*([^,}\s]+)/.exec(line)?.[1];
    if (params.name === 'echo') send({ jsonrpc: '2.0', id, result: /^-?\d+$/.test(raw ?? '') ? text(`n:${args.n}`) : { ...text(`refused: n is ${raw}`), isError: true } });
    else if (params.name === 'pid') send({ jsonrpc: '2.0', id, result: text(process.pid) });
    else if (params.name === 'slow') {
      const token = params._meta?.progressToken;
      if (token !== undefined) send({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: token, progress: 1, total: 2 } });
      setTimeout(() => send({ jsonrpc: '2.0', id, result: text(`slept:${args.ms}`) }), args.ms);
    } else send({ jsonrpc: '2.0', id, error: { code: -32602, message: `no tool ${params.name}` } });
  } else if (method === 'ping') send({ jsonrpc: '2.0', id, result: {} });
  else send({ jsonrpc: '2.0', id, error: { code: -32601, message: `no method ${method}` } });
});
