/**
 * `--repair-results` in process: tool results repaired against the tool's `outputSchema`, the
 * rows of `fixtures/proxy/results.json` byte for byte (integers restored in `structuredContent`,
 * only the spans that change; an `isError` result's mismatching `structuredContent` dropped), and
 * which server lines the session reads for it. Real clients: `proxy-results-clients.test.ts`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { bytesOf, type Piece } from '../src/adapters/proxy/outlet.js';
import { ResultRepair } from '../src/adapters/proxy/result-repair.js';
import { ProxySession, type ProxyOptions } from '../src/adapters/proxy/session.js';
import { validateArgs } from '../src/validate.js';
import { knownSession } from './_helpers/known-session.js';

interface Row {
  readonly name: string;
  readonly schema: unknown;
  readonly result: string;
  readonly lenient?: boolean;
  readonly validator?: false;
  readonly expected: string | null;
  readonly changes: readonly Record<string, unknown>[];
  readonly refusals?: readonly { readonly path: string; readonly reason: string }[];
}

const ROWS = (JSON.parse(readFileSync(join(import.meta.dirname, '..', 'fixtures', 'proxy', 'results.json'), 'utf8')) as { rows: Row[] }).rows;

/** A session wired to arrays, that has seen the client list `tools`. */
function listed(options: ProxyOptions, tools: unknown[]) {
  return knownSession(options, tools);
}

const line = (id: number, result: string): string => `{"jsonrpc":"2.0","id":${id},"result":${result}}`;
const call = (id: number, name: string, args: string): string => `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"${name}","arguments":${args}}}`;

