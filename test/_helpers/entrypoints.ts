/**
 * The harness that runs rows through every entry point (`test/wild-entrypoints.test.ts` for
 * `fixtures/wild`, `test/lenient-entrypoints.test.ts` for `fixtures/lenient`): the library's calls
 * (`coerceArgsJson`, `prepareToolCall` with and without `renameUnambiguous`), the built CLI, the
 * built proxy in front of a real child server, the MCP client and server adapters over the SDK's
 * own transport, the adapters for the AI SDK, the OpenAI Agents SDK, LangChain.js and Mastra with
 * each framework's real tool objects, and the Agents SDK's and LangChain's MCP tools from the
 * child server over stdio. Each entry point is given a row in the form its framework can hand it
 * (text, or the object a framework parsed from strict JSON), and must answer with the row's
 * repaired arguments or the row's refusal (the reason in its message, cut off or not; the refused
 * values' paths and reasons where the entry point reports them).
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MCPServerStdio, RunContext, tool as agentsTool } from '@openai/agents-core';
import type { JsonObjectSchemaNonStrict } from '@openai/agents-core/types';
import { tool as langchainTool } from '@langchain/core/tools';
import { createTool } from '@mastra/core/tools';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { coercedJsonSchema, repairToolInput } from '../../src/ai.js';
import { ArgsParseError, coerceArgsJson, parseArgs, prepareToolCall, stringifyArgs } from '../../src/index.js';
import type { CoerceOptions, PreparedCall } from '../../src/index.js';
import { coerceTool as coerceLangChainTool, loadCoercedMcpTools } from '../../src/langchain.js';
import { coerceTool as coerceMastraTool } from '../../src/mastra.js';
import { withArgCoercion, withServerArgCoercion } from '../../src/mcp.js';
import { coerceFunctionTool, coerceMcpServer } from '../../src/openai-agents.js';
import { exactText } from '../../src/coerce/exact-text.js';
import { validateArgs } from '../../src/validate.js';
import { loadFixtures, type FixtureCase } from './fixtures.js';
import { BIN, ROOT } from './run.js';
import { makeTempDir, removeTempDirs } from './temp.js';

/** A row of `fixtures/wild` (see `test/wild.test.ts`) or `fixtures/lenient`, with where it comes from. */
export interface Row {
  readonly id: string;
  readonly name: string;
  readonly schema: Record<string, unknown>;
  readonly input: string;
  readonly expected?: string;
  readonly error?: { readonly truncated: boolean; readonly reason: string };
  /** The rules of the changes, in order; `undefined` when the row does not list them (they are then not compared). */
  readonly changes?: readonly string[];
  readonly refusals?: readonly { readonly path: string; readonly reason: string }[];
  readonly options?: CoerceOptions & { readonly toolName?: string };
  /**
   * What `renameUnambiguous` makes of the row where it differs: a refusal whose message holds
   * `error`, or the arguments `expected` with the rules of their `changes`.
   */
  readonly withRename?: { readonly error: string } | { readonly expected: string; readonly changes: readonly string[] };
}

/** What an entry point did with a row. */
type Outcome =
  | {
      readonly kind: 'args';
      /** The arguments the tool received (or the entry point returned), as JSON text. */
      readonly json: string;
      /** Whether they came as plain JS numbers, so only their values can be compared. */
      readonly plain?: boolean;
      /** The rules of the changes and the refusals, where the entry point reports them. */
      readonly rules?: readonly string[];
      readonly refusals?: readonly { readonly path: string; readonly reason: string }[];
    }
  | { readonly kind: 'refused'; readonly message: string }
  /** The AI SDK repair gives nothing back both for text it leaves as it is and for text it refuses. */
  | { readonly kind: 'not-repaired' };

/** The rows of `fixtures/wild`: a row without `changes` makes none. */
export function wildRows(): Row[] {
  return loadFixtures<Omit<Row, 'id'>>('wild').flatMap(({ file, cases }) =>
    cases.map((row, i) => ({ ...row, changes: row.changes ?? [], id: `${file.replace(/^wild\/|\.json$/g, '')}#${i}` }) as Row),
  );
}

/**
 * The rows of `fixtures/lenient` in the same form: the rules of their changes where they list
 * them (a row that changes nothing makes none), their refusals' paths and reasons.
 */
