/**
 * One client session's messages through the proxy's own session logic (`ProxySession`: the same
 * schemas per session, the same repair and byte splicing, the same `list_changed` handling), with
 * what comes back routed to the HTTP answer that waits for it: a response to the request it
 * answers (by id), anything else to the exchange it came on, or, for a server's own messages
 * outside any exchange, to the session's stream.
 */
import type { Line } from '../proxy/framing.js';
import { readHead, type MessageId } from '../proxy/message.js';
import { bytesOf, type Piece } from '../proxy/outlet.js';
import { ProxySession, type ProxyOptions, type Wiring } from '../proxy/session.js';
import { recordOf } from './call-events.js';
import type { Reply } from './reply.js';

const LF = 0x0a;
/** Requests whose answer ended before their response, remembered so their late responses are dropped. */
const FORSAKEN = 1_024;

/** One client request or message, and where what belongs to it goes. */
export interface Exchange {
  readonly reply: Reply;
  /** The client's headers to forward with it (a `--url` upstream). */
  readonly headers: Readonly<Record<string, string>>;
  /** The message's method, if it has one. */
  readonly method?: string | undefined;
  /** The request's id, while its response is awaited. */
  id?: MessageId;
}

/** Where a conversation sends the messages it forwards, and what it reports. */
export interface ConversationWiring {
  /** One message for the server, as pieces (its newline last); `exchange` is the client request it belongs to, if any. */
  toServer(pieces: readonly Piece[], exchange: Exchange | undefined): void;
  /** A server message that belongs to no exchange (its own requests and notifications). */
  unrouted(message: Buffer): void;
  report: Wiring['report'];
  /**
   * A response can come after its request's answer ended (the server is a process that answers
   * in its own time): the request's id stays taken until it comes, and it is dropped. Not so for
   * a `--url` upstream, whose responses come on the request's own answer, or on a resumed stream
   * the client asked for.
   */
  readonly lateResponses?: boolean;
}

/** A client session's state: the proxy session and the requests waiting for their responses. */
export class Conversation {
  readonly session: ProxySession;
  private readonly pending = new Map<string, Exchange>();
  /** Requests whose answer ended before the response came (timed out, or the client left), oldest first: their responses are dropped. */
  private readonly forsaken = new Set<string>();
  /** The exchange whose messages are being handled now, while the session runs for it. */
  private current: Exchange | undefined;
  private eventId: string | undefined;
  /** The pieces of the server message being assembled. */
  private parts: Piece[] = [];
  private readonly wiring: ConversationWiring;
  /**
   * How the proxy session's own requests (its tools/list) begin: `JSON.stringify` of an object
   * whose id starts with the session's own prefix, random per session. A client cannot write it,
   * so a client message is never taken for one (or one for a client's).
   */
  private readonly ownRequest: Buffer;

  constructor(options: ProxyOptions, wiring: ConversationWiring) {
    this.wiring = wiring;
    this.session = new ProxySession(options, {
      toServer: (pieces) => {
        const exchange = this.exchangeOf(pieces);
        if (exchange !== undefined) recordOf(exchange.reply)?.sent();
        wiring.toServer(pieces, exchange);
      },
      toClient: (piece) => this.assemble(piece),
      report: (entry, id) => {
        wiring.report(entry);
        const exchange = id === undefined ? undefined : this.pending.get(keyOf(id));
        if (exchange !== undefined) recordOf(exchange.reply)?.reported(entry);
      },
    });
    this.ownRequest = Buffer.from(`{"jsonrpc":"2.0","id":"${this.session.ownPrefix}`);
  }

  /** Whether requests are waiting for their responses. */
  get busy(): boolean {
    return this.pending.size > 0;
  }

