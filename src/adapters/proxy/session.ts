/**
 * The proxy's session: what it knows of the server's tools, and the calls waiting to learn more.
 * Lines arrive as bytes, and are read as their latin1 images (byte offsets, bytes kept exactly).
 * A client line that may name a `tools/` method (it holds `tools` or an escape) is read;
 * one whose envelope or `params` repeats a key is answered with a JSON-RPC error, never forwarded
 * (a server keeping the last key would read another call). Every other line is forwarded as the
 * very bytes it came as.
 */
import { randomUUID } from 'node:crypto';
import { skipSpace } from '../../json/scanner.js';
import { LISTING_MS, Paging, ToolSchemas } from '../shared/tool-schemas.js';
import { batchRefusal } from './batch.js';
import { CallRepair } from './call-repair.js';
import { CallShapes } from './call-shapes.js';
import { ambiguityError, flatCopy, readHead, type MessageHead } from './message.js';
import { envelopeOf, type Envelope } from './modern.js';
import { ResultRepair } from './result-repair.js';
import type { Line } from './framing.js';

import { coerceOptionsOf, type ProxyOptions, type Wiring } from './options.js';

export type { ProxyOptions, Wiring } from './options.js';

const NEWLINE = Buffer.from('\n');
const OPEN_BRACKET = 0x5b;
/** A server line can matter only if it holds one of these (an escape may hide a name). */
const LIST_CHANGED = 'list_changed';
const ESCAPE = '\\u';
/** A client line can matter only if it holds one of these. */
const TOOLS = 'tools';
const TOOLS_BYTES = Buffer.from(TOOLS);
const LIST_CHANGED_BYTES = Buffer.from(LIST_CHANGED);
const ESCAPE_BYTES = Buffer.from(ESCAPE);

/** The proxy's state between one client and one server. */
export class ProxySession {
  private readonly tools: ToolSchemas;
  /** The shapes of the client's calls, so a call like one before is read without its envelope. */
  private readonly shapes = new CallShapes();
  /** Tools the proxy has asked the server about since the list last changed. */
  private readonly asked = new Set<string>();
  /** How the ids of the session's own requests (its tools/list) begin: random per session, so no client can write one. */
  readonly ownPrefix: string = `schema-coerce-proxy:${randomUUID()}:`;
  private readonly ownPrefixBytes = Buffer.from(this.ownPrefix);
  private ownCount = 0;
  /** The proxy's own requests not answered yet (a late answer is the proxy's, never the client's). */
  private ownPending = 0;
  /** While the proxy lists the server's tools itself, client lines wait here, in order. */
  private waiting: [line: Line, terminated: boolean][] | null = null;
  /** The bounds of the proxy's own listing, while it runs. */
  private paging: Paging | undefined;
  /** The pages of the proxy's own listing stored so far. */
  private ownPages = 0;
  /** The envelope of the call that started the proxy's own listing (2026-07-28), which its requests carry. */
  private envelope: Envelope | undefined;
  private timer: NodeJS.Timeout | undefined;
  private idle: (() => void) | undefined;
  /** The repair of the calls. */
  private readonly calls: CallRepair;
  /** The repair of their results (`repairResults`), and the call being handled meanwhile, tracked when it goes to the server. */
  private readonly results: ResultRepair | undefined;
  private handling: MessageHead | undefined;
  private readonly wiring: Wiring;

  constructor(options: ProxyOptions, wiring: Wiring) {
    this.wiring = wiring;
    this.tools = new ToolSchemas(options.sharedSchemas, options.catalogue);
    const results = options.repairResults === true ? new ResultRepair(coerceOptionsOf(options), options.resultValidator, wiring) : undefined;
    this.results = results;
    // A call the proxy answers itself has no result to await: one is tracked only as it goes to the server.
    const toServer = results === undefined ? wiring.toServer : (pieces: Parameters<Wiring['toServer']>[0]): void => {
      const call = this.handling;
      if (call !== undefined) results.track(call.id!, call.name!, this.tools.output(call.name!));
      wiring.toServer(pieces);
    };
    this.calls = new CallRepair(options, { ...wiring, toServer });
  }

