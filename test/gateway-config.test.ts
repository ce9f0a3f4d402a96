/**
 * The gateway's configuration (#41 item 6). Every limit is a flag and a config-file key
 * (`LIMIT_OPTIONS`), read in its unit and refused, by name, outside its range. A config file
 * (`--config`) holds any flag under its name (its schema is made from the flag table:
 * `--config-schema` prints it), is checked by the library's own validator with every problem named
 * by its JSON Pointer in the order of the file's keys, and a flag wins over the file's key. Through
 * the built bin: a malformed file is refused with exit 2 and one line, nothing listening; a good
 * file runs the gateway (its limits, its tool policy seen by an SDK client). The sample file of
 * docs/GATEWAY.md is read as the gateway reads it; the help and the docs name the same flags.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, test } from 'vitest';
import { readConfigFile } from '../src/adapters/cli/config-file.js';
import { UsageError } from '../src/adapters/cli/errors.js';
import { gatewayConfigSchema, limitsOf, MAX_SECONDS, readGatewayCommandLine } from '../src/adapters/cli/gateway-command.js';
import { LIMIT_OPTIONS } from '../src/adapters/gateway/limits.js';
import { DEFAULT_LIMITS } from '../src/adapters/gateway/options.js';
import { initializeBody, POST_HEADERS, rawRequest, startGatewayProcess, stopGateways } from './_helpers/gateway.js';
import { connect, isErrorResult, textOf } from './_helpers/modern.js';
import { ROOT, runCli } from './_helpers/run.js';
import { makeTempDir, removeTempDirs } from './_helpers/temp.js';

const SERVER = join(import.meta.dirname, 'peers', 'gateway-stdio.mjs');
const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close().catch(() => undefined);
  await stopGateways();
});
afterAll(removeTempDirs);

/** Writes `text` to a fresh file and returns its path. */
function configFile(text: string): string {
  const path = join(makeTempDir('schema-coerce-gateway-config-'), 'gateway.json');
  writeFileSync(path, text);
  return path;
}

const SCHEMA = gatewayConfigSchema();

describe('the limits as flags', () => {
  test.each(LIMIT_OPTIONS.map((option) => [option.name, option] as const))('--%s is read in its unit', (_name, option) => {
    const scale = option.unit === 's' ? 1_000 : 1;
    // The request head's time is within the whole request's: each is read with the other out of its way.
    const other: Record<string, string> = option.name === 'headers-timeout' ? { 'request-timeout': String(MAX_SECONDS) } : option.name === 'request-timeout' ? { 'headers-timeout': '1' } : {};
    const read = (values: Record<string, string>): object => limitsOf({ ...other, ...values });
    expect(read({ [option.name]: '7' })).toMatchObject({ [option.key]: 7 * scale });
    expect(DEFAULT_LIMITS[option.key] % scale).toBe(0);
    const zero = (): unknown => read({ [option.name]: '0' });
    if (option.off === true) expect(zero()).toMatchObject({ [option.key]: 0 });
    else expect(zero).toThrow(new UsageError(`--${option.name} must be a positive whole number${option.unit === 's' ? ` of seconds, at most ${MAX_SECONDS}` : ''}, not "0"`));
    for (const bad of ['-1', '1.5', '1e3', '01', 'x', '', ' 7', '12345678901234567']) expect(() => read({ [option.name]: bad }), bad).toThrow(`--${option.name} must be`);
    if (option.unit === 's') {
      expect(read({ [option.name]: String(MAX_SECONDS) })).toMatchObject({ [option.key]: MAX_SECONDS * 1_000 });
      expect(() => read({ [option.name]: String(MAX_SECONDS + 1) })).toThrow(`--${option.name} must be`);
    } else expect(read({ [option.name]: '9007199254740991' })).toMatchObject({ [option.key]: Number.MAX_SAFE_INTEGER });
  });

  test('the request head must come within the time the whole request may take', () => {
    expect(() => limitsOf({ 'headers-timeout': '31' })).toThrow(new UsageError('--headers-timeout (31 s) must not be longer than --request-timeout (30 s): the head is part of the request'));
    expect(() => limitsOf({ 'request-timeout': '5' })).toThrow(new UsageError('--headers-timeout (10 s) must not be longer than --request-timeout (5 s): the head is part of the request'));
    expect(limitsOf({ 'headers-timeout': '30', 'request-timeout': '30' })).toEqual({ headersTimeoutMs: 30_000, requestTimeoutMs: 30_000 });
    expect(limitsOf({})).toEqual({});
  });
});

