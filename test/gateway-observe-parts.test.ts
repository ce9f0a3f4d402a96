/**
 * The parts of the gateway's observability on their own: the audit log's rotation by size (real
 * files), the exposition of names a client chose (escaped, bounded), the histogram's buckets, a
 * failing consumer of call events, and the flags' usage errors.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { main } from '../src/adapters/cli/cli.js';
import { AuditLog } from '../src/adapters/gateway/audit.js';
import { CallEvents, type CallEvent } from '../src/adapters/gateway/call-events.js';
import { Metrics } from '../src/adapters/gateway/metrics.js';
import { captureStream } from './_helpers/gateway.js';
import { makeTempDir, removeTempDirs } from './_helpers/temp.js';

afterAll(removeTempDirs);

/** An event; a field given as `undefined` is left out. */
function event(tool: string, extra: Record<string, unknown> = {}): CallEvent {
  const made: Record<string, unknown> = { time: '2026-12-03T22:00:00.000Z', client: { address: '127.0.0.1' }, tool, outcome: 'forwarded', changes: [], refusals: [], gatewaySeconds: 0.0004, upstreamSeconds: 0.02, bytes: 64, ...extra };
  for (const key of Object.keys(made)) if (made[key] === undefined) delete made[key];
  return made as unknown as CallEvent;
}

const lines = (file: string): Record<string, unknown>[] => readFileSync(file, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);

describe('the audit log', () => {
  test('rotates by size: the current file and the files kept, newest first, the oldest dropped, no line split', async () => {
    const target = join(makeTempDir('audit-rotate-'), 'audit.jsonl');
    const warnings: string[] = [];
    const log = new AuditLog({ target, maxBytes: 600, keep: 2 }, (text) => warnings.push(text));
    // Each line is about 200 bytes: three to a file.
    for (let n = 0; n < 14; n++) log.call(event(`tool-${String(n).padStart(2, '0')}`));
    await log.close();
    expect(warnings).toEqual([]);
    expect(existsSync(`${target}.3`)).toBe(false);
    const files = [`${target}.2`, `${target}.1`, target].map(lines);
    for (const name of [`${target}.2`, `${target}.1`, target]) expect(readFileSync(name, 'utf8').length).toBeLessThanOrEqual(600);
    for (const file of files) expect(file.length).toBeGreaterThan(0);
    const tools = files.flat().map((line) => line['tool']);
    // What is kept is the newest calls, in order, ending with the last.
    expect(tools).toEqual(Array.from({ length: tools.length }, (_, at) => `tool-${String(14 - tools.length + at).padStart(2, '0')}`));
    expect(tools.length).toBeLessThan(14);
  });

  test('to stdout (`-`): never rotated; times in milliseconds', async () => {
    const out = captureStream();
    const log = new AuditLog({ target: '-', maxBytes: 10, keep: 1 }, () => undefined, out);
    log.call(event('a'));
    log.call(event('b', { upstreamSeconds: undefined, outcome: 'refused', answer: 'no' }));
    await log.close();
    const written = out.text().trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(written).toEqual([
      { time: '2026-12-03T22:00:00.000Z', client: { address: '127.0.0.1' }, tool: 'a', outcome: 'forwarded', changes: [], refusals: [], gatewayMs: 0.4, upstreamMs: 20, bytes: 64 },
      { time: '2026-12-03T22:00:00.000Z', client: { address: '127.0.0.1' }, tool: 'b', outcome: 'refused', changes: [], refusals: [], answer: 'no', gatewayMs: 0.4, bytes: 64 },
    ]);
  });

  test('a file that cannot be written is named once on the warning line; the calls go on', async () => {
    const warnings: string[] = [];
    const log = new AuditLog({ target: join(makeTempDir('audit-missing-'), 'no', 'such', 'audit.jsonl'), maxBytes: 1_000, keep: 1 }, (text) => warnings.push(text));
    log.call(event('a'));
    log.call(event('b'));
    await log.close();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^the audit log .*audit\.jsonl cannot be written \(ENOENT\)$/);
  });
});

