/**
 * `schema-coerce proxy -- <server command>`: sits between any MCP client and a stdio server and
 * repairs every tool call against the server's own schemas. Newline-delimited JSON-RPC both
 * ways; every message it does not need to change is forwarded byte for byte, and in a
 * `tools/call` only the text of `params.arguments` is rewritten, through the text path.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createWriteStream, type WriteStream } from 'node:fs';
import type { Readable, Writable } from 'node:stream';
import { coerceArgs, coerceArgsJson } from '../repair/coerce.js';
import { scanJson, type JsonVisitor } from '../json/scanner.js';
import { parseArgs } from '../json/lossless.js';
import { prepareToolCall, type ArgsValidator } from '../report/pipeline.js';
import { ToolSchemas } from './tool-schemas.js';
import type { CoerceOptions } from '../repair/types.js';

/** Options of the proxy, as the CLI reads them. */
export interface ProxyOptions extends CoerceOptions {
  /** Validate each call with this validator (the CLI's `--validate` loads `validateArgs`). */
  readonly validator?: ArgsValidator;
  readonly rejectUndeclared?: boolean;
  /** A file to append one JSON line to per change, refusal and rejection. */
  readonly log?: string;
  /** Report the same lines on stderr. */
  readonly verbose?: boolean;
}

/** The streams the proxy joins; the process's own by default. */
export interface ProxyIo {
  readonly stdin: Readable;
  readonly stdout: Writable;
  readonly stderr: Writable;
}

const NEWLINE = 0x0a;
/** How long a tools/call may wait for the proxy's own tools/list before it goes on unchanged. */
const LIST_TIMEOUT_MS = 10_000;

/**
 * Runs `command` as the MCP server and proxies stdio between it and `io`, until the server exits.
 *
 * @returns The server's exit code (128 + signal number when a signal ended it), or 127 when it
 *   could not be started.
 */
export function runProxy(command: readonly string[], options: ProxyOptions, io: ProxyIo = process): Promise<number> {
  return new Promise((resolve) => {
    const [file, ...args] = command;
    const child = spawn(file!, args, { stdio: ['pipe', 'pipe', 'inherit'] });
    const log = options.log === undefined ? undefined : createWriteStream(options.log, { flags: 'a' });
    const session = new ProxySession(options, {
      toServer: (bytes) => {
        if (!child.stdin.write(bytes)) {
          io.stdin.pause();
          child.stdin.once('drain', () => io.stdin.resume());
        }
      },
      toClient: (bytes) => {
        if (!io.stdout.write(bytes)) {
          child.stdout.pause();
          io.stdout.once('drain', () => child.stdout.resume());
        }
      },
      report: (entry) => {
        const line = JSON.stringify({ time: new Date().toISOString(), ...entry }) + '\n';
        log?.write(line);
        if (options.verbose === true) io.stderr.write(`schema-coerce proxy: ${line}`);
      },
    });
    const fromClient = new Lines((line) => session.fromClient(line));
    const fromServer = new Lines((line) => session.fromServer(line));

    let started = false;
    child.on('spawn', () => {
      started = true;
    });
    child.on('error', (error: NodeJS.ErrnoException) => {
      if (started) return;
      io.stderr.write(`schema-coerce proxy: cannot start ${JSON.stringify(file)}: ${error.code ?? error.message}\n`);
      finish(log, () => resolve(127));
    });
    child.stdin.on('error', () => undefined);
    io.stdin.on('data', (chunk: Buffer) => fromClient.push(chunk));
    io.stdin.on('end', () => {
      fromClient.end();
      session.whenIdle(() => child.stdin.end());
    });
    child.stdout.on('data', (chunk: Buffer) => fromServer.push(chunk));
    child.stdout.on('end', () => fromServer.end());

    const forward = (signal: NodeJS.Signals) => () => child.kill(signal);
    const onInt = forward('SIGINT');
    const onTerm = forward('SIGTERM');
    process.on('SIGINT', onInt);
    process.on('SIGTERM', onTerm);
    child.on('close', (code, signal) => {
      process.off('SIGINT', onInt);
      process.off('SIGTERM', onTerm);
      session.stop();
      io.stdin.pause();
      const status = code ?? 128 + (signal === null ? 0 : signalNumber(signal));
      finish(log, () => resolve(status));
    });
  });
}

function finish(log: WriteStream | undefined, done: () => void): void {
  if (log === undefined) done();
  else log.end(done);
}

function signalNumber(signal: NodeJS.Signals): number {
  return ({ SIGHUP: 1, SIGINT: 2, SIGQUIT: 3, SIGKILL: 9, SIGTERM: 15 } as Record<string, number>)[signal] ?? 0;
}

/** Splits a byte stream into lines, each handed over with its own bytes (newline excluded). */
class Lines {
  private pending: Buffer[] = [];
  private readonly onLine: (line: Buffer) => void;

