/**
 * `schema-coerce report`: the rows of `fixtures/report/report.json` (log lines in, the exact
 * table, messages and exit status out) through the built CLI, and end to end: an SDK client's
 * calls through the gateway, written to its audit log and its `--log` at once, read back by the
 * report, which says what the schema author needs to hear.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, describe, expect, test } from 'vitest';
import { startGateway } from '../src/adapters/gateway/run.js';
import { captureStream } from './_helpers/gateway.js';
import { BIN } from './_helpers/run.js';
import { REPORT_CASES } from './_helpers/report-rows.js';
import { makeTempDir, removeTempDirs } from './_helpers/temp.js';
import { startHttpPeer } from './peers/http-server.js';

afterAll(removeTempDirs);


function report(args: readonly string[], cwd: string) {
  return spawnSync(process.execPath, [BIN, 'report', ...args], { cwd, encoding: 'utf8' });
}

describe('schema-coerce report, fixture rows', () => {
  test.each(REPORT_CASES.map((row) => [row.name, row] as const))('%s', (_name, row) => {
    const folder = makeTempDir('report-');
    for (const [name, lines] of Object.entries(row.files)) writeFileSync(join(folder, name), lines.map((line) => `${line}\n`).join(''));
    const run = report(row.args, folder);
    expect({ status: run.status, stdout: run.stdout, stderr: run.stderr }).toEqual({ status: row.status, stdout: row.stdout, stderr: row.stderr });
  });
});

describe('schema-coerce report, end to end', () => {
  test('a client\'s calls through the gateway: its audit log and its --log read back, `count` named as a string in 40% of calls', async () => {
    const folder = makeTempDir('report-e2e-');
    const [audit, log, html] = ['audit.jsonl', 'repairs.log', 'report.html'].map((name) => join(folder, name)) as [string, string, string];
    const peer = await startHttpPeer({});
    const gateway = await startGateway({ kind: 'url', url: new URL(peer.url), headers: {} }, { host: '127.0.0.1', port: 0, path: '/mcp', lenient: true, audit, auditValues: true, log }, captureStream());
    const client = new Client({ name: 'report-e2e', version: '1.0.0' });
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(gateway.url)));
      for (const count of ['3', 4, '5', 6]) await client.callTool({ name: 'echo', arguments: { count } });
      await client.callTool({ name: 'echo', arguments: { count: 2, flag: 'true' } });
    } finally {
      await client.close();
      await gateway.close();
      await gateway.log.close();
      await peer.close();
    }
    const fromAudit = report([audit, '--html', html], folder);
    expect(fromAudit.status).toBe(0);
    expect(fromAudit.stderr).toBe('');
    expect(fromAudit.stdout).toContain('echo: `count` comes as a string for an integer in 40% of calls');
    expect(fromAudit.stdout).toContain('echo: `flag` comes as a string for a boolean in 20% of calls');
    expect(fromAudit.stdout).toContain('echo: 5 calls: 3 repaired, 2 forwarded');
    expect(fromAudit.stdout).toMatch(/ {2}count +comes as a string for an integer \(string-to-integer\) +2 +40% {2}"3" → 3\n/);
    expect(readFileSync(html, 'utf8')).toContain('<code>count</code> comes as a string for an integer in 40% of calls');
    const fromLog = report([log], folder);
    expect(fromLog.status).toBe(0);
    expect(fromLog.stdout).toContain('echo: `count` comes as a string for an integer 2 times');
    expect(fromLog.stdout).toMatch(/ {2}flag +comes as a string for a boolean \(string-to-boolean\) +1 +— {2}"true" → true\n/);
  });
});
