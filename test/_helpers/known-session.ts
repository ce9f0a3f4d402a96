/**
 * A proxy session in process, wired to arrays: what it sent to the server, what it sent to the
 * client, what it reported; it has seen the client list `tools` (and the server answer), and the
 * arrays are emptied after that listing.
 */
import { bytesOf, type Piece } from '../../src/adapters/proxy/outlet.js';
import { ProxySession, type ProxyOptions } from '../../src/adapters/proxy/session.js';

/** A session, its three records, and `send` for a client line (a string is taken as latin1 bytes). */
export interface KnownSession {
  readonly session: ProxySession;
  readonly toServer: string[];
  readonly toClient: string[];
  readonly reports: Record<string, unknown>[];
  readonly send: (line: string | Buffer) => void;
}

/** A session that has listed `tools`; `serverText` is how the server-bound bytes are decoded. */
export function knownSession(options: ProxyOptions, tools: readonly unknown[], serverText: BufferEncoding = 'utf8'): KnownSession {
  const toServer: string[] = [];
  const toClient: string[] = [];
  const reports: Record<string, unknown>[] = [];
  const session = new ProxySession(options, {
    toServer: (pieces: readonly Piece[]) => toServer.push(Buffer.concat(pieces.map(bytesOf)).toString(serverText)),
    toClient: (piece: Piece) => toClient.push(bytesOf(piece).toString('utf8')),
    report: (entry) => reports.push(entry),
  });
  session.fromClient(Buffer.from('{"jsonrpc":"2.0","id":"list","method":"tools/list","params":{}}'), true);
  session.fromServer(Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: 'list', result: { tools } })), true);
  toServer.length = 0;
  toClient.length = 0;
  const send = (line: string | Buffer): void => session.fromClient(typeof line === 'string' ? Buffer.from(line, 'latin1') : line, true);
  return { session, toServer, toClient, reports, send };
}
