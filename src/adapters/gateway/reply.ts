/**
 * One answer to a client: the HTTP response a POST or a GET waits on, written as one JSON body or
 * as an SSE stream of `message` events. What the client has not read is bounded: a client that
 * stops reading while more is written to it is dropped, never buffered for without end.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

/** How a POST is answered: one JSON body, or an SSE stream. */
export type ReplyMode = 'json' | 'sse';

const CR = 0x0d;
const SPACE = 0x20;

/** The count of SSE streams open at once, against its bound. */
export class StreamCount {
  private open = 0;
  private readonly max: number;

  constructor(max: number) {
    this.max = max;
  }

  /** Takes a slot; false when all are taken. */
  take(): boolean {
    if (this.open >= this.max) return false;
    this.open++;
    return true;
  }

  /** Gives a slot back. */
  give(): void {
    this.open--;
  }
}

/** One client's answer. */
export class Reply {
  private kind: ReplyMode;
  private readonly response: ServerResponse;
  private readonly headers: Record<string, string> = {};
  private readonly maxUnread: number;
  private readonly streams: StreamCount;
  /** Whether this answer holds a stream slot (it is, or was begun as, an SSE answer). */
  private holding: boolean;
  private readonly accepts: Readonly<Record<ReplyMode, boolean>>;
  private started = false;
  /** The answer is an upstream's body going through (`pass`): nothing else is written to it. */
  private passing = false;
  private done = false;
  private readonly closers: (() => void)[] = [];
  private keeping: NodeJS.Timeout | undefined;
  /** No message was written since the last keep-alive tick. */
  private quiet = true;
  /** What the last message (the response) goes through before it is written. */
  private rewriting: ((bytes: Buffer) => Buffer) | undefined;

  /**
   * @param response - The HTTP response.
   * @param mode - JSON or SSE.
   * @param maxUnread - Bytes the client may leave unread before it is dropped.
   * @param streams - The open streams; an SSE reply's slot is already taken, and given back when it ends.
   * @param accepts - What the client accepts, for `follow`.
   */
  constructor(response: ServerResponse, mode: ReplyMode, maxUnread: number, streams: StreamCount, accepts: Readonly<Record<ReplyMode, boolean>> = { json: mode === 'json', sse: mode === 'sse' }) {
    this.response = response;
    this.kind = mode;
    this.maxUnread = maxUnread;
    this.streams = streams;
    this.holding = mode === 'sse';
    this.accepts = accepts;
    response.on('close', () => this.finish());
  }

  /** JSON or SSE. */
  get mode(): ReplyMode {
    return this.kind;
  }

  /**
   * Answers as `mode` instead (as the upstream answered), when the answer has not begun, the
   * client accepts it, and, for SSE, a stream slot is free.
   */
  follow(mode: ReplyMode): void {
    if (mode === this.kind || this.started || this.done || !this.accepts[mode]) return;
    if (mode === 'sse' && !this.streams.take()) return;
    if (mode === 'json' && this.holding) this.streams.give();
    this.holding = mode === 'sse';
    this.kind = mode;
  }

  /** Whether the answer can still be written to. */
  get open(): boolean {
    return !this.done;
  }

  /** Whether the answer has begun as an SSE stream (its head is sent). */
  get streaming(): boolean {
    return this.started;
  }

  /**
   * While the answer is an SSE one, writes a comment line every `ms` (0: never) that nothing else
   * was written in, so a proxy or a client between takes a call the server is still working on
   * for alive; the first one starts the stream.
   */
  keepAlive(ms: number): void {
    if (ms <= 0 || this.done) return;
    this.keeping = setInterval(() => {
      if (this.kind !== 'sse' || this.passing) return;
      if (this.quiet) {
        this.start();
        this.response.write(': keepalive\n\n');
      }
      this.quiet = true;
    }, ms);
    this.keeping.unref();
  }

  /** Sets a header of the answer, before it starts. */
  header(name: string, value: string): void {
    this.headers[name] = value;
  }