describe('results repaired in process (fixtures/proxy/results.json)', () => {
  test.each(ROWS)('$name', (row) => {
    const options: ProxyOptions = { repairResults: true, lenient: row.lenient === true, ...(row.validator === false ? {} : { resultValidator: validateArgs }) };
    const { session, toClient, reports } = listed(options, [{ name: 'stats', inputSchema: { type: 'object' }, outputSchema: row.schema }]);
    session.fromClient(Buffer.from(call(5, 'stats', '{}')), true);
    expect(session.serverPasses(Buffer.from(line(5, row.result) + '\n'))).toBe(false);
    session.fromServer(Buffer.from(line(5, row.result), 'utf8'), true);
    expect(toClient.join('')).toBe(line(5, row.expected ?? row.result) + '\n');
    expect(reports.filter(({ kind }) => kind === 'change').map(({ time: _time, kind: _kind, tool: _tool, ...rest }) => rest)).toEqual(row.changes);
    expect(reports.filter(({ kind }) => kind === 'refusal').map(({ path, reason }) => ({ path, reason }))).toEqual(row.refusals ?? []);
    expect(reports.every(({ kind, tool }) => (kind === 'change' || kind === 'refusal') && tool === 'stats')).toBe(true);
    // Once its result came, the call is no longer awaited: server lines pass unread again.
    expect(session.serverPasses(Buffer.from(line(5, row.result) + '\n'))).toBe(true);
  });

  const OUTPUT = { type: 'object', properties: { total: { type: 'integer' } }, required: ['total'] };
  const STATS = [{ name: 'stats', inputSchema: { type: 'object' }, outputSchema: OUTPUT }];

  test.each([
    ['isError outside result', '{"jsonrpc":"2.0","id":5,"isError":true,"result":{"structuredContent":{"error":"x"},"content":[]}}'],
    ['isError deeper in result', '{"jsonrpc":"2.0","id":5,"result":{"content":[{"isError":true}],"structuredContent":{"error":"x"}}}'],
    ['structuredContent outside result', '{"jsonrpc":"2.0","id":5,"error":{"structuredContent":{"total":5.0}},"result":{"content":[]}}'],
    ['structuredContent in a member of result', '{"jsonrpc":"2.0","id":5,"result":{"_meta":{"structuredContent":{"total":5.0}},"content":[]}}'],
    ['isError repeated', '{"jsonrpc":"2.0","id":5,"result":{"isError":true,"isError":false,"structuredContent":{"error":"x"}}}'],
    ['result repeated (readers differ on which counts)', '{"jsonrpc":"2.0","id":5,"result":{"structuredContent":{"total":5.0}},"result":{"structuredContent":{"total":6.0}}}'],
    ['a line that is not JSON', '{"jsonrpc":"2.0","id":5,"result":{"structuredContent":{"total":5.0}}'],
    ['isError as a string', '{"jsonrpc":"2.0","id":5,"result":{"isError":"true","structuredContent":{"total":5}}}'],
  ])('%s: the line goes on as it came', (_name, text) => {
    const { session, toClient } = listed({ repairResults: true, resultValidator: validateArgs }, STATS);
    session.fromClient(Buffer.from(call(5, 'stats', '{}')), true);
    session.fromServer(Buffer.from(text), true);
    expect(toClient.join('')).toBe(text + '\n');
  });

  test('ids are told apart by type: the result of call 5 is not that of call "5"', () => {
    const { session, toClient } = listed({ repairResults: true }, STATS);
    session.fromClient(Buffer.from(call(5, 'stats', '{}')), true);
    session.fromServer(Buffer.from('{"jsonrpc":"2.0","id":"5","result":{"structuredContent":{"total":5.0}}}'), true);
    session.fromClient(Buffer.from(`{"jsonrpc":"2.0","id":"6","method":"tools/call","params":{"name":"stats","arguments":{}}}`), true);
    session.fromServer(Buffer.from('{"jsonrpc":"2.0","id":6,"result":{"structuredContent":{"total":6.0}}}'), true);
    session.fromServer(Buffer.from('{"jsonrpc":"2.0","id":"6","result":{"structuredContent":{"total":6.0}}}'), true);
    expect(toClient).toEqual(['{"jsonrpc":"2.0","id":"5","result":{"structuredContent":{"total":5.0}}}', '\n', '{"jsonrpc":"2.0","id":6,"result":{"structuredContent":{"total":6.0}}}', '\n', '{"jsonrpc":"2.0","id":"6","result":{"structuredContent":{"total":6}}}\n']);
  });

  test('at most 4,096 calls await their result: past it the oldest is forgotten, its result goes on as it came', () => {
    const { session, toClient } = listed({ repairResults: true }, STATS);
    for (let id = 1; id <= 4_097; id++) session.fromClient(Buffer.from(call(id, 'stats', '{}')), true);
    for (const id of [1, 2]) session.fromServer(Buffer.from(line(id, '{"structuredContent":{"total":1.0}}')), true);
    expect(toClient.join('')).toBe(`${line(1, '{"structuredContent":{"total":1.0}}')}\n${line(2, '{"structuredContent":{"total":1}}')}\n`);
  });

  test('without --repair-results, and for tools without an outputSchema, results go on unread', () => {
    const result = '{"structuredContent":{"total":5.0}}';
    const tools = [{ name: 'stats', inputSchema: { type: 'object' }, outputSchema: { type: 'object', properties: { total: { type: 'integer' } } } }, { name: 'plain', inputSchema: { type: 'object' } }];
    const off = listed({}, tools);
    off.session.fromClient(Buffer.from(call(5, 'stats', '{}')), true);
    expect(off.session.serverPasses(Buffer.from(line(5, result) + '\n'))).toBe(true);
    off.session.fromServer(Buffer.from(line(5, result)), true);
    expect(off.toClient.join('')).toBe(line(5, result) + '\n');
    const on = listed({ repairResults: true }, tools);
    on.session.fromClient(Buffer.from(call(6, 'plain', '{}')), true);
    expect(on.session.serverPasses(Buffer.from(line(6, result) + '\n'))).toBe(true);
    on.session.fromServer(Buffer.from(line(6, result)), true);
    expect(on.toClient.join('')).toBe(line(6, result) + '\n');
  });

  test('a call the proxy answers itself awaits no result; a response to another id goes on untouched', () => {
    const tools = [{ name: 'stats', inputSchema: { type: 'object', properties: { n: { type: 'integer' } }, additionalProperties: false }, outputSchema: { type: 'object', properties: { total: { type: 'integer' } } } }];
    const { session, toServer, toClient } = listed({ repairResults: true, rejectUndeclared: true }, tools);
    session.fromClient(Buffer.from(call(7, 'stats', '{"m":1}')), true);
    expect(toServer).toEqual([]);
    expect(JSON.parse(toClient.join('')).result.isError).toBe(true);
    expect(session.serverPasses(Buffer.from(line(7, '{"structuredContent":{"total":5.0}}') + '\n'))).toBe(true);
    session.fromClient(Buffer.from(call(8, 'stats', '{"n":1}')), true);
    toClient.length = 0;
    session.fromServer(Buffer.from(line(9, '{"structuredContent":{"total":5.0}}')), true);
    expect(toClient.join('')).toBe(line(9, '{"structuredContent":{"total":5.0}}') + '\n');
    session.fromServer(Buffer.from(line(8, '{"structuredContent":{"total":5.0}}')), true);
    expect(toClient.at(-1)).toBe(line(8, '{"structuredContent":{"total":5}}') + '\n');
  });

  test('bytes that are not UTF-8 around a repaired number go on as they came: only the number\'s bytes change', () => {
    const sent: Buffer[] = [];
    const session = new ProxySession({ repairResults: true }, { toServer: () => {}, toClient: (piece: Piece) => sent.push(bytesOf(piece)), report: () => {} });
    session.fromClient(Buffer.from('{"jsonrpc":"2.0","id":"list","method":"tools/list","params":{}}'), true);
    session.fromServer(Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: 'list', result: { tools: STATS } })), true);
    session.fromClient(Buffer.from(call(5, 'stats', '{}')), true);
    sent.length = 0;
    const bytes = (total: string): Buffer => Buffer.concat([Buffer.from('{"jsonrpc":"2.0","id":5,"result":{"structuredContent":{"label":"'), Buffer.from([0xff, 0xc3]), Buffer.from(`","total":${total}}}}`)]);
    session.fromServer(bytes('5.0'), true);
    expect(Buffer.concat(sent)).toEqual(Buffer.concat([bytes('5'), Buffer.from('\n')]));
  });

  test('string ids are told apart: the result of another string id goes on as it came', () => {
    const { session, toClient } = listed({ repairResults: true }, STATS);
    session.fromClient(Buffer.from(`{"jsonrpc":"2.0","id":"a","method":"tools/call","params":{"name":"stats","arguments":{}}}`), true);
    session.fromServer(Buffer.from('{"jsonrpc":"2.0","id":"b","result":{"structuredContent":{"total":5.0}}}'), true);
    session.fromServer(Buffer.from('{"jsonrpc":"2.0","id":"a","result":{"structuredContent":{"total":6.0}}}'), true);
    expect(toClient.join('')).toBe('{"jsonrpc":"2.0","id":"b","result":{"structuredContent":{"total":5.0}}}\n{"jsonrpc":"2.0","id":"a","result":{"structuredContent":{"total":6}}}\n');
  });
});

describe('ResultRepair', () => {
  test('a response it cannot read as JSON is left to the session, and the call is no longer awaited', () => {
    const reports: unknown[] = [];
    const repair = new ResultRepair({}, undefined, { toServer: () => {}, toClient: () => reports.push('sent'), report: (entry) => reports.push(entry) });
    repair.track(5, 'stats', { type: 'object', properties: { total: { type: 'integer' } } });
    expect(repair.fromServer(Buffer.from('x'), true, 5, '{"id":5,"result":{"structuredContent":{"total":5.0}}')).toBe(false);
    expect(repair.waiting).toBe(false);
    expect(reports).toEqual([]);
  });
});