describe('the metrics', () => {
  const counts = () => ({ sessions: 3, children: 2 });

  test('a tool name is a label value escaped as the format says (backslash, quote, line feed), cut at 128 characters', () => {
    const metrics = new Metrics(counts);
    metrics.call(event('a"b\\c\nd'));
    metrics.call(event('x'.repeat(300)));
    const text = metrics.exposition();
    expect(text).toContain('schema_coerce_gateway_calls_total{tool="a\\"b\\\\c\\nd",outcome="forwarded"} 1\n');
    expect(text).toContain(`schema_coerce_gateway_calls_total{tool="${'x'.repeat(128)}",outcome="forwarded"} 1\n`);
    expect(text).toContain('\nschema_coerce_gateway_sessions 3\n');
    expect(text).toContain('\nschema_coerce_gateway_children 2\n');
    // Every sample line is name{labels} value, or name value.
    for (const line of text.trim().split('\n')) if (!line.startsWith('#')) expect(line).toMatch(/^[a-z_]+(\{.*\})? \d+(\.\d+)?(e-?\d+)?$/);
  });

  test('past 200 tool names, any new one is counted as _other', () => {
    const metrics = new Metrics(counts);
    for (let n = 0; n < 205; n++) metrics.call(event(`t${n}`));
    metrics.call(event('t3'));
    const text = metrics.exposition();
    expect(text).toContain('calls_total{tool="t199",outcome="forwarded"} 1\n');
    expect(text).toContain('calls_total{tool="t3",outcome="forwarded"} 2\n');
    expect(text).not.toContain('tool="t200"');
    expect(text).toContain('calls_total{tool="_other",outcome="forwarded"} 5\n');
  });

  test('the histogram\'s buckets are cumulative, +Inf is the count', () => {
    const metrics = new Metrics(counts);
    for (const seconds of [0.0003, 0.004, 0.004, 0.3, 20]) metrics.call(event('t', { gatewaySeconds: seconds, upstreamSeconds: undefined }));
    const text = metrics.exposition();
    const bucket = (le: string): number => Number(new RegExp(`call_duration_seconds_bucket\\{tool="t",part="gateway",le="${le.replace('+', '\\+')}"\\} (\\d+)`).exec(text)![1]);
    expect([bucket('0.0005'), bucket('0.005'), bucket('0.25'), bucket('0.5'), bucket('10'), bucket('+Inf')]).toEqual([1, 3, 3, 4, 4, 5]);
    expect(text).toContain('call_duration_seconds_count{tool="t",part="gateway"} 5\n');
    expect(text).not.toMatch(/^\S+\{tool="t",part="upstream"/m);
  });
});

test('a consumer of call events that throws costs only itself', () => {
  const seen: string[] = [];
  const events = new CallEvents([{ call: () => { throw new Error('full disk'); } }, { call: (received) => seen.push(received.tool) }], false);
  events.emit(undefined, event('t'));
  expect(seen).toEqual(['t']);
});

describe('the flags', () => {
  const gateway = (...flags: string[]) => main(['gateway', '--listen', '127.0.0.1:0', ...flags, '--', 'node', 'server.js']);

  test.each([
    [['--audit-values'], '--audit-values, --audit-max-bytes and --audit-keep need --audit <file | ->'],
    [['--audit-keep', '2'], '--audit-values, --audit-max-bytes and --audit-keep need --audit <file | ->'],
    [['--audit', 'a.jsonl', '--audit-max-bytes', '0'], '--audit-max-bytes must be a positive whole number, not "0"'],
    [['--audit', 'a.jsonl', '--audit-keep', 'two'], '--audit-keep must be a positive whole number, not "two"'],
    [['--metrics', '9464'], '--metrics "9464" must be host:port'],
  ])('%j is a usage error naming the flag', async (flags, message) => {
    await expect(gateway(...flags)).rejects.toMatchObject({ name: 'UsageError', command: 'schema-coerce gateway', detail: message });
  });
});