  constructor(onLine: (line: Buffer) => void) {
    this.onLine = onLine;
  }

  push(chunk: Buffer): void {
    let from = 0;
    for (let at = chunk.indexOf(NEWLINE); at !== -1; at = chunk.indexOf(NEWLINE, from)) {
      const piece = chunk.subarray(from, at);
      const line = this.pending.length === 0 ? piece : Buffer.concat([...this.pending, piece]);
      this.pending = [];
      this.onLine(line);
      from = at + 1;
    }
    if (from < chunk.length) this.pending.push(chunk.subarray(from));
  }

  /** The stream ended: a last line without a newline is handed over too. */
  end(): void {
    if (this.pending.length > 0) this.onLine(Buffer.concat(this.pending));
    this.pending = [];
  }
}

/** One entry of the log: a change, a refusal or a rejection, with the tool it concerns. */
type Report = Record<string, unknown> & { kind: 'change' | 'refusal' | 'rejection'; tool: string };

interface Wiring {
  toServer(bytes: Buffer): void;
  toClient(bytes: Buffer): void;
  report(entry: Report): void;
}

interface Message {
  readonly id?: unknown;
  readonly method?: unknown;
  readonly params?: { readonly name?: unknown; readonly cursor?: unknown };
  readonly result?: { readonly tools?: unknown; readonly nextCursor?: unknown };
}

/** The proxy's state: what it knows of the server's tools, and the calls waiting to learn more. */
class ProxySession {
  private readonly schemas = new ToolSchemas();
  /** Client tools/list requests awaiting their response: id → whether it was the first page. */
  private readonly listRequests = new Map<unknown, boolean>();
  /** Tools the proxy has asked the server about since the list last changed. */
  private readonly asked = new Set<string>();
  private readonly ownPrefix = `schema-coerce-proxy:${randomUUID()}:`;
  private ownCount = 0;
  /** While the proxy lists the server's tools itself, client lines wait here, in order. */
  private waiting: Buffer[] | null = null;
  /** The proxy's own listing has gone past its first page. */
  private pagingOwnList = false;
  private timer: NodeJS.Timeout | undefined;
  private readonly options: ProxyOptions;
  private readonly wiring: Wiring;

  constructor(options: ProxyOptions, wiring: Wiring) {
    this.options = options;
    this.wiring = wiring;
  }

  private idle: (() => void) | undefined;

  stop(): void {
    clearTimeout(this.timer);
  }

  /** Runs `then` once no client line is waiting (at once when none is). */
  whenIdle(then: () => void): void {
    if (this.waiting === null) then();
    else this.idle = then;
  }

  fromClient(line: Buffer): void {
    if (this.waiting !== null) {
      this.waiting.push(line);
      return;
    }
    const message = parseMessage(line);
    if (message?.method === 'tools/list' && message.id !== undefined) {
      this.listRequests.set(message.id, message.params?.cursor === undefined);
    } else if (message?.method === 'tools/call' && message.id !== undefined && typeof message.params?.name === 'string') {
      const name = message.params.name;
      if (this.schemas.get(name) === undefined && !this.asked.has(name)) {
        this.asked.add(name);
        this.waiting = [line];
        this.listOwnTools(undefined);
        return;
      }
      this.repairCall(line, message.id, name);
      return;
    }
    this.wiring.toServer(withNewline(line));
  }

  fromServer(line: Buffer): void {
    const relevant = this.listRequests.size > 0 || this.waiting !== null || line.includes('notifications/tools/list_changed');
    const message = relevant ? parseMessage(line) : undefined;
    if (message !== undefined) {
      if (typeof message.id === 'string' && message.id.startsWith(this.ownPrefix)) {
        this.ownListPage(message);
        return;
      }
      if (message.method === 'notifications/tools/list_changed') {
        this.schemas.clear();
        this.asked.clear();
      } else if (message.id !== undefined && this.listRequests.has(message.id)) {
        if (Array.isArray(message.result?.tools)) this.schemas.store(message.result.tools, this.listRequests.get(message.id)!);
        this.listRequests.delete(message.id);
      }
    }
    this.wiring.toClient(withNewline(line));
  }