export function lenientRows(): Row[] {
  return loadFixtures<FixtureCase>('lenient').flatMap(({ file, cases }) =>
    cases.map((row, i) => {
      const changes = row.changes?.map((change) => change.rule!) ?? (row.expected === row.input ? [] : undefined);
      return {
        id: `${file.replace(/^lenient\/|\.json$/g, '')}#${i}`,
        name: row.name,
        schema: (row.schema ?? {}) as Record<string, unknown>,
        input: row.input,
        expected: row.expected,
        refusals: row.refusals.map(({ path, reason }) => ({ path, reason })),
        ...(changes === undefined ? {} : { changes }),
        ...(row.options === undefined ? {} : { options: row.options }),
        ...(row.withRename === undefined ? {} : { withRename: row.withRename }),
      };
    }),
  );
}

const compact = (text: string): string => stringifyArgs(parseArgs(text));
const plainJson = (text: string): string => JSON.stringify(JSON.parse(text));
const TOOL = 'tool';
/** The name of the tool a row is a call of: its own `toolName` (the `unwrap` rule reads it), or `tool`. */
const toolOf = (row: Row): string => row.options?.toolName ?? TOOL;
/**
 * The coercion options of a row, as every entry point that takes options is given them: stated in
 * full, for the adapters' defaults differ from the library's (lenient on, integers safe).
 */
const optionsOf = (row: Row): CoerceOptions => ({ lenient: false, integerRange: 'int64', ...(row.options ?? { lenient: true }) });

/** The row's arguments as a framework that parsed the model's strict JSON hands them on, if it would. */
function parsedObject(row: Row): Record<string, unknown> | undefined {
  let value: unknown;
  try {
    value = JSON.parse(row.input);
  } catch {
    return undefined;
  }
  // Only where JSON.parse keeps every number as written (a framework's parse would round the rest)
  // and each number is exactly what its text says: a plain number's text is otherwise unknown, so
  // it is never written as a string (`1.000001` is no double exactly).
  if (typeof value !== 'object' || value === null || Array.isArray(value) || JSON.stringify(value) !== compact(row.input)) return undefined;
  return exactNumbers(value) ? (value as Record<string, unknown>) : undefined;
}

/** True when every number in `value` is exactly its shortest decimal (see `exactText`). */
function exactNumbers(value: unknown): boolean {
  if (typeof value === 'number') return exactText(value) !== undefined;
  if (typeof value !== 'object' || value === null) return true;
  return Object.values(value).every(exactNumbers);
}

/** Rows a command line takes: its only switch is `--lenient` (and, for the CLI, no tool name). */
const takesLenientOnly = (row: Row): boolean => row.options === undefined || ['{"lenient":true}', '{"lenient":true,"toolName":"tool"}'].includes(JSON.stringify(row.options));

/** Checks `outcome` against the row. */
function expectRow(row: Row, outcome: Outcome): void {
  if (row.error !== undefined) {
    if (outcome.kind === 'not-repaired') return;
    expect(outcome.kind, JSON.stringify(outcome)).toBe('refused');
    const { message } = outcome as { message: string };
    expect(message).toContain(row.error.reason);
    expect(/cut off/.test(message)).toBe(row.error.truncated);
    return;
  }
  const expected = row.expected!;
  if (outcome.kind === 'not-repaired') {
    expect(compact(row.input)).toBe(compact(expected));
    return;
  }
  expect(outcome.kind, JSON.stringify(outcome)).toBe('args');
  const args = outcome as Extract<Outcome, { kind: 'args' }>;
  if (args.plain === true) expect(plainJson(args.json)).toBe(plainJson(expected));
  else expect(compact(args.json)).toBe(compact(expected));
  if (args.rules !== undefined && row.changes !== undefined) expect(args.rules).toEqual(row.changes);
  if (args.refusals !== undefined) expect(args.refusals).toEqual((row.refusals ?? []).map(({ path, reason }) => ({ path, reason })));
}

/** The outcome of a `prepareToolCall` result, as an adapter reports it. */
function ofCall(call: PreparedCall, plain = false): Outcome {
  if (!call.ok) return { kind: 'refused', message: call.message ?? '' };
  return {
    kind: 'args',
    json: call.json,
    plain,
    rules: call.changes.map((change) => change.rule),
    refusals: call.refusals.map(({ path, reason }) => ({ path, reason })),
  };
}

