/**
 * Every limit of the gateway is a flag and a config-file key (`LIMIT_OPTIONS`), read in its unit
 * and refused, by name, outside its range; a config file (`--config`) holds any option under the
 * name of its flag, is checked by the library's own validator with every problem named by its
 * path, and a flag wins over the file's key. The help and docs/GATEWAY.md name the same options.
 * The built gateway is run with a config file: its limits (body size, call timeout, drain time)
 * are the file's, or the command line's where both give one.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, test } from 'vitest';
import { ConfigError, configSchema, limitsOf, MAX_SECONDS, readConfig } from '../src/adapters/cli/gateway-config.js';
import { LIMIT_OPTIONS } from '../src/adapters/gateway/limits.js';
import { DEFAULT_LIMITS } from '../src/adapters/gateway/options.js';
import { initializeBody, POST_HEADERS, rawRequest, startGatewayProcess, stopGateways } from './_helpers/gateway.js';
import { ROOT, runCli } from './_helpers/run.js';
import { makeTempDir, removeTempDirs } from './_helpers/temp.js';

const SERVER = join(import.meta.dirname, 'peers', 'gateway-stdio.mjs');
afterEach(stopGateways);
afterAll(removeTempDirs);

function configFile(content: string): string {
  const path = join(makeTempDir('schema-coerce-gateway-config-'), 'gateway.json');
  writeFileSync(path, content);
  return path;
}

const OPTIONS = { listen: { type: 'string' }, lenient: { type: 'boolean' }, 'allowed-host': { type: 'string', multiple: true }, help: { type: 'boolean' }, config: { type: 'string' }, ...Object.fromEntries(LIMIT_OPTIONS.map((option) => [option.name, { type: 'string' }])) } as const;
const SCHEMA = configSchema(OPTIONS, { listen: { type: 'string', pattern: '^[^:]+:\\d+$', description: 'host:port' } });

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
    else expect(zero).toThrow(new ConfigError(`--${option.name} must be a positive whole number${option.unit === 's' ? ` of seconds, at most ${MAX_SECONDS}` : ''}, not "0"`));
    for (const bad of ['-1', '1.5', '1e3', '01', 'x', '', ' 7', '12345678901234567']) expect(() => read({ [option.name]: bad }), bad).toThrow(`--${option.name} must be`);
    if (option.unit === 's') {
      expect(read({ [option.name]: String(MAX_SECONDS) })).toMatchObject({ [option.key]: MAX_SECONDS * 1_000 });
      expect(() => read({ [option.name]: String(MAX_SECONDS + 1) })).toThrow(`--${option.name} must be`);
    } else expect(read({ [option.name]: '9007199254740991' })).toMatchObject({ [option.key]: Number.MAX_SAFE_INTEGER });
  });

  test('the request head must come within the time the whole request may take', () => {
    expect(() => limitsOf({ 'headers-timeout': '31' })).toThrow(new ConfigError('--headers-timeout (31 s) must not be longer than --request-timeout (30 s): the head is part of the request'));
    expect(() => limitsOf({ 'request-timeout': '5' })).toThrow(new ConfigError('--headers-timeout (10 s) must not be longer than --request-timeout (5 s): the head is part of the request'));
    expect(limitsOf({ 'headers-timeout': '30', 'request-timeout': '30' })).toEqual({ headersTimeoutMs: 30_000, requestTimeoutMs: 30_000 });
    expect(limitsOf({})).toEqual({});
  });
});

describe('the config file', () => {
  test('each key is the option of its name, numbers as the command line writes them', async () => {
    const path = configFile('{\n  "listen": "127.0.0.1:8808",\n  "lenient": true,\n  "allowed-host": ["a.example", "b.example"],\n  "max-sessions": 8,\n  "call-timeout": 0,\n  "max-body": 1e3,\n  "idle-timeout": 60.0\n}\n');
    expect(await readConfig(path, SCHEMA)).toEqual({ listen: '127.0.0.1:8808', lenient: true, 'allowed-host': ['a.example', 'b.example'], 'max-sessions': '8', 'call-timeout': '0', 'max-body': '1000', 'idle-timeout': '60' });
  });

  test('every problem is named by its path; an unknown key, a key that is a flag of no option, and the file itself', async () => {
    const path = configFile('{"listen": "nowhere", "lenient": "yes", "allowed-host": ["a", 1], "max-sessions": 0, "call-timeout": -1, "idle-timeout": 2.5, "drain-timeout": 3000000, "max-sesions": 3, "config": "other.json", "help": true}');
    await expect(readConfig(path, SCHEMA)).rejects.toThrow(
      new ConfigError(`--config ${path}: /listen must be host:port; /lenient must be boolean; /allowed-host/1 must be string; /max-sessions must be >= 1; /call-timeout must be >= 0; /idle-timeout must be integer; /drain-timeout must be <= ${MAX_SECONDS}; /max-sesions is not an option; /config is not an option; /help is not an option`),
    );
    await expect(readConfig(configFile('[]'), SCHEMA)).rejects.toThrow(/: \(the file\) must be object$/);
  });

  test('a file that is not JSON is named by line and column; a key given twice too; a file that cannot be read by its error code', async () => {
    const broken = configFile('{\n  "max-sessions": 8,\n}\n');
    await expect(readConfig(broken, SCHEMA)).rejects.toThrow(new ConfigError(`--config ${broken}: not JSON at line 3 column 1: Expected a quoted object key but got "}"`));
    const twice = configFile('{"max-sessions": 8, "max-sessions": 9}');
    await expect(readConfig(twice, SCHEMA)).rejects.toThrow(/not JSON at line 1 column \d+: Duplicate key 'max-sessions'/);
    const missing = join(makeTempDir('schema-coerce-gateway-config-'), 'none.json');
    await expect(readConfig(missing, SCHEMA)).rejects.toThrow(new ConfigError(`--config ${missing}: cannot read the file (ENOENT)`));
  });

  test('the CLI names the file and each problem, exits 2 and starts nothing', () => {
    const path = configFile('{"max-sessions": "8", "url": 5, "integer-range": "huge", "path": "mcp"}');
    const run = runCli(['gateway', '--listen', '127.0.0.1:0', '--config', path, '--', 'node', 'x']);
    expect(run.status).toBe(2);
    expect(run.stderr).toBe(`schema-coerce gateway: --config ${path}: /max-sessions must be integer; /url must be string; /integer-range must be one of "int64", "safe", "unbounded"; /path must be a path starting with /\n`);
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
