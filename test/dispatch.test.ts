/**
 * What a server receives from a prepared call, by every route a caller may take with it.
 * fixtures/dispatch/values.json holds, per value, the text prepared (`json`), the JavaScript
 * values prepared (`args`), and what each route delivers, as data:
 * - `sent`: `JSON.stringify(call.args)`, which is also what the SDK's stdio transport writes and a
 *   server reading numbers exactly receives (`examples/exact-server.ts`), on a runtime with
 *   `JSON.rawJSON`; `sentWithoutRawJSON` when it differs there: `{ error: path }`, a
 *   `NumberPrecisionError` naming the path, thrown before anything is sent;
 * - `cloned`: `structuredClone(call.args)`, or `{ error: "DataCloneError" }`;
 * - `inMemory`: what an SDK server's handler gets over the SDK's in-memory transport (objects
 *   handed over as they are, then the SDK's own request parsing);
 * - `reparsed`: `JSON.parse(call.json)`, which rounds (the one route the library cannot guard).
 * Values are JSON, with `{ exact, path }` for an `ExactNumber` and `{ number }` for a number JSON
 * cannot write (`-0`, `Infinity`).
 */
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ExactNumber, NumberPrecisionError, isLosslessNumber, prepareToolCall, type CoerceOptions, type PreparedCall } from '../src/index.js';
import { loadFixtures } from './_helpers/fixtures.js';
import { ROOT } from './_helpers/run.js';

interface Row {
  readonly name: string;
  readonly schema: unknown;
  readonly options?: CoerceOptions;
  readonly input: string;
  readonly json: string;
  readonly args: unknown;
  readonly sent: string;
  readonly sentWithoutRawJSON?: { readonly error: string };
  readonly cloned: unknown;
  readonly inMemory: unknown;
  readonly reparsed: unknown;
}

const HAS_RAW_JSON = typeof (JSON as { rawJSON?: unknown }).rawJSON === 'function';
const rows = loadFixtures<Row>('dispatch').flatMap(({ cases }) => cases);

/** A value as the fixtures write it: JSON, with `{ exact, path }` and `{ number }` for what JSON cannot hold. */
function described(value: unknown): unknown {
  if (value instanceof ExactNumber) return { exact: value.value, path: value.path };
  if (isLosslessNumber(value)) return { lossless: value.value };
  if (typeof value === 'number') return Object.is(value, -0) || !Number.isFinite(value) ? { number: String(Object.is(value, -0) ? '-0' : value) } : value;
  if (Array.isArray(value)) return value.map(described);
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) Object.defineProperty(out, key, { value: described((value as Record<string, unknown>)[key]), enumerable: true, writable: true, configurable: true });
  return out;
}

/** What `run` gives, described, or the error it throws: `{ error: path }` for a `NumberPrecisionError`, `{ error: name }` otherwise. */
async function outcome(run: () => unknown): Promise<unknown> {
  try {
    return described(await run());
  } catch (error) {
    if (error instanceof NumberPrecisionError) return { error: error.path };
    // The SDK's client hands the transport's error on as it is, its class and fields kept.
    return { error: (error as Error).name };
  }
}

const prepared = (row: Row): PreparedCall => prepareToolCall(row.input, row.schema, row.options ?? {});

test('the table holds every kind of value the routes must keep apart', () => {
  expect(rows.length).toBeGreaterThanOrEqual(19);
  const kinds = rows.map((row) => JSON.stringify(row.args));
  for (const needle of ['"exact":"9007199254740993"', '"exact":"1e400"', '"number":"-0"', '"__proto__"', '"/v/0/id"']) expect(kinds.some((kind) => kind.includes(needle)), needle).toBe(true);
});

describe.each(rows)('$name', (row) => {
  test('prepared: the exact text, and JavaScript values that are plain numbers where one is exact', () => {
    const call = prepared(row);
    expect(call.ok).toBe(true);
    expect(call.json).toBe(row.json);
    expect(described(call.args)).toEqual(row.args);
  });

  test('JSON.stringify(call.args)', async () => {
    const expected = HAS_RAW_JSON ? row.sent : (row.sentWithoutRawJSON ?? row.sent);
    expect(await outcome(() => JSON.stringify(prepared(row).args))).toEqual(expected);
  });

  test('structuredClone(call.args)', async () => {
    expect(await outcome(() => structuredClone(prepared(row).args))).toEqual(row.cloned);
  });

  test('JSON.parse(call.json) rounds as documented: call.args is the value to send', () => {
    expect(described(JSON.parse(prepared(row).json))).toEqual(row.reparsed);
  });
});

describe('an MCP SDK client: callTool({ arguments: call.args })', () => {
  let stdio: Client;
  let inMemory: Client;
  const handled: unknown[] = [];

  beforeAll(async () => {
    stdio = new Client({ name: 'dispatch-test', version: '1.0.0' });
    await stdio.connect(new StdioClientTransport({ command: process.execPath, args: ['--import', 'tsx', join(ROOT, 'examples', 'exact-server.ts')], cwd: ROOT, stderr: 'pipe' }));
    const server = new Server({ name: 'in-process', version: '1.0.0' }, { capabilities: { tools: {} } });
    server.setRequestHandler(CallToolRequestSchema, async (request) => {
      handled.push(request.params.arguments);
      return { content: [] };
    });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    inMemory = new Client({ name: 'dispatch-test', version: '1.0.0' });
    await inMemory.connect(clientSide);
  }, 60_000);

  afterAll(async () => {
    await stdio?.close();
    await inMemory?.close();
  });

  test.each(rows)('over stdio, to a server reading numbers exactly: $name', async (row) => {
    const expected = HAS_RAW_JSON ? row.sent : (row.sentWithoutRawJSON ?? row.sent);
    const result = await outcome(async () => {
      const answer = await stdio.callTool({ name: 'open_ticket', arguments: prepared(row).args as Record<string, unknown> });
      return (answer.content as { text: string }[])[0]!.text;
    });
    expect(result).toEqual(expected);
  });

  test.each(rows)('in memory, the objects handed over as they are: $name', async (row) => {
    handled.length = 0;
    await inMemory.callTool({ name: 'any', arguments: prepared(row).args as Record<string, unknown> });
    expect(handled.map(described)).toEqual([row.inMemory]);
  });
});
