/**
 * `schema-coerce proxy` end to end: the official SDK client, or raw bytes, → the built proxy →
 * a strict Python MCP server that logs every line it receives.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, afterEach, describe, expect, test } from 'vitest';
import { HAS_PYTHON, needsPython } from './_helpers/peers.js';
import { BIN } from './_helpers/run.js';
import { makeTempDir, removeTempDirs } from './_helpers/temp.js';

const SERVER = join(import.meta.dirname, 'peers', 'strict_server.py');
const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close().catch(() => undefined)));
});
afterAll(removeTempDirs);

function rawLog(): string {
  return join(makeTempDir('schema-coerce-proxy-'), 'received.jsonl');
}

async function sdkClient(proxyOptions: string[], log = rawLog()): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'proxy', ...proxyOptions, '--', 'python3', SERVER],
    env: { ...(process.env as Record<string, string>), RAW_LOG: log },
  });
  const client = new Client({ name: 'proxy-test', version: '1.0.0' });
  await client.connect(transport);
  clients.push(client);
  return client;
}

const text = (result: unknown): string => (result as { content: { text: string }[] }).content[0]!.text;

interface RawRun {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly received: string;
}

/** Writes `chunks` to the proxy one by one, then closes its stdin; resolves when it exits. */
function rawRun(chunks: readonly (string | Buffer)[], proxyOptions: string[] = [], env: Record<string, string> = {}): Promise<RawRun> {
  const log = rawLog();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, 'proxy', ...proxyOptions, '--', 'python3', SERVER], { env: { ...process.env, RAW_LOG: log, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (data: Buffer) => (stdout += data.toString('utf8')));
    child.stderr.on('data', (data: Buffer) => (stderr += data.toString('utf8')));
    child.on('close', (status) => resolve({ status, stdout, stderr, received: existsSync(log) ? readFileSync(log, 'utf8') : '' }));
    (async () => {
      for (const chunk of chunks) {
        child.stdin.write(chunk);
        await new Promise((next) => setTimeout(next, 5));
      }
      child.stdin.end();
    })().catch(() => undefined);
  });
}

const INIT = '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}';
const INITIALIZED = '{"jsonrpc":"2.0","method":"notifications/initialized"}';

describe.skipIf(!HAS_PYTHON)(needsPython('schema-coerce proxy, with the official SDK client'), () => {
  test('"5" for an integer arrives as 5 with --lenient, on a tool found on a later page', async () => {
    const client = await sdkClient(['--lenient']);
    expect(text(await client.callTool({ name: 'search', arguments: { q: 'cats', limit: '5' } }))).toBe('{"limit": "int:5", "q": "cats"}');
  }, 20_000);

  test('a renamed key is answered with an isError result and never reaches the server', async () => {
    const log = rawLog();
    const client = await sdkClient(['--reject-undeclared'], log);
    const result = await client.callTool({ name: 'search', arguments: { query: 'cats' } });
    expect(result.isError).toBe(true);
    expect(text(result)).toContain('Expected parameters: q (string, required), limit (integer). You sent undeclared key(s): query (did you mean q?).');
    expect(readFileSync(log, 'utf8')).not.toContain('"query"');
  }, 20_000);

  test('--validate answers a call that fails the schema, with the model-facing message', async () => {
    const client = await sdkClient(['--validate']);
    const result = await client.callTool({ name: 'search', arguments: { q: 'x', limit: 'ten' } });
    expect(result.isError).toBe(true);
    expect(text(result)).toContain('/limit: must be integer; you sent "ten".');
  }, 20_000);

  test('arguments sent inside {"name": <this tool>, "arguments": {…}} arrive unwrapped, with or without --validate', async () => {
    for (const options of [['--lenient'], ['--lenient', '--validate']]) {
      const client = await sdkClient(options);
      const result = await client.callTool({ name: 'search', arguments: { name: 'search', arguments: { q: 'cats', limit: '5' } } });
      expect(result.isError).toBeFalsy();
      expect(text(result)).toBe('{"limit": "int:5", "q": "cats"}');
    }
  }, 30_000);

  test('notifications/tools/list_changed refreshes the schemas: a tool added later is repaired', async () => {
    const client = await sdkClient(['--lenient']);
    await client.listTools();
    await client.callTool({ name: 'add_tool', arguments: {} });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(text(await client.callTool({ name: 'late_tool', arguments: { count: '3' } }))).toBe('{"count": "int:3"}');
  }, 20_000);
});