  /**
   * Has the last message (the response) written as `rewrite` makes it (a listing filtered by the
   * tool policy). Only what goes through `message` is rewritten: an answer `pass`ed unread is not,
   * and a `tools/list` answer never is (`answersUnread`).
   */
  rewrite(rewrite: (bytes: Buffer) => Buffer): void {
    this.rewriting = rewrite;
  }

  /** Runs `then` once the answer is over (written whole, or the client gone). */
  onClose(then: () => void): void {
    if (this.done) then();
    else this.closers.push(then);
  }

  /** Starts an SSE answer (a GET stream starts at once, before any message). */
  start(): void {
    if (this.started || this.done) return;
    this.started = true;
    this.response.writeHead(200, { ...this.headers, 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    this.response.flushHeaders();
  }

  /**
   * Writes one message (one line of JSON); `last` ends the answer. A JSON answer is the last
   * message alone (the response the POST waits for); other messages have no place in it.
   */
  message(bytes: Buffer, last: boolean, eventId?: string): void {
    if (this.done || this.passing) return;
    if (last && this.rewriting !== undefined) bytes = this.rewriting(bytes);
    if (this.kind === 'json') {
      if (!last) return;
      this.response.writeHead(200, { ...this.headers, 'content-type': 'application/json', 'content-length': String(bytes.length) }).end(bytes);
      this.finish();
      return;
    }
    this.start();
    this.quiet = false;
    const data = bytes.includes(CR) ? Buffer.from(bytes) : bytes;
    for (let at = data.indexOf(CR); at !== -1; at = data.indexOf(CR, at + 1)) data[at] = SPACE;
    this.response.write(`${eventId === undefined ? '' : `id: ${eventId}\n`}event: message\ndata: `);
    this.response.write(data);
    this.response.write('\n\n');
    if (last) {
      this.response.end();
      this.finish();
    } else if (this.response.writableLength > this.maxUnread) {
      this.response.destroy();
    }
  }

  /** Answers with an HTTP status and a body (a JSON-RPC error, or what an upstream said); ends a stream already started. */
  fail(status: number, body: Buffer | string, headers: Readonly<Record<string, string>> = { 'content-type': 'application/json' }): void {
    if (this.done || this.passing) return;
    if (this.started) this.response.end();
    else this.response.writeHead(status, { ...this.headers, ...headers }).end(body);
    this.finish();
  }

  /** Ends the answer as it is: a stream is closed, an answer not yet begun is `202 Accepted`. */
  end(): void {
    if (this.done || this.passing) return;
    if (this.started) this.response.end();
    else this.response.writeHead(202, this.headers).end();
    this.finish();
  }

  /**
   * Answers a JSON reply with an upstream's JSON answer (a `200`), its body written to the client as it comes,
   * unread and not kept; the answer ends with it. A client that leaves more than its bound unread
   * is dropped (the upstream is never made to wait for it), and so is one whose answer the
   * upstream breaks off.
   */
  pass(answer: IncomingMessage): void {
    if (this.done || this.passing) {
      answer.resume();
      return;
    }
    this.passing = true;
    const length = answer.headers['content-length'];
    const response = this.response;
    response.writeHead(200, { ...this.headers, 'content-type': answer.headers['content-type'] ?? 'application/json', ...(length === undefined ? {} : { 'content-length': length }) });
    answer.on('data', (chunk: Buffer) => {
      if (response.destroyed) return;
      response.write(chunk);
      if (response.writableLength > this.maxUnread) response.destroy();
    });
    answer.on('end', () => {
      if (!response.destroyed) response.end();
    });
    answer.on('close', () => {
      if (!answer.complete) response.destroy();
    });
  }

  private finish(): void {
    if (this.done) return;
    this.done = true;
    clearInterval(this.keeping);
    if (this.holding) this.streams.give();
    for (const close of this.closers.splice(0)) close();
  }
}

/** A JSON-RPC error message, as bytes. */
export function rpcError(code: number, message: string, id: string | number | null = null): Buffer {
  return Buffer.from(JSON.stringify({ jsonrpc: '2.0', id, error: { code, message } }));
}