describe('the config file', () => {
  test('each key is the flag of its name, numbers as the command line writes them; command is the server command', async () => {
    const path = configFile('{\n  "$schema": "./gateway.schema.json",\n  "listen": "127.0.0.1:8808",\n  "lenient": true,\n  "allowed-host": ["a.example", "b.example"],\n  "max-sessions": 8,\n  "call-timeout": 0,\n  "max-body": 1e3,\n  "idle-timeout": 60.0,\n  "audit-keep": 2,\n  "command": ["node", "server.js"]\n}\n');
    expect(await readConfigFile(path, SCHEMA)).toEqual({
      path,
      values: { listen: '127.0.0.1:8808', lenient: true, 'allowed-host': ['a.example', 'b.example'], 'max-sessions': '8', 'call-timeout': '0', 'max-body': '1000', 'idle-timeout': '60', 'audit-keep': '2' },
      command: ['node', 'server.js'],
    });
  });

  test('every problem is named by its path, in the order of the file: an unknown key (with the nearest), a key that is a flag of no option, and the file itself', async () => {
    const path = configFile('{"listen": "nowhere", "lenient": "yes", "allowed-host": ["a", 1], "max-streams": 0, "call-timeout": -1, "idle-timeout": 2.5, "drain-timeout": 3000000, "max-sesions": 3, "metrics": ":9", "audit-keep": 0, "config": "other.json", "help": true}');
    await expect(readConfigFile(path, SCHEMA)).rejects.toThrow(
      new UsageError(`--config ${path}: /listen must be host:port; /lenient must be boolean; /allowed-host/1 must be string; /max-streams must be >= 1; /call-timeout must be >= 0; /idle-timeout must be integer; /drain-timeout must be <= ${MAX_SECONDS}; /max-sesions is not an option (did you mean max-sessions?); /metrics must be host:port; /audit-keep must be >= 1; /config is not an option; /help is not an option`),
    );
    await expect(readConfigFile(configFile('[]'), SCHEMA)).rejects.toThrow(/: the file must be object$/);
  });

  test('a file that is not JSON is named by line and column; a key given twice too; a file that cannot be read by its error code', async () => {
    const broken = configFile('{\n  "max-sessions": 8,\n}\n');
    await expect(readConfigFile(broken, SCHEMA)).rejects.toThrow(new UsageError(`--config ${broken}: invalid JSON at line 3 column 1 (position 23): Expected a quoted object key but got "}"`));
    const twice = configFile('{"max-sessions": 8, "max-sessions": 9}');
    await expect(readConfigFile(twice, SCHEMA)).rejects.toThrow(/invalid JSON at line 1 column \d+ \(position \d+\): Duplicate key 'max-sessions'/);
    const missing = join(makeTempDir('schema-coerce-gateway-config-'), 'none.json');
    await expect(readConfigFile(missing, SCHEMA)).rejects.toThrow(new UsageError(`--config ${missing}: cannot read the file (ENOENT)`));
  });

  test('the sample of docs/GATEWAY.md is a file the gateway reads: its upstream, policy, limits and observability', async () => {
    const docs = readFileSync(join(ROOT, 'docs', 'GATEWAY.md'), 'utf8');
    const section = docs.slice(docs.indexOf('### The configuration file'));
    const sample = /```json\n([\s\S]*?)\n```/.exec(section)![1]!;
    const run = await readGatewayCommandLine(['--config', configFile(sample)]);
    expect(run).toMatchObject({
      upstream: { kind: 'url' },
      host: '127.0.0.1',
      port: 8808,
      lenient: true,
      toolPolicy: { deny: ['delete_*', 'admin_*'], scoped: ['write_*=tools:write'] },
      rateLimits: { caller: '600/m', tools: ['search_*=30/m'] },
      limits: { maxBody: 1_048_576, callTimeoutMs: 120_000 },
      metrics: { host: '127.0.0.1', port: 9464 },
      audit: '/var/log/schema-coerce/audit.jsonl',
    });
    // A flag wins over the file's key; a command after -- replaces the file's --url.
    const over = await readGatewayCommandLine(['--config', configFile(sample), '--rate-limit', '5/s', '--listen', '[::1]:0', '--', 'node', 'server.js']);
    expect(over).toMatchObject({ upstream: { kind: 'stdio', command: ['node', 'server.js'] }, host: '::1', port: 0, rateLimits: { caller: '5/s' }, toolPolicy: { deny: ['delete_*', 'admin_*'] } });
  });
});