  /** Stops the session's timer. */
  stop(): void {
    clearTimeout(this.timer);
  }

  /** Runs `then` once no client line is waiting (at once when none is). */
  whenIdle(then: () => void): void {
    if (this.waiting === null) then();
    else this.idle = then;
  }

  /** Whether the whole client lines of `chunk` may go to the server unread. */
  clientPasses(chunk: Buffer): boolean {
    return this.waiting === null && !chunk.includes(TOOLS_BYTES) && !chunk.includes(ESCAPE_BYTES);
  }

  /** Whether the whole server lines of `chunk` may go to the client unread. */
  serverPasses(chunk: Buffer): boolean {
    return !this.tools.awaiting && this.waiting === null && this.results?.waiting !== true && !chunk.includes(LIST_CHANGED_BYTES) && !chunk.includes(ESCAPE_BYTES) && (this.ownPending === 0 || !chunk.includes(this.ownPrefixBytes));
  }

  /** Whether a long server line whose start is `head` may be streamed to the client unread. */
  serverStreams(head: Buffer): boolean {
    // (A late reply to the proxy's own tools/list names its id in its head: JSON-RPC writes it first.)
    return !this.tools.awaiting && this.waiting === null && this.results?.waiting !== true && !head.includes(LIST_CHANGED_BYTES) && (this.ownPending === 0 || !head.includes(this.ownPrefixBytes));
  }

  /** One line from the client, with its latin1 image when the framing has it. */
  fromClient(line: Line, terminated: boolean, image?: string): void {
    if (this.waiting !== null) {
      this.waiting.push([line, terminated]);
      return;
    }
    const text = mayName(image ?? line, TOOLS, TOOLS_BYTES) ? (image ?? line.toString('latin1')) : undefined;
    if (text !== undefined && text.charCodeAt(skipSpace(text, 0)) === OPEN_BRACKET && this.refusesBatch(text)) return;
    const head = text === undefined ? undefined : this.clientHead(text);
    const ambiguous = head === undefined ? undefined : ambiguityError(head);
    if (ambiguous !== undefined) {
      this.wiring.report({ kind: 'rejection', tool: head!.name ?? '', message: `the request repeats the key ${JSON.stringify(head!.repeated)}` });
      this.wiring.toClient(Buffer.from(ambiguous + '\n'));
      return;
    }
    if (head?.method === 'tools/list' && head.id !== undefined) {
      this.tools.listRequested(typeof head.id === 'string' ? flatCopy(head.id) : head.id, !head.cursor);
    } else if (head?.method === 'tools/call' && head.id !== undefined && head.name !== undefined) {
      if (this.tools.get(head.name) === undefined && !this.asked.has(head.name)) {
        this.asked.add(flatCopy(head.name));
        this.waiting = [[line, terminated]];
        this.paging = new Paging();
        clearTimeout(this.timer);
        // However the server pages, the calls waiting go on once the listing's time is up.
        this.timer = setTimeout(() => this.release(), LISTING_MS);
        this.envelope = envelopeOf(text!, head);
        this.listOwnTools(undefined);
        return;
      }
      this.handling = head;
      try {
        this.calls.repairCall(line, text!, terminated, head, this.tools.get(head.name));
      } finally {
        this.handling = undefined;
      }
      return;
    }
    this.wiring.toServer(terminated ? [line, NEWLINE] : [line]);
  }

  /**
   * Answers a batch that holds a `tools/` request (see `batchRefusal`) instead of forwarding it.
   *
   * @returns Whether the batch was refused.
   */
  private refusesBatch(text: string): boolean {
    const refusal = batchRefusal(text);
    if (refusal === undefined) return false;
    this.wiring.report({ kind: 'rejection', tool: '', message: `a batch of ${refusal.members} holding a tools/ request` });
    if (refusal.answer !== null) this.wiring.toClient(Buffer.from(refusal.answer + '\n'));
    return true;
  }

