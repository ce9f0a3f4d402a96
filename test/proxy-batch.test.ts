/**
 * JSON-RPC batches through the built proxy to a real Python server that answers batches: a batch
 * holding a `tools/` request never reaches the server (each request is answered with `-32600`),
 * any other batch reaches it byte for byte and is answered by the server.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { BATCH_REFUSED } from '../src/adapters/proxy/batch.js';
import { HAS_PYTHON, needsPython } from './_helpers/peers.js';
import { BIN } from './_helpers/run.js';
import { makeTempDir, removeTempDirs } from './_helpers/temp.js';

const SERVER = join(import.meta.dirname, 'peers', 'batch_server.py');
afterAll(removeTempDirs);

/** Sends `lines` through `schema-coerce proxy [options] -- python3 batch_server.py`; what each side got. */
function run(lines: readonly string[], options: readonly string[] = []): Promise<{ status: number | null; stdout: string[]; received: string }> {
  const log = join(makeTempDir('schema-coerce-batch-'), 'received.jsonl');
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, 'proxy', ...options, '--', 'python3', SERVER], { env: { ...process.env, RAW_LOG: log } });
    let stdout = '';
    child.stdout.on('data', (data: Buffer) => (stdout += data.toString('utf8')));
    child.on('close', (status) => resolve({ status, stdout: stdout.split('\n').filter(Boolean), received: existsSync(log) ? readFileSync(log, 'latin1') : '' }));
    child.stdin.end(Buffer.from(lines.map((line) => line + '\n').join(''), 'latin1'));
  });
}

const INIT = '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}';
const LIST = '{"jsonrpc":"2.0","id":2,"method":"tools/list"}';
const call = (id: number, n: string): string => `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"count","arguments":{"n":${n}}}}`;

describe.skipIf(!HAS_PYTHON)(needsPython('batches through the proxy to a server that answers batches'), () => {
  test.each([[[]], [['--validate']], [['--reject-undeclared', '--lenient']]])('a batch holding a tools/call never reaches the server, with %j', async (options) => {
    const batch = `[${call(10, '"7"')},{"jsonrpc":"2.0","id":11,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/initialized"}]`;
    const result = await run([INIT, LIST, batch, call(12, '5.0')], options);
    expect(result.status).toBe(0);
    // (The call may come before the server's answer to the client's tools/list: the proxy then asks itself.)
    const fromClient = result.received.split('\n').filter((line) => !line.includes('"schema-coerce-proxy:'));
    expect(fromClient).toEqual([INIT, LIST, call(12, '5'), '']);
    const refused = result.stdout.map((line) => JSON.parse(line) as unknown).find(Array.isArray);
    expect(refused).toEqual([10, 11].map((id) => ({ jsonrpc: '2.0', id, error: { code: -32600, message: BATCH_REFUSED } })));
    // The single call after it is repaired and answered by the server as usual.
    expect(result.stdout.some((line) => line.includes('"id": 12') && line.includes('n=5') && line.includes('"isError": false'))).toBe(true);
  }, 20_000);

  test('a batch without a tools/ request reaches the server byte for byte, and its batch answer the client', async () => {
    const batch = '[{"jsonrpc":"2.0","id":20,"method":"ping"} , {"jsonrpc":"2.0","id":"21","method":"resources/read","params":{"uri":"tools/call","n":5.0,"s":"\xc3"}}]';
    const result = await run([INIT, LIST, batch]);
    expect(result.status).toBe(0);
    expect(result.received).toBe([INIT, LIST, batch].map((line) => line + '\n').join(''));
    const answers = result.stdout.map((line) => JSON.parse(line) as unknown).find(Array.isArray);
    expect(answers).toEqual([
      { jsonrpc: '2.0', id: 20, result: {} },
      { jsonrpc: '2.0', id: '21', error: { code: -32601, message: 'no method resources/read' } },
    ]);
  }, 20_000);
});
