/**
 * The parts of the MCP wrappers no SDK reaches on its own: the transport tap when an SDK reads
 * `onmessage` back and chains it, or sets back what it read; and the results' bookkeeping (which
 * responses answer a call, how many calls are remembered, what is reported).
 */
import { describe, expect, test } from 'vitest';
import { ResultRepairs, type RepairedToolResult } from '../src/adapters/mcp/results.js';
import type { McpLowLevelServer, McpTransport, WireMessage } from '../src/adapters/mcp/sdk-types.js';
import { withServerArgCoercion } from '../src/mcp.js';
import { tapTransport } from '../src/adapters/mcp/tap.js';
import { ToolSchemas } from '../src/adapters/shared/tool-schemas.js';
import { parseArgs, stringifyArgs } from '../src/index.js';

type Handler = (message: unknown, extra?: unknown) => void;

/** A transport as the SDKs' are: `send`, and an `onmessage` it calls for each message that arrives. */
class FakeTransport {
  readonly sent: unknown[] = [];
  onmessage?: Handler | undefined;

  async send(message: unknown): Promise<void> {
    this.sent.push(message);
  }

  arrive(message: unknown, extra?: unknown): void {
    this.onmessage?.(message, extra);
  }
}

/** A tap that records what it sees and delivers each message, its `id` increased by `bump`. */
function recordingTap(seen: string[], bump = 0) {
  return {
    sent: (message: WireMessage) => seen.push(`sent ${String(message.id)}`),
    received: (message: WireMessage, extra: unknown, deliver: Handler) => {
      seen.push(`received ${String(message.id)}`);
      deliver({ ...message, id: (message.id as number) + bump }, extra);
    },
  };
}

describe('tapTransport', () => {
  test('what the SDK sends is seen first; what arrives reaches the handler through the tap, with its extra', async () => {
    const transport = new FakeTransport();
    const seen: string[] = [];
    const send = tapTransport(transport as unknown as McpTransport, recordingTap(seen, 10));
    const delivered: unknown[] = [];
    transport.onmessage = (message, extra) => delivered.push([message, extra]);
    await transport.send({ id: 1 });
    transport.arrive({ id: 2 }, { classification: 'modern' });
    await send({ id: 3 });
    expect(seen).toEqual(['sent 1', 'received 2']);
    expect(transport.sent).toEqual([{ id: 1 }, { id: 3 }]);
    expect(delivered).toEqual([[{ id: 12 }, { classification: 'modern' }]]);
  });

  test('a handler set before the tap (a client wrapped after connect) is tapped too', () => {
    const transport = new FakeTransport();
    const delivered: unknown[] = [];
    transport.onmessage = (message) => delivered.push(message);
    const seen: string[] = [];
    tapTransport(transport as unknown as McpTransport, recordingTap(seen));
    transport.arrive({ id: 1 });
    expect(seen).toEqual(['received 1']);
    expect(delivered).toEqual([{ id: 1 }]);
  });

  test('no handler: nothing to read back, and nothing delivered', () => {
    const transport = new FakeTransport();
    tapTransport(transport as unknown as McpTransport, recordingTap([]));
    expect(transport.onmessage).toBeUndefined();
    transport.onmessage = undefined;
    expect(transport.onmessage).toBeUndefined();
  });

  test('an SDK that reads the handler and chains it from its own reaches the tap once per handler, never in a loop', () => {
    const transport = new FakeTransport();
    const seen: string[] = [];
    tapTransport(transport as unknown as McpTransport, recordingTap(seen, 1));
    const delivered: string[] = [];
    transport.onmessage = (message) => delivered.push(`first ${String((message as WireMessage).id)}`);
    const previous = transport.onmessage;
    transport.onmessage = (message, extra) => {
      previous(message, extra);
      delivered.push(`second ${String((message as WireMessage).id)}`);
    };
    transport.arrive({ id: 1 });
    expect(seen).toEqual(['received 1', 'received 2']);
    expect(delivered).toEqual(['first 3', 'second 2']);
  });

  test('setting back the handler it read (a probe window restoring it) keeps it tapped once', () => {
    const transport = new FakeTransport();
    const seen: string[] = [];
    tapTransport(transport as unknown as McpTransport, recordingTap(seen));
    const delivered: unknown[] = [];
    transport.onmessage = (message) => delivered.push(message);
    const saved = transport.onmessage;
    transport.onmessage = () => undefined;
    transport.onmessage = saved;
    expect(transport.onmessage).toBe(saved);
    transport.arrive({ id: 1 });
    expect(seen).toEqual(['received 1']);
    expect(delivered).toEqual([{ id: 1 }]);
  });
});

