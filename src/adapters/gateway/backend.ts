/** What the HTTP endpoint asks of the side that reaches the server: a stdio command per session, or a `--url` upstream. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { MessageId } from '../proxy/message.js';
import type { Reply } from './reply.js';

/** What the endpoint read of a POSTed message. */
export interface ClientMessage {
  /** The message's bytes: one JSON object on one line. */
  readonly body: Buffer;
  readonly method: string | undefined;
  /** The id of a request (a message with a method and an id); `undefined` for anything else. */
  readonly requestId: MessageId | undefined;
}

/** One way of reaching the server. */
export interface Backend {
  /** A POSTed message; `reply` is its answer (JSON or SSE for a request, `202` for anything else). */
  post(request: IncomingMessage, message: ClientMessage, reply: Reply): void;
  /** A GET: the session's stream of server messages; `reply` is an SSE answer. */
  listen(request: IncomingMessage, reply: Reply): void;
  /** A DELETE: the session ends. */
  remove(request: IncomingMessage, response: ServerResponse): void;
  /** Ends every session (the gateway is shutting down). */
  close(): Promise<void>;
  /** Sessions open (or cached) and server processes running, for the metrics. */
  counts(): BackendCounts;
}

/** What a backend says when the metrics are scraped: sessions open (or cached), and server processes running. */
export interface BackendCounts {
  readonly sessions: number;
  readonly children: number;
}

/** The JSON-RPC error code the SDKs use for a request the transport refuses. */
export const TRANSPORT_ERROR = -32000;
/** The code the SDKs use for a session that is not (or no longer) known. */
export const SESSION_NOT_FOUND = -32001;

/** The session id a request carries, if any. */
export function sessionIdOf(request: IncomingMessage): string | undefined {
  const id = request.headers['mcp-session-id'];
  return typeof id === 'string' && id !== '' ? id : undefined;
}

const LF = 0x0a;
const CR = 0x0d;
const SPACE = 0x20;

/** A message on one line, in place: outside a string a line break is white space, inside one it is not JSON either way. */
export function oneLine(bytes: Buffer): Buffer {
  for (let at = bytes.indexOf(LF); at !== -1; at = bytes.indexOf(LF, at + 1)) bytes[at] = SPACE;
  for (let at = bytes.indexOf(CR); at !== -1; at = bytes.indexOf(CR, at + 1)) bytes[at] = SPACE;
  return bytes;
}
