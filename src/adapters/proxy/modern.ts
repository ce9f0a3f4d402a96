/**
 * What the proxy and the gateway need of MCP's 2026-07-28 revision: a request carries its era in
 * its own `params._meta` (the envelope: protocol version, client capabilities, client info), and
 * over HTTP it goes with the standard headers a client derives from its body
 * (`MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`). No handshake and no session: a request the
 * proxy makes itself (its `tools/list`) carries the envelope of the client request that made it
 * ask, so the server reads it in the era the client chose.
 */
import { PROTOCOL_VERSION_KEY } from '../shared/tool-error.js';
import { utf8Of, readHead, type MessageHead } from './message.js';

const PROTOCOL_VERSION_BYTES = Buffer.from(PROTOCOL_VERSION_KEY);
/** The envelope's keys: the two it requires and the optional client info. */
const ENVELOPE_KEYS: readonly string[] = [PROTOCOL_VERSION_KEY, 'io.modelcontextprotocol/clientCapabilities', 'io.modelcontextprotocol/clientInfo'];

/** The revisions with a per-request envelope that the gateway serves. */
export const MODERN_VERSIONS: readonly string[] = ['2026-07-28'];

/** The envelope of a request, as its `_meta` gives it. */
export type Envelope = Readonly<Record<string, unknown>>;

/** The request field the `Mcp-Name` header mirrors, by method. */
const NAME_SOURCES: Readonly<Record<string, string>> = {
  'tools/call': 'name',
  'prompts/get': 'name',
  'resources/read': 'uri',
  'tasks/get': 'taskId',
  'tasks/update': 'taskId',
  'tasks/cancel': 'taskId',
};

/**
 * The envelope in the `params._meta` of a client line (`text`, its latin1 image; `head`, its
 * head): its protocol version, client capabilities and client info, nothing else of `_meta`
 * (a progress token or a trace belongs to that request alone). `undefined` for a request of a
 * 2025 revision, which has none.
 */
export function envelopeOf(text: string, head: MessageHead): Envelope | undefined {
  // A head read from a call's shape has no `_meta`: the line is read again when it may have one.
  const span = head.meta ?? (text.includes(PROTOCOL_VERSION_KEY) ? readHead(text, true)?.meta : undefined);
  if (span === undefined) return undefined;
  const meta = JSON.parse(utf8Of(text.slice(span.start, span.end))) as Record<string, unknown>;
  if (typeof meta[PROTOCOL_VERSION_KEY] !== 'string') return undefined;
  const envelope: Record<string, unknown> = {};
  for (const key of ENVELOPE_KEYS) if (key in meta) envelope[key] = meta[key];
  return envelope;
}

/**
 * The standard headers of a request of the 2026-07-28 revision over Streamable HTTP, derived from
 * its body as a client derives them: `MCP-Protocol-Version` from its envelope, `Mcp-Method`, and
 * `Mcp-Name` for the methods that name a tool, a prompt, a resource or a task. `undefined` for
 * anything else (a 2025-era message, a notification, a response).
 */
export function modernHeaders(body: Buffer): Record<string, string> | undefined {
  if (!body.includes(PROTOCOL_VERSION_BYTES)) return undefined;
  const text = body.toString('latin1');
  const head = readHead(text, true);
  if (head?.method === undefined || head.id === undefined || head.meta === undefined) return undefined;
  const version = envelopeOf(text, head)?.[PROTOCOL_VERSION_KEY];
  if (typeof version !== 'string') return undefined;
  const headers: Record<string, string> = { 'mcp-protocol-version': version, 'mcp-method': head.method };
  const field = Object.hasOwn(NAME_SOURCES, head.method) ? NAME_SOURCES[head.method] : undefined;
  // The name of a tool or prompt is in the head; a uri or a task id is read from the (small) body.
  const value = field === 'name' ? head.name : field === undefined ? undefined : ((JSON.parse(utf8Of(text)) as { params?: Record<string, unknown> }).params?.[field]);
  if (typeof value === 'string') headers['mcp-name'] = headerValue(value);
  return headers;
}

/**
 * A string as an HTTP field value, as the spec encodes one: as it is when it is printable ASCII
 * without surrounding white space, else `=?base64?…?=` of its UTF-8 bytes.
 */
function headerValue(value: string): string {
  const plain = value.length > 0 && value === value.trim() && /^[\t\x20-\x7e]*$/.test(value) && !(value.startsWith('=?base64?') && value.endsWith('?='));
  return plain ? value : `=?base64?${Buffer.from(value, 'utf8').toString('base64')}?=`;
}