describe('ResultRepairs', () => {
  const OUTPUT = { type: 'object', properties: { count: { type: 'integer' } }, required: ['count'] };
  const FAILED = { content: [{ type: 'text', text: 'no' }], structuredContent: { error: 'no' }, isError: true };

  async function repairs(validate?: (args: unknown) => { ok: boolean }) {
    const schemas = new ToolSchemas();
    schemas.store([{ name: 'count', inputSchema: {}, outputSchema: OUTPUT }, { name: 'plain', inputSchema: {} }], true);
    const reports: [string, RepairedToolResult][] = [];
    const results = new ResultRepairs(schemas, { validate, report: (tool, result) => reports.push([tool, result]) });
    await results.ready();
    return { results, reports };
  }

  test('the response to a call is repaired and reported; its id is then forgotten', async () => {
    const { results, reports } = await repairs();
    results.sent({ id: 1, method: 'tools/call', params: { name: 'count' } });
    const response = { jsonrpc: '2.0', id: 1, result: FAILED };
    expect(results.received(response)).toEqual({ jsonrpc: '2.0', id: 1, result: { content: FAILED.content, isError: true } });
    expect(reports.map(([tool, result]) => [tool, result.changes.map((change) => change.rule)])).toEqual([['count', ['error-structured-content']]]);
    expect(results.received(response)).toBe(response);
    expect(reports).toHaveLength(1);
  });

  test('what is not the response to a remembered call passes as it is, unreported', async () => {
    const { results, reports } = await repairs();
    results.sent({ id: 1, method: 'tools/list' });
    results.sent({ id: 2, method: 'tools/call', params: { name: 7 } });
    results.sent({ method: 'tools/call', params: { name: 'count' } });
    results.sent({ id: 3, method: 'tools/call', params: null });
    results.sent({ id: 4, method: 'tools/call', params: { name: 'plain' } });
    results.sent({ id: 5, method: 'tools/call', params: { name: 'count' } });
    for (const message of [
      { id: 1, result: FAILED },
      { id: 2, result: FAILED },
      { id: 3, result: FAILED },
      { id: 4, result: FAILED },
      { id: 5, method: 'tools/call', params: { name: 'count' } },
      { method: 'notifications/progress' },
      { id: 5, error: { code: -32602, message: 'no' } },
    ]) {
      expect(results.received(message)).toBe(message);
    }
    expect(reports).toEqual([]);
    // The error response answered call 5: a result arriving for it now is no answer.
    const late = { id: 5, result: FAILED };
    expect(results.received(late)).toBe(late);
  });

  test('a request of another method that names a tool (prompts/get), and its answer, are not a call', async () => {
    const { results, reports } = await repairs();
    results.sent({ id: 1, method: 'prompts/get', params: { name: 'count' } });
    const answer = { id: 1, result: FAILED };
    expect(results.received(answer)).toBe(answer);
    expect(reports).toEqual([]);
  });

  test('a request from the server that reuses a call\'s id is no answer to it, and the answer still comes', async () => {
    const { results } = await repairs();
    results.sent({ id: 1, method: 'tools/call', params: { name: 'count' } });
    const request = { id: 1, method: 'elicitation/create', params: {} };
    expect(results.received(request)).toBe(request);
    expect(results.received({ id: 1, result: FAILED })).toEqual({ id: 1, result: { content: FAILED.content, isError: true } });
  });

  test('a result that needs nothing comes back as the same message, reported with no change', async () => {
    const { results, reports } = await repairs();
    results.sent({ id: 'a', method: 'tools/call', params: { name: 'count' } });
    const response = { id: 'a', result: { content: [], structuredContent: { count: 2 } } };
    expect(results.received(response)).toBe(response);
    expect(reports.map(([, result]) => result.changes)).toEqual([[]]);
  });

  test('a validator given as validate judges; none given, the built-in one does', async () => {
    const lenient = await repairs(() => ({ ok: true }));
    lenient.results.sent({ id: 1, method: 'tools/call', params: { name: 'count' } });
    expect(lenient.results.received({ id: 1, result: FAILED })).toEqual({ id: 1, result: FAILED });
    const builtIn = await repairs();
    builtIn.results.sent({ id: 1, method: 'tools/call', params: { name: 'count' } });
    expect((builtIn.results.received({ id: 1, result: FAILED }) as { result: object }).result).not.toHaveProperty('structuredContent');
  });

  test('integerRange is the arguments\' own', () => {
    const schemas = new ToolSchemas();
    schemas.store([{ name: 'count', outputSchema: OUTPUT }], true);
    const result = parseArgs('{"content":[],"structuredContent":{"count":1e20}}');
    for (const [integerRange, count] of [[undefined, '1e20'], ['unbounded', '100000000000000000000']] as const) {
      const results = new ResultRepairs(schemas, { integerRange, report: () => undefined });
      results.sent({ id: 1, method: 'tools/call', params: { name: 'count' } });
      expect(stringifyArgs((results.received({ id: 1, result }) as { result: unknown }).result)).toBe(`{"content":[],"structuredContent":{"count":${count}}}`);
    }
  });

  test('at most 1,024 calls are remembered: past that, the oldest is forgotten', async () => {
    const { results } = await repairs();
    for (let id = 0; id <= 1024; id++) results.sent({ id, method: 'tools/call', params: { name: 'count' } });
    const oldest = { id: 0, result: FAILED };
    expect(results.received(oldest)).toBe(oldest);
    expect(results.received({ id: 1, result: FAILED })).not.toHaveProperty('result.structuredContent');
    expect(results.received({ id: 1024, result: FAILED })).not.toHaveProperty('result.structuredContent');
  });

  test('before ready, error results are repaired but never judged', () => {
    const schemas = new ToolSchemas();
    schemas.store([{ name: 'count', outputSchema: OUTPUT }], true);
    const results = new ResultRepairs(schemas, { report: () => undefined });
    results.sent({ id: 1, method: 'tools/call', params: { name: 'count' } });
    expect(results.received({ id: 1, result: FAILED })).toEqual({ id: 1, result: FAILED });
  });
});

