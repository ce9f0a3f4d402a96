/**
 * The MCP adapters and the proxy in the runtime running this script, with the real SDK over
 * stdio, every process in that same runtime. The first argument is how to run a script there
 * (JSON, e.g. `["deno","run","-A"]` or `["bun"]`); prints each call's result as one JSON line:
 * - `server`: a plain client sends `{"line":"7"}` to a server wrapped by `withServerArgCoercion`;
 * - `client`: a client wrapped by `withArgCoercion` sends it to the plain strict server;
 * - `proxy`: a plain client sends it through `schema-coerce proxy --lenient` to the plain server;
 * - `unrepaired`: a plain client sends it to the plain server (the strict server's refusal).
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { withArgCoercion } from 'schema-coerce/mcp';

const [command, ...prefix] = JSON.parse(process.argv[2]);
const here = (name) => new URL(name, import.meta.url).pathname;
const server = (mode) => [...prefix, here('mcp-server.mjs'), mode];
const cli = here('../../dist/cli.js');

async function call(name, args, wrap = (client) => client) {
  const client = wrap(new Client({ name: 'runtime-check', version: '1.0.0' }));
  await client.connect(new StdioClientTransport({ command, args, stderr: 'ignore' }));
  try {
    await client.listTools();
    const result = await client.callTool({ name: 'goto', arguments: { line: '7', filePath: 'a.go' } });
    console.log(JSON.stringify({ name, isError: result.isError === true, text: result.content[0]?.text }));
  } finally {
    await client.close();
  }
}

await call('server', server('coerced'));
await call('client', server('plain'), (client) => withArgCoercion(client, { lenient: true }));
await call('proxy', [...prefix, cli, 'proxy', '--lenient', '--', command, ...server('plain')]);
await call('unrepaired', server('plain'));
