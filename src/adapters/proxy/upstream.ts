/** What the proxy's process plumbing needs of a server, whichever way it is reached. */
import type { LineReader } from './framing.js';
import type { Piece, Source } from './outlet.js';
import type { ProxySession } from './session.js';

/** A server the proxy forwards to: a child process on stdio, or a Streamable HTTP endpoint. */
interface Upstream {
  /** Sends one client message, as pieces in order. */
  send(pieces: readonly Piece[]): void;
  /** The client has no more to send: close the server's input once everything is sent. */
  end(): void;
  /** Passes a signal the proxy received on to the server (or ends the session for it). */
  signal(signal: NodeJS.Signals): void;
  /** Whether the server reads a byte stream (several messages may go in one write). */
  readonly takesStream: boolean;
  /** Reading from the server, paused while the client is not taking bytes. */
  readonly source: Source;
  /** Resolves with the proxy's exit status once the server is done. */
  readonly done: Promise<number>;
}

/** What an upstream hands the server's output to. */
export interface UpstreamSide {
  /** The server's byte stream, for servers that write lines. */
  readonly reader: LineReader;
  /** The session, for servers whose messages arrive whole. */
  readonly session: ProxySession;
  /** Pauses reading from the client (the server is not taking bytes). */
  readonly client: Source;
  /** Says something on stderr (a server that cannot be started or reached). */
  warn(text: string): void;
}

/** Makes an upstream; called once the session exists. */
export type Connect = (side: UpstreamSide) => Upstream;