describe.skipIf(!HAS_PYTHON)(needsPython('schema-coerce proxy, with raw bytes'), () => {
  test('a whole float written as 5.0 arrives as 5; every other byte, and every other message, arrives as sent', async () => {
    const call = '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"get_symbol_info","arguments":{ "line" : 5.0, "column":1E0,"filePath":"a.go"},"_meta":{"progressToken":"x"}}}';
    const others = [
      '{"jsonrpc":"2.0","id":3,"method":"ping"}',
      '{"jsonrpc": "2.0", "id": 4, "method": "resources/list", "params": {}}',
      'this line is not JSON',
      '[{"jsonrpc":"2.0","id":5,"method":"ping"}]',
      '{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":99,"reason":"x"}}',
    ];
    const stream = [INIT, INITIALIZED, call, ...others].join('\n') + '\n';
    // Split the stream at awkward places: inside messages, and several messages per chunk.
    const chunks = [stream.slice(0, 7), stream.slice(7, 150), stream.slice(150, 151), stream.slice(151, 400), stream.slice(400)];
    const run = await rawRun(chunks);
    expect(run.status).toBe(0);
    const received = run.received.split('\n');
    expect(received).toContain(INIT);
    expect(received).toContain(INITIALIZED);
    for (const line of others) expect(received).toContain(line);
    expect(received).toContain(call.replace('5.0', '5').replace('1E0', '1'));
    expect(run.stdout).toContain('{\\"column\\": \\"int:1\\", \\"filePath\\": \\"a.go\\", \\"line\\": \\"int:5\\"}');
  }, 20_000);

  test('a line that is not JSON only in its arguments arrives as sent, never repaired, even under --lenient', async () => {
    const broken = `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"get_symbol_info","arguments":{'line': 5.0, "column": 1, "filePath": "a.go"}}}`;
    const fine = '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"get_symbol_info","arguments":{"line":5.0,"column":1,"filePath":"a.go"}}}';
    const run = await rawRun([[INIT, INITIALIZED, broken, fine].join('\n') + '\n'], ['--lenient']);
    expect(run.status).toBe(0);
    const received = run.received.split('\n');
    expect(received).toContain(broken);
    expect(received).toContain(fine.replace('5.0', '5'));
  }, 20_000);

  test('a 10 MB message passes, repaired, and every response comes back in order', async () => {
    const big = 'x'.repeat(10_000_000);
    const calls = Array.from({ length: 50 }, (_, i) => `{"jsonrpc":"2.0","id":${100 + i},"method":"ping"}`);
    const huge = `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"search","arguments":{"q":"${big}","limit":5.0}}}`;
    const run = await rawRun([INIT + '\n' + INITIALIZED + '\n', huge.slice(0, 3_000_000), huge.slice(3_000_000) + '\n' + calls.join('\n') + '\n']);
    expect(run.status).toBe(0);
    expect(run.received).toContain(`"limit":5}}}`);
    const ids = [...run.stdout.matchAll(/"id": (\d+)/g)].map((match) => Number(match[1]));
    expect(ids).toEqual([1, 2, ...calls.map((_, i) => 100 + i)]);
  }, 60_000);

  test('a call smuggled in a repeated key never reaches a server that keeps the last one: the client gets -32600', async () => {
    const smuggled = [
      '{"jsonrpc":"2.0","id":10,"method":"ping","method":"tools/call","params":{"name":"search","arguments":{"q":"x","limit":"7"}}}',
      '{"jsonrpc":"2.0","id":11,"method":"tools/call","params":{"name":"search","arguments":{"q":"x","limit":7},"arguments":{"q":"x","limit":"8"}}}',
    ];
    const run = await rawRun([[INIT, INITIALIZED, ...smuggled, '{"jsonrpc":"2.0","id":12,"method":"ping"}'].join('\n') + '\n'], ['--validate']);
    expect(run.status).toBe(0);
    expect(run.received).not.toContain('"id":10');
    expect(run.received).not.toContain('"id":11');
    const answers = run.stdout.trim().split('\n').map((line) => JSON.parse(line) as { id: number; error?: { code: number } });
    expect(answers.map(({ id, error }) => [id, error?.code]).sort(([a], [b]) => a! - b!)).toEqual([
      [1, undefined],
      [10, -32600],
      [11, -32600],
      [12, undefined],
    ]);
  }, 20_000);

  test('--log writes one JSON line per change, refusal and rejection', async () => {
    const log = join(makeTempDir('schema-coerce-log-'), 'proxy.jsonl');
    const call = '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"search","arguments":{"q":"x","limit":"0x10"}}}';
    const renamed = '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"get_symbol_info","arguments":{"lineNumber":5.0,"filePath":"a"}}}';
    const run = await rawRun([[INIT, INITIALIZED, call, renamed].join('\n') + '\n'], ['--lenient', '--reject-undeclared', '--log', log]);
    expect(run.status).toBe(0);
    expect(run.stderr).toBe('');
    const entries = readFileSync(log, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(entries.map(({ kind, tool, path }) => [kind, tool, path])).toEqual([
      ['refusal', 'search', '/limit'],
      ['rejection', 'get_symbol_info', undefined],
    ]);
  }, 20_000);

  test('--verbose reports on stderr; without it the proxy says nothing there', async () => {
    const call = '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"get_symbol_info","arguments":{"line":5.0,"filePath":"a"}}}';
    const quiet = await rawRun([[INIT, INITIALIZED, call].join('\n') + '\n']);
    expect(quiet.stderr).toBe('');
    const verbose = await rawRun([[INIT, INITIALIZED, call].join('\n') + '\n'], ['--verbose']);
    expect(verbose.stderr).toMatch(/^schema-coerce proxy: \{.*"kind":"change","tool":"get_symbol_info","path":"\/line","from":"5.0","to":"5","rule":"integer-literal"\}\n$/);
  }, 20_000);

  test('when the server dies, the proxy exits with its status', async () => {
    const exit = '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"exit","arguments":{"code":3}}}';
    const run = await rawRun([[INIT, INITIALIZED, exit].join('\n') + '\n', '{"jsonrpc":"2.0","id":3,"method":"ping"}\n']);
    expect(run.status).toBe(3);
  }, 20_000);

  test('SIGTERM is forwarded to the server, and its end is the proxy\'s', async () => {
    const child = spawn(process.execPath, [BIN, 'proxy', '--', 'python3', SERVER]);
    child.stdin.write(INIT + '\n');
    await new Promise((resolve) => child.stdout.once('data', resolve));
    const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
    child.kill('SIGTERM');
    expect(await closed).toBe(143);
  }, 20_000);
});

describe('schema-coerce proxy, without a server', () => {
  test('a server command that cannot start: a clear message and a non-zero exit', async () => {
    const child = spawn(process.execPath, [BIN, 'proxy', '--', 'no-such-server-command']);
    let stderr = '';
    child.stderr.on('data', (data: Buffer) => (stderr += data.toString()));
    const status = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(status).toBe(127);
    expect(stderr).toBe('schema-coerce proxy: cannot start "no-such-server-command": ENOENT\n');
  });
});
