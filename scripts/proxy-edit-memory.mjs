// The proxy's peak memory for a call with many respellings: node scripts/proxy-edit-memory.mjs
// [ascii|nonascii] [path to cli.js, default dist/cli.js] [--json] (build first). Runs the built
// proxy in front of this script as a server (with --server), sends one small call (so the tool's
// schema is known), then one 3 MB call of 231,000 whole floats at integer positions (ascii) or a
// 2.4 MB non-ASCII string with one respelling (nonascii), and prints the proxy's peak resident
// growth (VmHWM after, less VmRSS before; Linux only) against the call's size; with --json, as
// `{ callBytes, peakGrowthBytes }` (`npm run bench -- proxy` checks it against its targets).
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const SCHEMA = { type: 'object', properties: { xs: { type: 'array', items: { type: 'integer' } }, s: { type: 'string' }, n: { type: 'integer' } } };

if (process.argv[2] === '--server') {
  // Answers tools/list with one tool, and a call with the size of the line it received.
  let pending = Buffer.alloc(0);
  process.stdin.on('data', (chunk) => {
    pending = Buffer.concat([pending, chunk]);
    for (let at = pending.indexOf(10); at !== -1; at = pending.indexOf(10)) {
      const line = pending.subarray(0, at);
      pending = pending.subarray(at + 1);
      const head = line.subarray(0, 200).toString('latin1');
      const id = Number(/"id":(\d+)/.exec(head)?.[1]);
      const result = head.includes('"tools/list"') ? { tools: [{ name: 't', inputSchema: SCHEMA }] } : { content: [{ type: 'text', text: String(line.length) }] };
      const own = /"id":("schema-coerce-proxy:[^"]*")/.exec(head)?.[1];
      process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: own === undefined ? id : JSON.parse(own), result }) + '\n');
    }
  });
} else {
  const json = process.argv.includes('--json');
  const [kind = 'ascii', bin = 'dist/cli.js'] = process.argv.slice(2).filter((arg) => arg !== '--json');
  const memory = (pid) => {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (name) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)[1]) * 1024;
    return { rss: kb('VmRSS'), peak: kb('VmHWM') };
  };
  const child = spawn(process.execPath, [bin, 'proxy', '--', process.execPath, fileURLToPath(import.meta.url), '--server']);
  let buffered = '';
  const waiting = [];
  child.stdout.on('data', (chunk) => {
    buffered += chunk;
    for (let at = buffered.indexOf('\n'); at !== -1; at = buffered.indexOf('\n')) {
      const line = buffered.slice(0, at);
      buffered = buffered.slice(at + 1);
      waiting.shift()?.(line);
    }
  });
  const next = () => new Promise((resolve) => waiting.push(resolve));
  child.stdin.write('{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":{"n":1.0}}}\n');
  await next();
  await new Promise((resolve) => setTimeout(resolve, 300));
  const before = memory(child.pid);
  const args = kind === 'ascii' ? `{"xs":[${Array.from({ length: 231_000 }, (_, i) => `${1_000_000_000 + i}.0`).join(',')}]}` : `{"s":"${'é日本'.repeat(300_000)}","n":5.0}`;
  const message = `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"t","arguments":${args}}}\n`;
  const bytes = Buffer.byteLength(message);
  child.stdin.write(message);
  await next();
  const growth = memory(child.pid).peak - before.rss;
  if (json) process.stdout.write(JSON.stringify({ callBytes: bytes, peakGrowthBytes: growth }) + '\n');
  else process.stdout.write(`${kind}: a ${(bytes / 1e6).toFixed(2)} MB call; the proxy's peak grew by ${(growth / 1e6).toFixed(1)} MB, ${(growth / bytes).toFixed(1)}x the call\n`);
  child.stdin.end();
}