describe('ToolSchemas: output schemas', () => {
  test('each listing says which tools have one: a later page can take it away, a first page forgets them all', () => {
    const schemas = new ToolSchemas();
    schemas.store([{ name: 'a', outputSchema: { type: 'object' } }, { name: 'b', outputSchema: { type: 'array' } }], true);
    expect([schemas.output('a'), schemas.output('b')]).toEqual([{ type: 'object' }, { type: 'array' }]);
    schemas.store([{ name: 'a' }], false);
    expect([schemas.output('a'), schemas.output('b')]).toEqual([undefined, { type: 'array' }]);
    schemas.store([{ name: 'c', outputSchema: {} }], true);
    expect([schemas.output('b'), schemas.output('c')]).toEqual([undefined, {}]);
    schemas.clear();
    expect(schemas.output('c')).toBeUndefined();
  });
});

describe('withServerArgCoercion: its own answer to a refused call, by era', () => {
  const KEY = 'io.modelcontextprotocol/protocolVersion';

  /** A low-level server as the wrapper sees one: `connect`, and a `tools/list` handler of its own. */
  function fakeServer() {
    const delivered: unknown[] = [];
    const server = {
      _requestHandlers: new Map([['tools/list', async () => ({ tools: [{ name: 't', inputSchema: { type: 'object', properties: { n: { type: 'integer' } } } }] })]]),
      async connect(transport: McpTransport) {
        (transport as unknown as FakeTransport).onmessage = (message) => delivered.push(message);
      },
    };
    return { server, delivered };
  }

  test.each([
    ['a 2026-07-28 request', { [KEY]: '2026-07-28' }, { resultType: 'complete' }],
    ['a request without the envelope', undefined, {}],
    ['a _meta of null', null, {}],
    ['a protocol version that is no string', { [KEY]: 20260728 }, {}],
  ])('%s', async (_name, meta, extra) => {
    const { server, delivered } = fakeServer();
    withServerArgCoercion(server as unknown as McpLowLevelServer, { rejectUndeclared: true });
    const transport = new FakeTransport();
    await server.connect(transport as unknown as McpTransport);
    transport.arrive({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 't', arguments: { m: 1 }, ...(meta === undefined ? {} : { _meta: meta }) } });
    await expect.poll(() => transport.sent).toHaveLength(1);
    const answer = transport.sent[0] as { id: number; result: { isError: boolean; resultType?: string } };
    expect(answer).toMatchObject({ jsonrpc: '2.0', id: 7, result: { isError: true, ...extra } });
    expect('resultType' in answer.result).toBe('resultType' in extra);
    expect(delivered).toEqual([]);
  });
});
