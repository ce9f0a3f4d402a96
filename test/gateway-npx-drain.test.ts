/**
 * The gateway's drain through npx (#41 item 6): SIGTERM to `npx schema-coerce gateway` with a call
 * in flight. npm runs the bin through `sh -c` and passes the signal to that shell alone, which
 * dies without passing it on; the gateway follows its parent's end: the call finishes, new
 * requests get 503, the stdio server stops, the gateway exits. Runs the built bin through the npx
 * on the PATH, in a throwaway project whose node_modules links this checkout.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, expect, test } from 'vitest';
import { connect, textOf } from './_helpers/modern.js';
import { BIN, ROOT } from './_helpers/run.js';
import { makeTempDir, removeTempDirs } from './_helpers/temp.js';

/** The package's own bin, as npx runs it from the project's node_modules/.bin. */
const PACKAGE_BIN = 'schema-coerce';
const STDIO_SERVER = join(import.meta.dirname, 'peers', 'gateway-stdio.mjs');

const cleanups: (() => Promise<unknown> | void)[] = [];
afterEach(async () => {
  for (const close of cleanups.splice(0).reverse()) await Promise.resolve(close()).catch(() => undefined);
});
afterAll(removeTempDirs);

function killQuietly(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // Gone already.
  }
}

/** A project with schema-coerce installed (this checkout, built), as `npx schema-coerce` finds it. */
function projectWithPackage(): string {
const project = makeTempDir('schema-coerce-npx-');
writeFileSync(join(project, 'package.json'), '{"name":"npx-drain","version":"1.0.0","private":true}');
mkdirSync(join(project, 'node_modules', '.bin'), { recursive: true });
symlinkSync(ROOT, join(project, 'node_modules', 'schema-coerce'));
symlinkSync(BIN, join(project, 'node_modules', '.bin', 'schema-coerce'));
return project;
}

test('SIGTERM to npx schema-coerce gateway with a call in flight: it finishes, new requests get 503, the server stops, the gateway exits', async () => {
  const project = projectWithPackage();
  const { npm_lifecycle_event: _, ...env } = process.env;
  const args = ['--no-install', PACKAGE_BIN, 'gateway', '--listen', '127.0.0.1:0', '--', process.execPath, STDIO_SERVER];
  const npx = spawn('npx', args, { cwd: project, env, stdio: ['ignore', 'ignore', 'pipe'] });
  cleanups.push(() => void npx.kill('SIGKILL'));
  let stderr = '';
  npx.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  // The pipe closes once every process holding it has: npm, its shell, the gateway and its server.
  const allGone = new Promise<void>((resolve) => npx.stderr.on('close', resolve));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no listening line: ${stderr}`)), 20_000);
    npx.stderr.on('data', () => {
      const found = /listening on (\S+),/.exec(stderr);
      if (found !== null) resolve(found[1]!);
      if (found !== null) clearTimeout(timer);
    });
  });
  const client = await connect('v1', url);
  cleanups.push(() => client.close());
  const serverPid = Number(textOf(await client.callTool({ name: 'pid', arguments: {} })));
  // Should the gateway outlive the test (orphaned, as it was before it followed its parent), it is ended: its pid is its server's parent.
  const stat = `/proc/${serverPid}/stat`;
  const gatewayPid = existsSync(stat) ? Number(readFileSync(stat, 'utf8').split(') ')[1]!.split(' ')[1]) : undefined;
  cleanups.push(() => void (gatewayPid !== undefined && killQuietly(gatewayPid)));
  const slow = client.callTool({ name: 'slow', arguments: { ms: 2_500 } });
  await new Promise((resolve) => setTimeout(resolve, 300));
  npx.kill('SIGTERM');
  await expect.poll(() => stderr, { timeout: 5_000 }).toContain('finishing the calls in flight');
  const late = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"ping"}' });
  expect([late.status, await late.text()]).toEqual([503, '{"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"Service Unavailable: the gateway is shutting down"}}']);
  expect((await fetch(new URL('/readyz', url))).status).toBe(503);
  expect(textOf(await slow)).toBe('slept:2500');
  await allGone;
  expect(() => process.kill(serverPid, 0)).toThrow();
  expect(stderr).toMatch(/schema-coerce gateway: the parent process ended \(npm's shell, which does not pass signals on\): finishing the calls in flight\n/);
}, 60_000);