/** Runs `command` with `input` on stdin; resolves to its exit status and output. */
function run(args: readonly string[], input: string, env: Record<string, string> = {}): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (data: Buffer) => (stdout += data.toString('utf8')));
    child.stderr.on('data', (data: Buffer) => (stderr += data.toString('utf8')));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
    child.stdin.end(input);
  });
}

/** Runs `tasks` with at most `width` at once. */
async function bounded<T>(tasks: readonly (() => Promise<T>)[], width: number): Promise<T[]> {
  const results: T[] = new Array(tasks.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < tasks.length) {
      const at = next++;
      results[at] = await tasks[at]!();
    }
  };
  await Promise.all(Array.from({ length: width }, worker));
  return results;
}

/** The child server that lists the tools of the file `ECHO_TOOLS` names and echoes each call's arguments. */
const ECHO_SERVER = join(import.meta.dirname, '..', 'peers', 'echo-args-server.mjs');

/** One `tools/call` line for the proxy. */
interface ProxyCall {
  readonly row: Row;
  readonly tool: string;
  /** The `arguments` value as it is written on the line. */
  readonly args: string;
}

/**
 * Runs the built proxy (`--lenient --verbose`) in front of the echoing child server with one tool
 * per call, each call's name unique within the run, and gives each call's outcome.
 */
async function proxyRun(calls: readonly ProxyCall[]): Promise<Outcome[]> {
  const tools = join(makeTempDir('schema-coerce-wild-'), 'tools.json');
  writeFileSync(tools, JSON.stringify(calls.map(({ tool, row }) => ({ name: tool, inputSchema: row.schema }))));
  const lines = [
    '{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"wild","version":"0"}}}',
    '{"jsonrpc":"2.0","method":"notifications/initialized"}',
    ...calls.map(({ tool, args }, i) => `{"jsonrpc":"2.0","id":${i},"method":"tools/call","params":{"name":${JSON.stringify(tool)},"arguments":${args}}}`),
  ];
  const { stdout, stderr } = await run(['proxy', '--lenient', '--verbose', '--', process.execPath, ECHO_SERVER], lines.join('\n') + '\n', { ECHO_TOOLS: tools });
  const answers = new Map<unknown, { isError?: boolean; content: { text: string }[] }>();
  for (const line of stdout.split('\n').filter(Boolean)) {
    const message = JSON.parse(line) as { id: unknown; result?: { isError?: boolean; content: { text: string }[] }; error?: { data: string } };
    // The server could not read what the proxy sent it: the outcome says what it got.
    if (message.error !== undefined) answers.set(message.id, { isError: true, content: [{ text: `the server got a line that is not JSON: ${message.error.data}` }] });
    else answers.set(message.id, message.result!);
  }
  const reports = stderr
    .split('\n')
    .filter((line) => line.startsWith('schema-coerce proxy: '))
    .map((line) => JSON.parse(line.slice('schema-coerce proxy: '.length)) as { kind: string; tool: string; rule?: string; path: string; reason?: string });
  return calls.map(({ tool }, i) => {
    const answer = answers.get(i);
    if (answer === undefined) return { kind: 'refused', message: `no answer to call ${i}` };
    if (answer.isError === true) return { kind: 'refused', message: answer.content[0]!.text };
    const mine = reports.filter((r) => r.tool === tool);
    return {
      kind: 'args',
      json: answer.content[0]!.text,
      rules: mine.filter((r) => r.kind === 'change').map((r) => r.rule!),
      refusals: mine.filter((r) => r.kind === 'refusal').map(({ path, reason }) => ({ path, reason: reason! })),
    };
  });
}

/** Splits `calls` into runs in which no tool name is used twice. */
function byUniqueTool(calls: readonly ProxyCall[]): ProxyCall[][] {
  const runs: ProxyCall[][] = [];
  for (const call of calls) {
    const free = runs.find((group) => group.every((other) => other.tool !== call.tool));
    if (free === undefined) runs.push([call]);
    else free.push(call);
  }
  return runs;
}

/** Whether the JSON text `text` is an object. */
const rootIsObject = (text: string): boolean => compact(text).startsWith('{');

/** Whether `text` is strict JSON whose root is an object. */
function isJsonObjectText(text: string): boolean {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value);
  } catch {
    return false;
  }
}

/** Strict JSON text on one line, its tokens as written. */
const oneLine = (text: string): string => (/[\n\r]/.test(text) ? compact(text) : text);

