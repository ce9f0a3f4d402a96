/**
 * `schema-coerce gateway --config file.json` (#41 item 6), through the built bin: a malformed file
 * (not JSON, unknown keys, wrong types, a value its flag refuses) is refused with every problem
 * named by its JSON Pointer and exit 2, nothing listening; a good file runs the gateway, its flags
 * under the command line's (an SDK client sees the file's tool policy; `--listen` on the command
 * line wins over the file's).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, expect, test } from 'vitest';
import { startGatewayProcess, stopGateways } from './_helpers/gateway.js';
import { connect, isErrorResult, textOf } from './_helpers/modern.js';
import { runCli } from './_helpers/run.js';
import { makeTempDir, removeTempDirs } from './_helpers/temp.js';

const STDIO_SERVER = join(import.meta.dirname, 'peers', 'gateway-stdio.mjs');
const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close().catch(() => undefined);
  await stopGateways();
});
afterAll(removeTempDirs);

/** Writes `text` to a fresh file and returns its path. */
function configFile(text: string): string {
  const path = join(makeTempDir('schema-coerce-config-'), 'gateway.json');
  writeFileSync(path, text);
  return path;
}

test.each([
  ['text that is not JSON', '{"listen": "127.0.0.1:0",', (path: string) => `schema-coerce gateway: --config ${path}: invalid JSON at line 1 column 26 (position 25): Unexpected end of input\n`],
  ['a repeated key', '{"listen": "127.0.0.1:0", "listen": "0.0.0.0:80"}', (path: string) => `schema-coerce gateway: --config ${path}: invalid JSON at line 1 column 27 (position 26): Duplicate key 'listen'\n`],
  [
    'keys and values the schema refuses, each by its path',
    '{"lisen": "127.0.0.1:0", "max-body": "big", "deny-tool": "slow", "lenient": "yes", "allowed-host": ["a", 7], "command": []}',
    (path: string) =>
      `schema-coerce gateway: --config ${path}: /lisen is not an option (did you mean listen?); /command must NOT have fewer than 1 items; /lenient must be boolean; /allowed-host/1 must be string; /max-body must be integer; /deny-tool must be array\n`,
  ],
  ['a file that is not an object', '["--listen", "127.0.0.1:0"]', (path: string) => `schema-coerce gateway: --config ${path}: the file must be object\n`],
  ['a value its flag refuses, said of the file\'s key', '{"listen": "nowhere", "command": ["node", "server.js"]}', (path: string) => `schema-coerce gateway: --config ${path}: /listen "nowhere" must be host:port\n`],
  ['a rule its flag refuses', '{"listen": "127.0.0.1:0", "rate-limit": "fast", "command": ["node"]}', (path: string) => `schema-coerce gateway: --config ${path}: /rate-limit "fast" must be <count>/<period>, e.g. 10/s, 100/m or 5/30s\n`],
  ['a whole number past the flag\'s bound', '{"listen": "127.0.0.1:0", "max-body": 1e300, "command": ["node"]}', (path: string) => `schema-coerce gateway: --config ${path}: /max-body must be <= 9007199254740991\n`],
])('a malformed config: %s, exit 2 and one line', (_name, text, message) => {
  const path = configFile(text);
  const run = runCli(['gateway', '--config', path]);
  expect([run.status, run.stderr, run.stdout]).toEqual([2, message(path), '']);
});

test('a file that cannot be read is named with its error code', () => {
  const run = runCli(['gateway', '--config', '/nonexistent/gateway.json']);
  expect([run.status, run.stderr]).toEqual([2, 'schema-coerce gateway: --config /nonexistent/gateway.json: cannot read the file (ENOENT)\n']);
});

test('the command line\'s value wins, and its error is the flag\'s', () => {
  const path = configFile('{"listen": "nowhere", "command": ["node"]}');
  const run = runCli(['gateway', '--config', path, '--listen', 'also-nowhere']);
  expect([run.status, run.stderr]).toEqual([2, 'schema-coerce gateway: --listen "also-nowhere" must be host:port\n']);
});

test('a good file runs the gateway: its tool policy and limits hold for an SDK client, --listen on the command line wins', async () => {
  const path = configFile(JSON.stringify({
    $schema: './gateway.schema.json',
    listen: '127.0.0.1:1',
    lenient: true,
    'json-response': true,
    'deny-tool': ['slow'],
    'tool-rate-limit': ['echo=2/m'],
    'max-body': 65_536,
    'max-sessions': 4,
    command: [process.execPath, STDIO_SERVER],
  }));
  const gateway = await startGatewayProcess(['--config', path]);
  expect(gateway.url).not.toContain(':1/');
  const client = await connect('v1', gateway.url);
  closers.push(() => client.close());
  expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['echo', 'pid']);
  expect(textOf(await client.callTool({ name: 'slow', arguments: { ms: 1 } }))).toContain('the tool "slow" is denied');
  expect(textOf(await client.callTool({ name: 'echo', arguments: { n: '7' } }))).toBe('n:7');
  await client.callTool({ name: 'echo', arguments: { n: 1 } });
  expect(isErrorResult(await client.callTool({ name: 'echo', arguments: { n: 1 } }))).toBe(true);
  const big = await fetch(gateway.url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: `{"pad":"${'x'.repeat(70_000)}"}` });
  expect(big.status).toBe(413);
}, 30_000);

test('a command on the command line replaces the file\'s upstream', async () => {
  const path = configFile(JSON.stringify({ url: 'http://127.0.0.1:9/mcp', 'deny-tool': ['pid'] }));
  const gateway = await startGatewayProcess(['--config', path, '--', process.execPath, STDIO_SERVER]);
  expect(gateway.stderr()).toContain('in front of "' + process.execPath + '", a process per session');
  const client = await connect('v1', gateway.url);
  closers.push(() => client.close());
  expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['echo', 'slow']);
}, 30_000);

test('--config-schema prints the file\'s schema: every flag of the gateway\'s help is a key, typed as the flag takes it', () => {
  const help = runCli(['gateway', '--help']).stdout;
  const section = help.slice(help.indexOf('Proxy options'), help.indexOf('Exit status'));
  const flags = [...section.matchAll(/^ {2}(?:-\w, )? *--([a-z][a-z-]*)/gm)].map((found) => found[1]!);
  const run = runCli(['gateway', '--config-schema']);
  expect(run.status).toBe(0);
  const schema = JSON.parse(run.stdout) as { properties: Record<string, { type: string; items?: { type: string } }> };
  const keys = Object.keys(schema.properties);
  expect(flags.filter((flag) => !keys.includes(flag))).toEqual(['help', 'config', 'config-schema']);
  expect(keys.filter((key) => !flags.includes(key))).toEqual(['$schema', 'command']);
  expect([schema.properties['lenient']!.type, schema.properties['max-body']!.type, schema.properties['deny-tool']!.items!.type, schema.properties['listen']!.type]).toEqual(['boolean', 'integer', 'string', 'string']);
});