  /**
   * One client message (a JSON object on one line, no newline in it). A request's `id` is kept
   * until its response comes.
   *
   * @returns False when a request with that id is still waiting, or was given up before its
   *   response came (the server may still answer it): the message is not forwarded.
   */
  fromClient(body: Buffer, id: MessageId | undefined, exchange: Exchange): boolean {
    if (id !== undefined) {
      const key = keyOf(id);
      if (this.pending.has(key) || this.forsaken.has(key)) return false;
      exchange.id = id;
      this.pending.set(key, exchange);
      exchange.reply.onClose(() => {
        if (this.pending.get(key) !== exchange) return;
        this.pending.delete(key);
        if (this.wiring.lateResponses !== true) return;
        this.forsaken.add(key);
        if (this.forsaken.size > FORSAKEN) this.forsaken.delete(this.forsaken.values().next().value!);
      });
    }
    this.current = exchange;
    try {
      this.session.fromClient(body, true);
    } finally {
      this.current = undefined;
    }
    return true;
  }

  /** One server message (a line), as part of `exchange` when it came in answer to one; `eventId` is its SSE id. */
  fromServer(line: Line, exchange?: Exchange, eventId?: string): void {
    this.current = exchange;
    this.eventId = eventId;
    try {
      this.session.fromServer(line, true);
    } finally {
      this.current = undefined;
      this.eventId = undefined;
    }
  }

  /** Answers every waiting request with `error(id)` (the server is gone). */
  abandon(error: (id: MessageId) => Buffer): void {
    for (const exchange of [...this.pending.values()]) exchange.reply.message(error(exchange.id!), true);
    this.pending.clear();
  }

  /** Stops the session's timer. */
  stop(): void {
    this.session.stop();
  }

  /**
   * The exchange a message for the server belongs to: the client line being handled, or, for the
   * session's own tools/list and a call it released once it had listed the tools, the one its id names.
   */
  private exchangeOf(pieces: readonly Piece[]): Exchange | undefined {
    const first = pieces[0];
    const own = Buffer.isBuffer(first) && first.length >= this.ownRequest.length && this.ownRequest.equals(first.subarray(0, this.ownRequest.length));
    if (this.current !== undefined && !own) return this.current;
    const id = readHead(Buffer.concat(pieces.map(bytesOf)).toString('latin1'), true)?.id;
    return id === undefined ? undefined : this.pending.get(keyOf(id));
  }

  private assemble(piece: Piece): void {
    this.parts.push(piece);
    const bytes = bytesOf(piece);
    if (bytes[bytes.length - 1] !== LF) return;
    const parts = this.parts;
    this.parts = [];
    // A line and then its newline alone (as the session writes a line it passes on) is the line, not copied.
    if (parts.length === 2 && bytes.length === 1) this.route(bytesOf(parts[0]!));
    else {
      const whole = parts.length === 1 ? bytes : Buffer.concat(parts.map(bytesOf));
      this.route(whole.subarray(0, whole.length - 1));
    }
  }

  /** Sends a server message where it belongs. */
  private route(message: Buffer): void {
    const head = readHead(message.toString('latin1'), false);
    if (head !== undefined && head.method === undefined) {
      // A response: to the request it answers, or (an answer with no usable id) to the one being handled.
      const answered = (head.id === undefined ? undefined : this.pending.get(keyOf(head.id))) ?? (this.current?.id === undefined ? undefined : this.pending.get(keyOf(this.current.id)));
      if (answered !== undefined) {
        this.pending.delete(keyOf(answered.id!));
        answered.reply.message(message, true, this.eventId);
        return;
      }
      if (head.id !== undefined && this.forsaken.delete(keyOf(head.id))) return;
    }
    if (this.current?.reply.open === true) this.current.reply.message(message, false, this.eventId);
    else this.wiring.unrouted(message);
  }
}

/**
 * Whether the server's answer to `exchange`, one JSON message, may go to its client unread: it is
 * the response to a request other than tools/list (and, when results are repaired, tools/call).
 * Only a listing's response feeds the session's schemas; a response is no notification (no
 * `list_changed`), and a page of the session's own listing comes in answer to a request of its own.
 */
export function answersUnread(exchange: Exchange, options: ProxyOptions): boolean {
  return exchange.id !== undefined && exchange.method !== 'tools/list' && !(options.repairResults === true && exchange.method === 'tools/call');
}

/** A map key for an id: a number and the string of its digits are different ids. */
function keyOf(id: MessageId): string {
  return typeof id === 'number' ? `n${id}` : `s${id}`;
}
