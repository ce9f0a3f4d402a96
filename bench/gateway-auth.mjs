// The cost of the gateway's auth (docs/BENCHMARKS.md): three built gateways side by side in front
// of the same stdio server (bench/gateway-servers.mjs stdio): no auth, --auth-tokens (a list of 21
// tokens), --auth-jwks (a JWKS this script serves, ES256). One session each, sequential tools/call
// with JSON answers and `count: "7"` (repaired on every call); 200 warm-up calls each, then BLOCKS
// (default 10) blocks of 200 calls taking turns; p50 and the gateway's CPU per call (from /proc)
// per block, medians of the blocks, the ratio to the gateway without auth taken within a block.
// Run after `npm run build`: node bench/gateway-auth.mjs
import { spawn } from 'node:child_process';
import { createServer, Agent, request } from 'node:http';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
const ROOT = join(import.meta.dirname, '..');
const DIR = mkdtempSync(join(tmpdir(), 'schema-coerce-auth-bench-'));
const jose = await import('jose');
const CLI = ROOT + '/dist/cli.js';
const BLOCKS = Number(process.env.BLOCKS ?? 10), N = 200;
const { publicKey, privateKey } = await jose.generateKeyPair('ES256');
const jwk = { ...(await jose.exportJWK(publicKey)), kid: 'k1', alg: 'ES256' };
const jwks = createServer((q, r) => r.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [jwk] })));
await new Promise((r) => jwks.listen(0, '127.0.0.1', r));
const JWKS = `http://127.0.0.1:${jwks.address().port}/jwks`;
const STATIC = 'a'.repeat(20) + 'b'.repeat(20);
writeFileSync(join(DIR, 'tokens.json'), JSON.stringify([...Array.from({ length: 20 }, (_, i) => ({ token: 'x'.repeat(40) + i, subject: 's' + i, scopes: [] })), { token: STATIC, subject: 'bench', scopes: ['tools:read'] }]));
const jwt = await new jose.SignJWT({ scope: 'tools:read' }).setProtectedHeader({ alg: 'ES256', kid: 'k1' }).setIssuer('https://as.example').setAudience('https://gw.example/mcp').setSubject('bench').setExpirationTime('2h').sign(privateKey);
const server = ['--', process.execPath, ROOT + '/bench/gateway-servers.mjs', 'stdio'];
const routes = {
  off: { args: [], token: undefined },
  tokens: { args: ['--auth-tokens', join(DIR, 'tokens.json')], token: STATIC },
  jwt: { args: ['--auth-jwks', JWKS, '--auth-issuer', 'https://as.example', '--auth-audience', 'https://gw.example/mcp'], token: jwt },
};
const agent = new Agent({ keepAlive: true, maxSockets: 1 });
function post(url, headers, body) {
  return new Promise((resolve, reject) => {
    const q = request(url, { method: 'POST', agent, headers: { 'content-type': 'application/json', accept: 'application/json', ...headers } }, (r) => { let b = ''; r.on('data', (c) => (b += c)); r.on('end', () => resolve({ status: r.statusCode, headers: r.headers, body: b })); });
    q.on('error', reject); q.end(body);
  });
}
for (const [name, route] of Object.entries(routes)) {
  const child = spawn(process.execPath, [CLI, 'gateway', '--listen', '127.0.0.1:0', '--lenient', '--json-response', ...route.args, ...server], { stdio: ['ignore', 'ignore', 'pipe'] });
  route.child = child;
  route.url = await new Promise((res) => { let e = ''; child.stderr.on('data', (c) => { e += c; const m = /listening on (\S+),/.exec(e); if (m) res(m[1]); }); });
  route.headers = route.token ? { authorization: `Bearer ${route.token}` } : {};
  const init = await post(route.url, route.headers, JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'b', version: '1' } } }));
  if (init.status !== 200) throw new Error(name + ' ' + init.status + init.body);
  route.headers = { ...route.headers, 'mcp-session-id': init.headers['mcp-session-id'], 'mcp-protocol-version': '2025-11-25' };
  await post(route.url, route.headers, '{"jsonrpc":"2.0","method":"notifications/initialized"}');
}
const cpu = (pid) => { const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' '); return (Number(f[11]) + Number(f[12])) * 10; };
let id = 1;
async function block(route, n) {
  const times = []; const c0 = cpu(route.child.pid);
  for (let i = 0; i < n; i++) {
    const body = `{"jsonrpc":"2.0","id":${id++},"method":"tools/call","params":{"name":"echo","arguments":{"text":"${'a'.repeat(200)}","count":"7"}}}`;
    const t = process.hrtime.bigint();
    const r = await post(route.url, route.headers, body);
    times.push(Number(process.hrtime.bigint() - t) / 1e6);
    if (r.status !== 200 || !r.body.includes('\\"count\\":7')) throw new Error(r.status + r.body);
  }
  times.sort((a, b) => a - b);
  return { p50: times[n >> 1], cpu: (cpu(route.child.pid) - c0) / n };
}
for (const route of Object.values(routes)) await block(route, N);
const results = Object.fromEntries(Object.keys(routes).map((k) => [k, []]));
for (let b = 0; b < BLOCKS; b++) for (const [name, route] of Object.entries(routes)) results[name].push(await block(route, N));
const med = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[s.length >> 1]; };
for (const [name, rs] of Object.entries(results)) {
  const ratio = name === 'off' ? '' : ` ×${med(rs.map((r, i) => r.p50 / results.off[i].p50)).toFixed(2)}`;
  console.log(`${name}: p50 ${med(rs.map((r) => r.p50)).toFixed(3)} ms${ratio}, gateway CPU/call ${med(rs.map((r) => r.cpu)).toFixed(3)} ms`);
}
for (const r of Object.values(routes)) r.child.kill();
jwks.close();
agent.destroy();
rmSync(DIR, { recursive: true, force: true });
