/**
 * The proxy as a process among others: a client that goes away, servers ended by signals, a
 * client that reads slowly, and invalid UTF-8 around a repaired call. Each case reproduces a
 * defect of issue 14.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { BIN } from './_helpers/run.js';

const STRICT = join(import.meta.dirname, 'peers', 'strict_server.py');
const INIT = '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}';

/** Runs a shell line with `$PROXY` standing for the built proxy; returns its output. */
function shell(line: string): { stdout: string; stderr: string } {
  const result = spawnSync('bash', ['-c', line], { env: { ...process.env, PROXY: `${process.execPath} ${BIN} proxy` }, encoding: 'utf8' });
  return { stdout: result.stdout, stderr: result.stderr };
}

describe('a client that is gone', () => {
  test('a reply after the client closed: no crash, no stack trace, the server\'s status', () => {
    const ok = shell(`$PROXY -- sh -c 'sleep 1; echo "{}"' </dev/null 2>err.$$ | true; echo "status=\${PIPESTATUS[0]}"; cat err.$$; rm err.$$`);
    expect(ok.stdout).toBe('status=0\n');
    const three = shell(`$PROXY -- sh -c 'sleep 1; echo "{}"; echo "{}"; exit 3' </dev/null 2>err.$$ | true; echo "status=\${PIPESTATUS[0]}"; cat err.$$; rm err.$$`);
    expect(three.stdout).toBe('status=3\n');
  }, 20_000);
});

describe('exit status for signals', () => {
  test.each([
    ['SEGV', 139],
    ['ABRT', 134],
    ['USR1', 138],
    ['KILL', 137],
  ])('a server ended by SIG%s: the proxy exits %i', (signal, status) => {
    const run = shell(`$PROXY -- sh -c 'kill -s ${signal} $$' </dev/null; echo "status=$?"`);
    expect(run.stdout).toBe(`status=${status}\n`);
  });

  test('SIGHUP is forwarded to the server', async () => {
    const child = spawn(process.execPath, [BIN, 'proxy', '--', 'python3', STRICT]);
    child.stdin.write(INIT + '\n');
    await new Promise((resolve) => child.stdout.once('data', resolve));
    const closed = new Promise<[number | null, string | null]>((resolve) => child.on('close', (code, signal) => resolve([code, signal])));
    child.kill('SIGHUP');
    expect(await closed).toEqual([129, null]);
  });
});

describe('a client that reads slowly', () => {
  test('backpressure: every line arrives, in order, and nothing is said on stderr', async () => {
    const lines = 20_000;
    const script = `for (let i = 0; i < ${lines}; i++) process.stdout.write(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { i } }) + '\\n')`;
    const child = spawn(process.execPath, [BIN, 'proxy', '--', process.execPath, '-e', script]);
    child.stdin.end();
    let stderr = '';
    child.stderr.on('data', (data: Buffer) => (stderr += data.toString()));
    child.stdout.pause();
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const chunks: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.stdout.resume();
    const status = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(status).toBe(0);
    expect(stderr).toBe('');
    const received = Buffer.concat(chunks).toString().trimEnd().split('\n');
    expect(received).toHaveLength(lines);
    expect(received.map((line) => (JSON.parse(line) as { params: { i: number } }).params.i)).toEqual(Array.from({ length: lines }, (_, i) => i));
  }, 30_000);
});

describe('bytes around a repaired call', () => {
  test('invalid UTF-8 in _meta survives byte for byte; only the argument bytes change', async () => {
    const log = join(mkdtempSync(join(tmpdir(), 'schema-coerce-bytes-')), 'received.jsonl');
    const head = Buffer.from('{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"_meta":{"note":"');
    const bad = Buffer.from([0xff, 0xfe, 0xc3, 0x28, 0xe2, 0x82]);
    const tail = Buffer.from('"},"name":"get_symbol_info","arguments":{"line":5.0,"filePath":"caf\u00e9.go"}}}');
    const call = Buffer.concat([head, bad, tail]);
    const child = spawn(process.execPath, [BIN, 'proxy', '--', 'python3', STRICT], { env: { ...process.env, RAW_LOG: log } });
    const done = new Promise<number | null>((resolve) => child.on('close', resolve));
    child.stdout.resume();
    child.stdin.end(Buffer.concat([Buffer.from(INIT + '\n'), call, Buffer.from('\n')]));
    expect(await done).toBe(0);
    const received = readFileSync(log);
    const expected = Buffer.concat([head, bad, Buffer.from(tail.toString('utf8').replace('5.0', '5')), Buffer.from('\n')]);
    expect(received.subarray(received.length - expected.length).equals(expected)).toBe(true);
  });
});