describe('--config through the built bin', () => {
  test.each([
    ['text that is not JSON', '{"listen": "127.0.0.1:0",', (path: string) => `schema-coerce gateway: --config ${path}: invalid JSON at line 1 column 26 (position 25): Unexpected end of input\n`],
    ['a repeated key', '{"listen": "127.0.0.1:0", "listen": "0.0.0.0:80"}', (path: string) => `schema-coerce gateway: --config ${path}: invalid JSON at line 1 column 27 (position 26): Duplicate key 'listen'\n`],
    [
      'keys and values the schema refuses, each by its path, in the order of the file',
      '{"lisen": "127.0.0.1:0", "max-body": "big", "deny-tool": "slow", "lenient": "yes", "allowed-host": ["a", 7], "command": []}',
      (path: string) =>
        `schema-coerce gateway: --config ${path}: /lisen is not an option (did you mean listen?); /max-body must be integer; /deny-tool must be array; /lenient must be boolean; /allowed-host/1 must be string; /command must NOT have fewer than 1 items\n`,
    ],
    ['a file that is not an object', '["--listen", "127.0.0.1:0"]', (path: string) => `schema-coerce gateway: --config ${path}: the file must be object\n`],
    ['a form the schema holds', '{"listen": "nowhere", "command": ["node", "server.js"]}', (path: string) => `schema-coerce gateway: --config ${path}: /listen must be host:port\n`],
    ['a rule its flag refuses, said of the file\'s key', '{"listen": "127.0.0.1:0", "rate-limit": "fast", "command": ["node"]}', (path: string) => `schema-coerce gateway: --config ${path}: /rate-limit "fast" must be <count>/<period>, e.g. 10/s, 100/m or 5/30s\n`],
    ['a whole number past the flag\'s bound', '{"listen": "127.0.0.1:0", "max-body": 1e300, "command": ["node"]}', (path: string) => `schema-coerce gateway: --config ${path}: /max-body must be <= 9007199254740991\n`],
    [
      'every kind at once: the command line\'s own checks too',
      '{"max-sessions": "8", "url": 5, "integer-range": "huge", "path": "mcp"}',
      (path: string) => `schema-coerce gateway: --config ${path}: /max-sessions must be integer; /url must be string; /integer-range must be one of "int64", "safe", "unbounded"; /path must be a path starting with /\n`,
    ],
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
    const path = configFile('{"listen": "127.0.0.1:0", "rate-limit": "fast", "command": ["node"]}');
    const run = runCli(['gateway', '--config', path, '--rate-limit', 'faster']);
    expect([run.status, run.stderr]).toEqual([2, 'schema-coerce gateway: --rate-limit "faster" must be <count>/<period>, e.g. 10/s, 100/m or 5/30s\n']);
  });

  test('the built gateway takes its limits from the file, a flag over the file key', async () => {
    const path = configFile(JSON.stringify({ 'max-body': 1024, 'call-timeout': 3, 'drain-timeout': 1, 'json-response': true }));
    const gateway = await startGatewayProcess(['--config', path, '--max-body', '2048', '--', process.execPath, SERVER]);
    const init = await rawRequest(gateway.url, { headers: POST_HEADERS, body: initializeBody() });
    const session = { 'mcp-session-id': init.headers['mcp-session-id'] as string };
    const padded = (size: number): string => {
      const body = { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'echo', arguments: { n: 1, pad: '' } } };
      body.params.arguments.pad = 'x'.repeat(size - JSON.stringify(body).length);
      return JSON.stringify(body);
    };
    expect(JSON.parse((await rawRequest(gateway.url, { headers: { ...POST_HEADERS, ...session }, body: padded(1_500) })).body)).toMatchObject({ id: 2, result: { content: [{ text: 'n:1' }] } });
    const large = await rawRequest(gateway.url, { headers: { ...POST_HEADERS, ...session }, body: padded(3_000) });
    expect([large.status, JSON.parse(large.body).error.message]).toEqual([413, 'Payload Too Large: the limit is 2048 bytes']);
    const slow = rawRequest(gateway.url, { headers: { ...POST_HEADERS, ...session }, body: JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'slow', arguments: { ms: 30_000 } } }) });
    expect(JSON.parse((await slow).body)).toEqual({ jsonrpc: '2.0', id: 3, error: { code: -32001, message: 'schema-coerce gateway: no response within 3 s (the call timeout)' } });
    // The drain time: a call in flight at SIGTERM holds the shutdown 1 s, not 10.
    const held = rawRequest(gateway.url, { headers: { ...POST_HEADERS, ...session }, body: JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'slow', arguments: { ms: 900 } } }) }).catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const begun = Date.now();
    expect(await gateway.stop()).toBe(0);
    expect(Date.now() - begun).toBeLessThan(8_000);
    await held;
  }, 60_000);

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
      command: [process.execPath, SERVER],
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
    const gateway = await startGatewayProcess(['--config', path, '--', process.execPath, SERVER]);
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
    expect(schema).toEqual(SCHEMA);
    const keys = Object.keys(schema.properties);
    expect(flags.filter((flag) => !keys.includes(flag))).toEqual(['help', 'config', 'config-schema']);
    expect(keys.filter((key) => !flags.includes(key))).toEqual(['$schema', 'command']);
    const types = ['lenient', 'max-body', 'audit-keep', 'metrics', 'deny-tool', 'listen'].map((key) => schema.properties[key]!.items?.type ?? schema.properties[key]!.type);
    expect(types).toEqual(['boolean', 'integer', 'integer', 'string', 'string', 'string']);
  });
});

