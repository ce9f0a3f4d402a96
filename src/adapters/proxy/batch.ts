/**
 * JSON-RPC batches from the client (a line that is a JSON array, allowed by MCP 2025-03-26). The
 * proxy repairs, validates and checks one `tools/call` per message; a `tools/` request inside a
 * batch would reach the server unread. So a batch holding a member whose method starts with
 * `tools/`, or a member with two readings (a repeated key, see `ambiguityError`), is refused
 * whole: each request member is answered with a JSON-RPC error `-32600` and nothing of it is
 * forwarded, as the gateway refuses every batch with 400 and `-32600`. Any other batch goes on
 * as the very bytes it came as.
 */
import { INVALID_REQUEST, memberSpans, readHead, type MessageHead } from './message.js';

/** The message each request member of a refused batch is answered with. */
export const BATCH_REFUSED = 'schema-coerce proxy: a batch holding a tools/ request is not forwarded (the proxy repairs and checks one call per message); send each request as a message of its own';

/**
 * What answers a client line that is a batch (`text` is its latin1 image): `undefined` when it
 * goes on as it came (it is no batch, is not JSON, or holds no `tools/` request and no member
 * with two readings); else the refusal, with the answer line (a JSON array of one error per
 * request member, without its newline) or `null` when every member is a notification.
 */
export function batchRefusal(text: string): { readonly answer: string | null; readonly members: number } | undefined {
  const spans = memberSpans(text);
  if (spans === undefined) return undefined;
  const heads = spans.map(([start, end]) => readHead(text.slice(start, end), false));
  if (!heads.some(refuses)) return undefined;
  // A member that is not an object, or has an id, or repeats a key, is a request to answer.
  const errors = heads
    .filter((head) => head === undefined || head.id !== undefined || head.repeated !== undefined)
    .map((head) => ({ jsonrpc: '2.0', id: head?.id ?? null, error: { code: INVALID_REQUEST, message: BATCH_REFUSED } }));
  return { answer: errors.length === 0 ? null : JSON.stringify(errors), members: heads.length };
}

/** Whether a member makes its batch refused: a `tools/` method, or two readings. */
const refuses = (head: MessageHead | undefined): boolean => head !== undefined && (head.repeated !== undefined || head.method?.startsWith('tools/') === true);
