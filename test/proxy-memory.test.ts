/**
 * The proxy's memory: a 50 MB argument is repaired while the proxy's resident size grows by less
 * than 3.5 times the message (4.5 on Node 24, whose collector runs later), and an unterminated
 * line from the server is streamed through instead of held. Sizes are read from /proc (VmHWM,
 * VmRSS). The line's text and, until the next collection, the pieces it was read in are held; the
 * repaired arguments are written as slices of the line, never as a second copy: 2.6–2.9× on Node
 * 20 and 22 and 3.1–3.6× on Node 24 (3.6–3.9× and 4.1–4.7× with the copy, 8–10× before).
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { BIN } from './_helpers/run.js';

const SERVER = join(import.meta.dirname, 'peers', 'byte-server.mjs');
const MB = 1 << 20;
const INIT = '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}';

/** The proxy's resident size now and at its peak, in bytes. */
function memory(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name: string): number => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)![1]) * 1024;
  return { rss: kb('VmRSS'), peak: kb('VmHWM') };
}

/** Reads the proxy's stdout line by line; resolves each awaited line. */
function lines(child: ChildProcessWithoutNullStreams): () => Promise<string> {
  let buffered = '';
  const waiting: ((line: string) => void)[] = [];
  const ready: string[] = [];
  child.stdout.on('data', (chunk: Buffer) => {
    buffered += chunk.toString('latin1');
    for (let at = buffered.indexOf('\n'); at !== -1; at = buffered.indexOf('\n')) {
      const line = buffered.slice(0, at);
      buffered = buffered.slice(at + 1);
      const next = waiting.shift();
      if (next === undefined) ready.push(line);
      else next(line);
    }
  });
  return () => (ready.length > 0 ? Promise.resolve(ready.shift()!) : new Promise((resolve) => waiting.push(resolve)));
}

/** What the server saw of a tools/call: the line's size and its last 40 bytes. */
function seen(reply: string): { bytes: number; tail: string } {
  return JSON.parse((JSON.parse(reply) as { result: { content: { text: string }[] } }).result.content[0]!.text) as { bytes: number; tail: string };
}

const onLinux = process.platform === 'linux';

describe.runIf(onLinux)('the proxy\'s memory', () => {
  const guard = Number(process.versions.node.split('.')[0]) >= 24 ? 4.5 : 3.5;

  test(`a 50 MB argument: repaired, and the proxy grows by less than ${guard}× the message`, async () => {
    const child = spawn(process.execPath, [BIN, 'proxy', '--', process.execPath, SERVER]);
    const next = lines(child);
    child.stdin.write(INIT + '\n');
    await next();
    // The proxy learns the tool's schema from its own tools/list on a first, small call.
    child.stdin.write('{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"search","arguments":{"q":"x","limit":1.0}}}\n');
    expect(seen(await next()).tail).toMatch(/"limit":1\}\}\}$/);
    const before = memory(child.pid!);
    const message = `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"search","arguments":{"q":"${'x'.repeat(50 * MB)}","limit":5.0}}}\n`;
    child.stdin.write(message);
    expect(seen(await next())).toEqual({ bytes: message.length - 3, tail: 'x","limit":5}}}'.padStart(40, 'x') });
    const growth = memory(child.pid!).peak - before.rss;
    child.stdin.end();
    await new Promise((resolve) => child.on('close', resolve));
    expect(growth).toBeLessThan(guard * message.length);
  }, 60_000);

  test('an unterminated 100 MB line from the server is streamed through, and gets no newline', async () => {
    const child = spawn(process.execPath, [BIN, 'proxy', '--', process.execPath, SERVER], { env: { ...process.env, FLOOD_BYTES: String(100 * MB), EXIT_AFTER_FLOOD: '1' } });
    let received = 0;
    let last = -1;
    let peak = 0;
    child.stdout.on('data', (chunk: Buffer) => {
      received += chunk.length;
      last = chunk[chunk.length - 1]!;
      if (received > 20 * MB && peak === 0) peak = memory(child.pid!).peak;
    });
    const status = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(status).toBe(0);
    expect(received).toBe(100 * MB);
    expect(last).toBe(0x78);
    expect(peak).toBeGreaterThan(0);
    expect(peak).toBeLessThan(100 * MB);
  }, 60_000);
});