/** An SDK server listing one tool, `name`, with `schema`, that answers a call with the arguments it received. */
function echoServer(schema: unknown, name: string): Server {
  const server = new Server({ name: 'echo', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [{ name, inputSchema: schema as { type: 'object' } }] }));
  // The arguments as the server received them, written exactly (on Node 20 JSON.stringify refuses an integer beyond 2^53).
  server.setRequestHandler(CallToolRequestSchema, async (request) => ({ content: [{ type: 'text', text: stringifyArgs(request.params.arguments) }] }));
  return server;
}

async function connected(server: Server, wrap: (client: Client) => Client = (client) => client): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = wrap(new Client({ name: 'wild', version: '1.0.0' }));
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  return client;
}

/**
 * The outcome of a call through an MCP adapter. Arguments left as something other than an object
 * (a root `null`, an array) go on, reported as refused, and the SDK's server refuses them itself:
 * then the adapter's report is the outcome.
 */
async function mcpOutcome(row: Row, client: Client, reported: () => PreparedCall | undefined): Promise<Outcome> {
  let result: unknown;
  try {
    result = await client.callTool({ name: toolOf(row), arguments: row.input as never });
  } catch (error) {
    expect(row.expected === undefined || rootIsObject(row.expected), String(error)).toBe(false);
    return ofCall(reported()!);
  }
  return resultOutcome(result, reported());
}

const resultOutcome = (result: unknown, call: PreparedCall | undefined): Outcome => {
  const { isError, content } = result as { isError?: boolean; content: { text: string }[] };
  if (isError === true) return { kind: 'refused', message: content[0]!.text };
  const reported = call === undefined ? undefined : (ofCall(call) as Extract<Outcome, { kind: 'args' }>);
  return { kind: 'args', json: content[0]!.text, plain: true, ...(reported === undefined ? {} : { rules: reported.rules, refusals: reported.refusals }) };
};

/** How many rows a set must give the CLI (one per family and file) and LangChain's clean run, at least. */
export interface Minimums {
  readonly cli: number;
  readonly clean: number;
}