describe('the help and docs/GATEWAY.md name the same options', () => {
  const help = runCli(['gateway', '--help']).stdout;
  const gatewayHelp = help.slice(help.indexOf('Gateway options'), help.indexOf('Exit status'));
  // The gateway takes the proxy's options too (the help lists them once, under the proxy).
  const optionsHelp = help.slice(help.indexOf('Proxy options'), help.indexOf('Exit status'));
  const docs = readFileSync(join(ROOT, 'docs', 'GATEWAY.md'), 'utf8');
  const flags = (text: string): string[] => [...new Set([...text.matchAll(/--([a-z][a-z-]+)/g)].map((found) => found[1]!))].sort();

  test('every limit is in the help, with its default, and in the docs table of limits, with its default', () => {
    for (const option of LIMIT_OPTIONS) {
      const scale = option.unit === 's' ? 1_000 : 1;
      expect(gatewayHelp, option.name).toMatch(new RegExp(`--${option.name} <${option.unit}>\\s+[^\\n]*\\(default ${DEFAULT_LIMITS[option.key] / scale}[;)]`));
      expect(docs, option.name).toMatch(new RegExp(`\\| \`--${option.name} <${option.unit}>\` \\| \`${option.name}\` \\| ${DEFAULT_LIMITS[option.key] / scale} \\|`));
    }
  });

  test('the docs’ option tables and the help list the same gateway flags', () => {
    const tables = docs.split('\n').filter((line) => /^\| `--/.test(line)).join('\n');
    expect(flags(tables)).toEqual(flags(optionsHelp).filter((flag) => flag !== 'help'));
  });
});