  /** Asks the server for (a page of) its tools with an id no client can have used. */
  private listOwnTools(cursor: unknown): void {
    const id = `${this.ownPrefix}${++this.ownCount}`;
    const params = cursor === undefined ? {} : { cursor };
    this.wiring.toServer(Buffer.from(JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/list', params }) + '\n'));
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.release(), LIST_TIMEOUT_MS);
  }

  private ownListPage(message: Message): void {
    const tools = message.result?.tools;
    if (Array.isArray(tools)) this.schemas.store(tools, !this.pagingOwnList);
    const next = message.result?.nextCursor;
    if (typeof next === 'string' && Array.isArray(tools)) {
      this.pagingOwnList = true;
      this.listOwnTools(next);
    } else {
      this.release();
    }
  }

  /** Lets the waiting client lines go on, in order, now that the proxy knows what it can. */
  private release(): void {
    clearTimeout(this.timer);
    this.pagingOwnList = false;
    const lines = this.waiting ?? [];
    this.waiting = null;
    for (const line of lines) this.fromClient(line);
    if (this.waiting === null && this.idle !== undefined) {
      const idle = this.idle;
      this.idle = undefined;
      idle();
    }
  }

  /** Forwards a tools/call with its arguments repaired, or answers it with an isError result. */
  private repairCall(line: Buffer, id: unknown, name: string): void {
    const schema = this.schemas.get(name);
    const text = line.toString('utf8');
    const span = schema === undefined ? undefined : argumentsSpan(text);
    if (schema === undefined || span === undefined) {
      this.wiring.toServer(withNewline(line));
      return;
    }
    const argsText = text.slice(span.start, span.end);
    const coerceOptions: CoerceOptions = {
      ...(this.options.lenient === undefined ? {} : { lenient: this.options.lenient }),
      ...(this.options.integerRange === undefined ? {} : { integerRange: this.options.integerRange }),
    };
    let repaired: string;
    try {
      repaired = coerceArgsJson(argsText, schema, coerceOptions);
    } catch {
      this.wiring.toServer(withNewline(line));
      return;
    }
    if (this.options.log !== undefined || this.options.verbose === true) this.reportChanges(name, argsText, schema, coerceOptions);
    if (this.options.validator !== undefined || this.options.rejectUndeclared === true) {
      const call = prepareToolCall(repaired, schema, {
        toolName: name,
        rejectUndeclared: this.options.rejectUndeclared === true,
        ...(this.options.validator === undefined ? {} : { validate: this.options.validator }),
      });
      if (!call.ok) {
        this.wiring.report({ kind: 'rejection', tool: name, message: call.message });
        const result = { content: [{ type: 'text', text: call.message }], isError: true };
        this.wiring.toClient(Buffer.from(JSON.stringify({ jsonrpc: '2.0', id, result }) + '\n'));
        return;
      }
    }
    if (repaired === argsText) this.wiring.toServer(withNewline(line));
    else this.wiring.toServer(Buffer.from(text.slice(0, span.start) + repaired + text.slice(span.end) + '\n'));
  }

  private reportChanges(tool: string, argsText: string, schema: unknown, options: CoerceOptions): void {
    const { changes, refusals } = coerceArgs(parseArgs(argsText), schema, options);
    for (const change of changes) this.wiring.report({ kind: 'change', tool, ...change });
    for (const { path, reason, expected, message } of refusals) this.wiring.report({ kind: 'refusal', tool, path, reason, expected, message });
  }
}

function parseMessage(line: Buffer): Message | undefined {
  try {
    const value: unknown = JSON.parse(line.toString('utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Message) : undefined;
  } catch {
    return undefined;
  }
}

function withNewline(line: Buffer): Buffer {
  return Buffer.concat([line, Buffer.from('\n')]);
}

/** Where the value of `params.arguments` is in a message's text, or `undefined`. */
function argumentsSpan(text: string): { start: number; end: number } | undefined {
  const finder = new SpanFinder();
  try {
    scanJson(text, finder);
  } catch {
    return undefined;
  }
  return finder.start === -1 ? undefined : { start: finder.start, end: finder.end };
}

/** A visitor that finds the span of the value at `params.arguments` (depth 2) in a message. */
class SpanFinder implements JsonVisitor {
  start = -1;
  end = -1;
  private depth = 0;
  private readonly keys: string[] = [];
  private readonly arrays: boolean[] = [];
  private inside = -1;

  open(isArray: boolean, at: number): void {
    this.value(at);
    this.depth++;
    this.arrays[this.depth] = isArray;
  }

  key(key: string): void {
    this.keys[this.depth] = key;
  }

  string(start: number, end: number): void {
    this.value(start, end);
  }

  number(start: number, end: number): void {
    this.value(start, end);
  }

  literal(_value: boolean | null, start: number, end: number): void {
    this.value(start, end);
  }

  close(at: number): void {
    this.depth--;
    if (this.depth === this.inside) {
      this.end = at + 1;
      this.inside = -1;
    }
  }

  /** A value starts at `start` (and ends at `end`, for a scalar). */
  private value(start: number, end?: number): void {
    const inParams = this.depth === 2 && !this.arrays[1] && !this.arrays[2] && this.keys[1] === 'params';
    if (this.start !== -1 || !inParams || this.keys[2] !== 'arguments') return;
    this.start = start;
    if (end === undefined) this.inside = this.depth;
    else this.end = end;
  }
}