  /** The head of a client line (its latin1 image), its shape kept for the calls like it. */
  private clientHead(text: string): MessageHead | undefined {
    const known = this.shapes.match(text);
    if (known !== undefined) return known;
    const head = readHead(text, true);
    if (head !== undefined) this.shapes.learn(text, head);
    return head;
  }

  /** One line from the server. */
  fromServer(line: Line, terminated: boolean): void {
    const mayMatter = this.tools.awaiting || this.waiting !== null || this.results?.waiting === true || mayName(line, LIST_CHANGED, LIST_CHANGED_BYTES) || (this.ownPending > 0 && mayName(line, this.ownPrefix, this.ownPrefixBytes));
    const text = mayMatter ? line.toString('latin1') : undefined;
    const head = text === undefined ? undefined : readHead(text, false);
    if (head !== undefined) {
      if (typeof head.id === 'string' && head.id.startsWith(this.ownPrefix)) {
        this.ownListPage(line, head.id);
        return;
      }
      if (head.method === 'notifications/tools/list_changed') {
        this.tools.clear();
        this.asked.clear();
      } else if (head.id !== undefined && head.method === undefined && this.tools.answers(head.id)) {
        this.tools.responded(head.id, resultOf(line));
      } else if (head.id !== undefined && head.method === undefined && this.results?.fromServer(line, terminated, head.id, text!) === true) {
        return;
      }
    }
    this.wiring.toClient(line);
    if (terminated) this.wiring.toClient(NEWLINE);
  }

  /** Asks the server for (a page of) its tools with an id no client can have used. */
  private listOwnTools(cursor: unknown): void {
    const id = `${this.ownPrefix}${++this.ownCount}`;
    const params = { ...(cursor === undefined ? {} : { cursor }), ...(this.envelope === undefined ? {} : { _meta: this.envelope }) };
    this.ownPending++;
    this.wiring.toServer([Buffer.from(JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/list', params }) + '\n')]);
  }

  /** A page of the proxy's own listing: the next one is asked for within the listing's bounds. */
  private ownListPage(line: Line, id: string): void {
    // A page is the listing's only when it answers the last request; any other came late.
    const paging = id === `${this.ownPrefix}${this.ownCount}` ? this.paging : undefined;
    if (this.ownPending > 0) this.ownPending--;
    const result = resultOf(line) as { tools?: unknown; nextCursor?: unknown } | undefined;
    const tools = result?.tools;
    // A late page adds its tools; nothing more is asked.
    if (Array.isArray(tools)) this.tools.store(tools, paging !== undefined && this.ownPages++ === 0);
    if (paging === undefined) return;
    const next = result?.nextCursor;
    if (Array.isArray(tools) && paging.follows(next)) this.listOwnTools(next);
    else this.release();
  }

  /** Lets the waiting client lines go on, in order, now that the proxy knows what it can. */
  private release(): void {
    clearTimeout(this.timer);
    this.paging = undefined;
    this.ownPages = 0;
    // Only a call waiting starts a listing and its timer, and both end here: lines wait now.
    const lines = this.waiting!;
    this.waiting = null;
    for (const [line, terminated] of lines) this.fromClient(line, terminated);
    if (this.waiting === null && this.idle !== undefined) {
      const idle = this.idle;
      this.idle = undefined;
      idle();
    }
  }
}

/** Whether `line` (its bytes, or its latin1 image) holds `name` or a `\\u` escape (which may hide it). */
function mayName(line: Buffer | string, name: string, bytes: Buffer): boolean {
  return typeof line === 'string' ? line.includes(name) || line.includes(ESCAPE) : line.includes(bytes) || line.includes(ESCAPE_BYTES);
}

/** The `result` of a response line, parsed; `undefined` when the line is not one. */
function resultOf(line: Line): unknown {
  try {
    return (JSON.parse(line.toString('utf8')) as { result?: unknown } | null)?.result;
  } catch {
    return undefined;
  }
}