/** Registers the suites that run `rows` through every entry point. */
export function describeEntryPoints(rows: readonly Row[], minimums: Minimums): void {
  afterAll(removeTempDirs);

  describe('the library', () => {
    test.each(rows)('coerceArgsJson: $id $name', (row) => {
      let outcome: Outcome;
      try {
        outcome = { kind: 'args', json: coerceArgsJson(row.input, row.schema, { ...optionsOf(row), toolName: toolOf(row) }) };
      } catch (error) {
        expect(error).toBeInstanceOf(ArgsParseError);
        outcome = { kind: 'refused', message: (error as Error).message };
      }
      expectRow(row, outcome);
    });

    test.each(rows)('prepareToolCall: $id $name', (row) => {
      expectRow(row, ofCall(prepareToolCall(row.input, row.schema, { ...optionsOf(row), toolName: toolOf(row) })));
    });

    // Renaming is one more reading of a key: where no key of a row means a declared name, it changes
    // nothing; where one would compete with another reading, the gate refuses both ways alike.
    test.each(rows)('prepareToolCall with renameUnambiguous: $id $name', (row) => {
      const outcome = ofCall(prepareToolCall(row.input, row.schema, { ...optionsOf(row), toolName: toolOf(row), renameUnambiguous: true }));
      if (row.withRename === undefined) expectRow(row, outcome);
      else if ('expected' in row.withRename) expectRow({ ...row, expected: row.withRename.expected, changes: row.withRename.changes }, outcome);
      else expect(outcome).toEqual({ kind: 'refused', message: expect.stringContaining(row.withRename.error) });
    });
  });

  /**
   * The CLI, spawned once per family rather than per row (a process per row would cost the suite
   * half a minute): the first row of each set of rules and refusal reasons, of each kind of
   * refusal (cut off, markup, other), and of each file.
   */
  const families = new Map<string, Row>();
  for (const row of rows.filter(takesLenientOnly)) {
    const markup = /markup/.test(row.error?.reason ?? '');
    const family = row.error === undefined ? `${[...new Set(row.changes)].sort().join()}|${[...new Set(row.refusals?.map((r) => r.reason))].join()}` : `error:${row.error.truncated}:${markup}`;
    for (const key of [family, row.id.split('#')[0]!]) if (!families.has(key)) families.set(key, row);
  }
  const cliRows = [...new Set(families.values())];

  describe('the built CLI (--lenient --report, arguments on stdin)', () => {
    const outcomes = new Map<string, Outcome>();
    beforeAll(async () => {
      const runs = await bounded(cliRows.map((row) => () => run(['--lenient', '--report', '--tool', TOOL, '-s', JSON.stringify(row.schema), '-'], row.input)), 4);
      cliRows.forEach((row, i) => {
        const { status, stdout, stderr } = runs[i]!;
        if (status !== 0) {
          expect(status).toBe(2);
          expect(stdout).toBe('');
          outcomes.set(row.id, { kind: 'refused', message: stderr });
          return;
        }
        const reports = stderr.split('\n').filter(Boolean).map((line) => JSON.parse(line) as { type: string; rule?: string; path: string; reason?: string });
        outcomes.set(row.id, {
          kind: 'args',
          json: stdout,
          rules: reports.filter((r) => r.type === 'change').map((r) => r.rule!),
          refusals: reports.filter((r) => r.type === 'refusal').map(({ path, reason }) => ({ path, reason: reason! })),
        });
      });
    }, 120_000);

    test('a row of every family and of every file', () => {
      expect(new Set(cliRows.map((row) => row.id.split('#')[0])).size).toBe(new Set(rows.map((row) => row.id.split('#')[0])).size);
      expect(cliRows.length).toBeGreaterThanOrEqual(minimums.cli);
    });

    test.each(cliRows)('$id $name', (row) => expectRow(row, outcomes.get(row.id)!));
  });

  const proxyRows = rows.filter(takesLenientOnly);
  const proxyTool = (row: Row, i: number): string => row.options?.toolName ?? `w${i}`;

  describe('the built proxy (--lenient) in front of a real child server', () => {
    const asText = new Map<string, Outcome>();
    const asObject = new Map<string, Outcome>();
    beforeAll(async () => {
      // Arguments as a JSON string (a client passing the model's text on), and, where the text is
      // strict JSON, as the object itself, written as the model wrote it on one line.
      const text = proxyRows.map((row, i) => ({ row, tool: proxyTool(row, i), args: JSON.stringify(row.input) }));
      const objects = proxyRows.flatMap((row, i) => (parsedObject(row) === undefined && !isJsonObjectText(row.input) ? [] : [{ row, tool: proxyTool(row, i), args: oneLine(row.input) }]));
      const groups = [...byUniqueTool(text).map((calls) => [calls, asText] as const), ...byUniqueTool(objects).map((calls) => [calls, asObject] as const)];
      const outcomes = await Promise.all(groups.map(([calls]) => proxyRun(calls)));
      groups.forEach(([calls, into], g) => calls.forEach(({ row }, i) => into.set(row.id, outcomes[g]![i]!)));
    }, 120_000);

    // A text that reads as something other than an object (`null`, an array, a string) is not
    // arguments: its string goes on as it came, for the server to refuse.
    test.each(proxyRows)('arguments as text: $id $name', (row) => {
      const outcome = asText.get(row.id)!;
      if (row.error !== undefined || rootIsObject(row.expected!)) expectRow(row, outcome);
      else expect(outcome).toEqual({ kind: 'args', json: JSON.stringify(row.input), rules: [], refusals: [] });
    });
    test.each(proxyRows.filter((row) => isJsonObjectText(row.input)))('arguments as an object: $id $name', (row) => expectRow(row, asObject.get(row.id)!));
  });

  /** The MCP SDK validates a tool listing: a tool's inputSchema must say `type: "object"`. */
  const listable = rows.filter((row) => row.schema.type === 'object');

  describe('MCP adapters over the SDK transport', () => {
    test.each(listable)('withArgCoercion, arguments as text: $id $name', async (row) => {
      let call: PreparedCall | undefined;
      const client = await connected(echoServer(row.schema, toolOf(row)), (c) => withArgCoercion(c, { ...optionsOf(row), lossyNumbers: true, onCoerce: (report) => (call = report.call) }));
      expectRow(row, await mcpOutcome(row, client, () => call));
      await client.close();
    });

    test.each(listable)('withServerArgCoercion, arguments as text on the wire: $id $name', async (row) => {
      let call: PreparedCall | undefined;
      const server = withServerArgCoercion(echoServer(row.schema, toolOf(row)), { ...optionsOf(row), onCoerce: (report) => (call = report.call) });
      const client = await connected(server);
      expectRow(row, await mcpOutcome(row, client, () => call));
      await client.close();
    });
  });

  /** Rows a framework hands on as an object it parsed from the model's strict JSON. */
  const parsedRows = rows.filter((row) => parsedObject(row) !== undefined);

  describe('framework adapters', () => {
    test.each(rows)('AI SDK repairToolInput (experimental_repairToolCall): $id $name', (row) => {
      const repaired = repairToolInput(row.input, row.schema, { ...optionsOf(row), toolName: toolOf(row) });
      expectRow(row, repaired === undefined ? { kind: 'not-repaired' } : { kind: 'args', json: repaired });
    });

    test.each(parsedRows)('AI SDK coercedJsonSchema: $id $name', async (row) => {
      const result = await coercedJsonSchema(row.schema, optionsOf(row)).validate!(parsedObject(row));
      expect(result.success).toBe(true);
      expectRow(row, { kind: 'args', json: stringifyArgs((result as { value: unknown }).value), plain: true });
    });

    test.each(parsedRows)('OpenAI Agents coerceFunctionTool, the text the runner parsed: $id $name', async (row) => {
      const received: unknown[] = [];
      let call: PreparedCall | undefined;
      const parameters = row.schema as unknown as JsonObjectSchemaNonStrict<Record<string, never>>;
      const original = agentsTool({ name: toolOf(row), description: 'echo', parameters, strict: false, execute: async (args) => void received.push(args) });
      const coerced = coerceFunctionTool(original, { ...optionsOf(row), validate: false, onCoerce: (report) => (call = report.call) });
      await coerced.invoke(new RunContext(), row.input);
      expect(received).toHaveLength(1);
      expectRow(row, { ...(ofCall(call!) as object), json: stringifyArgs(received[0]), plain: true } as Outcome);
    });

    test.each(parsedRows)('LangChain coerceTool, a tool call with parsed args: $id $name', async (row) => {
      let call: PreparedCall | undefined;
      const original = langchainTool(async (args) => stringifyArgs(args), { name: toolOf(row), description: 'echo', schema: row.schema });
      const coerced = coerceLangChainTool(original, { ...optionsOf(row), validate: false, onCoerce: (report) => (call = report.call) });
      await coerced.invoke({ type: 'tool_call', id: 'c1', name: toolOf(row), args: parsedObject(row)! }).catch(() => undefined);
      expectRow(row, ofCall(call!, true));
    });

    test.each(parsedRows)('Mastra coerceTool, the input Mastra validates: $id $name', async (row) => {
      let call: PreparedCall | undefined;
      const original = createTool({ id: toolOf(row), description: 'echo', inputSchema: row.schema as never, execute: async (input) => input });
      const coerced = coerceMastraTool(original, { ...optionsOf(row), validate: false, onCoerce: (report) => (call = report.call) });
      await (coerced.inputSchema as { '~standard': { validate: (value: unknown) => unknown } })['~standard'].validate(parsedObject(row));
      expectRow(row, ofCall(call!, true));
    });
  });

  /**
   * Rows the frameworks' MCP tools take from one real server over stdio: listable, handed on as
   * parsed objects, and not needing a tool of their own name (one server lists each name once; the
   * rows whose wrapper names the tool run through the MCP adapters above, a server each).
   */
  const stdioRows = listable.filter((row) => parsedObject(row) !== undefined && row.options?.toolName === undefined);
  const stdioTool = (row: Row): string => `w${stdioRows.indexOf(row)}`;

  /** `rows` by their coercion options, so each group shares one wrapper. */
  function byOptions(group: readonly Row[]): Row[][] {
    const groups = new Map<string, Row[]>();
    for (const row of group) {
      const key = JSON.stringify(optionsOf(row));
      groups.set(key, [...(groups.get(key) ?? []), row]);
    }
    return [...groups.values()];
  }

  /** The text of a tool's answer: its content blocks' text, or the string it is. */
  function textOf(content: unknown): string {
    if (typeof content === 'string') return content;
    return (content as { type: string; text?: string }[]).map((block) => block.text ?? '').join('');
  }

  describe('MCP tools in the agent frameworks, from a real server over stdio', () => {
    const agents = new Map<string, Outcome>();
    const langchain = new Map<string, { call: PreparedCall; echo: string | undefined }>();
    beforeAll(async () => {
      const tools = join(makeTempDir('schema-coerce-wild-'), 'tools.json');
      writeFileSync(tools, JSON.stringify(stdioRows.map((row) => ({ name: stdioTool(row), inputSchema: row.schema }))));
      const spawnEcho = { command: process.execPath, args: [ECHO_SERVER], env: { ...(process.env as Record<string, string>), ECHO_TOOLS: tools } };

      const server = new MCPServerStdio({ ...spawnEcho, name: 'echo', cacheToolsList: true, clientSessionTimeoutSeconds: 60 }); // the SDK's 5 s is short on a loaded machine
      await server.connect();
      try {
        for (const group of byOptions(stdioRows)) {
          const reports = new Map<string, PreparedCall>();
          const wrapped = coerceMcpServer(server, { ...optionsOf(group[0]!), validate: false, onCoerce: ({ tool, call }) => void (call && reports.set(tool, call)) });
          for (const row of group) {
            const content = await wrapped.callTool(stdioTool(row), parsedObject(row)!);
            const call = reports.get(stdioTool(row))!;
            agents.set(row.id, (content as { isError?: boolean }).isError === true ? { kind: 'refused', message: textOf(content) } : { ...(ofCall(call) as object), json: textOf(content), plain: true } as Outcome);
          }
        }
      } finally {
        await server.close();
      }

      const client = new Client({ name: 'wild', version: '1.0.0' });
      await client.connect(new StdioClientTransport({ ...spawnEcho, stderr: 'pipe' }));
      try {
        for (const group of byOptions(stdioRows)) {
          const reports = new Map<string, PreparedCall>();
          const loaded = await loadCoercedMcpTools('echo', client, { ...optionsOf(group[0]!), validate: false, onCoerce: ({ tool, call }) => void (call && reports.set(tool, call)) });
          for (const row of group) {
            const tool = loaded.find((candidate) => candidate.name === stdioTool(row))!;
            // LangChain checks the arguments against its own copy of the schema after the repair: what
            // the repair left as it is (a refused value, an undeclared key) may stop there (an error
            // message, or its exception), and then nothing is echoed.
            const message = (await tool.invoke({ type: 'tool_call', id: 'c1', name: tool.name, args: parsedObject(row)! }).catch(() => undefined)) as { status?: string; content: unknown } | undefined;
            const echo = message === undefined || message.status === 'error' ? undefined : textOf(message.content);
            langchain.set(row.id, { call: reports.get(stdioTool(row))!, echo });
          }
        }
      } finally {
        await client.close();
      }
    }, 120_000);

    test.each(stdioRows)('OpenAI Agents coerceMcpServer: $id $name', (row) => expectRow(row, agents.get(row.id)!));

    test('LangChain ran the tool for every row whose repair left nothing refused, undeclared, unrepaired or invalid', () => {
      const declared = (row: Row): boolean => Object.keys(JSON.parse(row.expected!) as object).every((key) => key in ((row.schema.properties ?? {}) as object));
      // LangChain checks the arguments against the schema itself: what the repair leaves to validation
      // stops there, and so may a row whose schema its check reads otherwise than Ajv (object-level
      // oneOf/anyOf branches, OpenAPI's `nullable`: one-of#5, rules#89, optional-null#19).
      const valid = (row: Row): boolean => validateArgs(parseArgs(row.expected!), row.schema).ok && !/"(oneOf|anyOf|nullable)"/.test(JSON.stringify(row.schema));
      const clean = stdioRows.filter((row) => (row.options === undefined || JSON.stringify(row.options) === '{"lenient":true}') && row.error === undefined && (row.refusals ?? []).length === 0 && declared(row) && valid(row));
      expect(clean.length).toBeGreaterThanOrEqual(minimums.clean);
      expect(clean.filter((row) => langchain.get(row.id)!.echo === undefined).map((row) => row.id)).toEqual([]);
    });

    test.each(stdioRows)('LangChain loadCoercedMcpTools: $id $name', (row) => {
      const { call, echo } = langchain.get(row.id)!;
      expectRow(row, ofCall(call, true));
      // Where LangChain's own check let the call through, the server got what the repair wrote.
      if (echo !== undefined) expect(plainJson(echo)).toBe(plainJson(call.json));
    });
  });

}
