/**
 * The shapes of the `tools/call` lines a client has sent. A client writes its calls one way: the
 * same text around the id and the arguments, call after call, for each tool. Once a line's head
 * has been read, its text is kept as a shape: the fixed text before, between and after those two
 * slots. A later line that is the same fixed text around a number or string token for the id and
 * an object or array for the arguments has the same head but for its id, and it is valid JSON
 * exactly when its arguments are: each slot holds a whole value where a whole value stood, so the
 * line is read without scanning its envelope again. Anything else is not a match, and the line
 * is read in full.
 */
import { ARGUMENTS_KEY, endOfContainer, flatCopy, idTokenAt, type MessageHead, type MessageId } from './message.js';

/** A head read before, as the fixed text around its id and its arguments. */
interface Shape {
  /** The text before the first slot, between the two slots and after the second. */
  readonly before: string;
  readonly between: string;
  readonly after: string;
  /** The id's slot comes before the arguments'. */
  readonly idFirst: boolean;
  /** The tool's name, and whether `params` has a `cursor`: the same for every line of the shape. */
  readonly name: string | undefined;
  readonly cursor: boolean;
}

/** How many shapes are kept: one per tool a client calls, for the tools it calls most recently. */
const KEPT = 16;
/** A shape is kept only for a line whose envelope (all but the arguments) is at most this long. */
const ENVELOPE_AT_MOST = 1024;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;

/** The shapes of one client's calls, most recently used first. */
export class CallShapes {
  private readonly shapes: Shape[] = [];

  /** The head of `text` (a line's latin1 image) when it has a known shape. */
  match(text: string): MessageHead | undefined {
    const shapes = this.shapes;
    for (let i = 0; i < shapes.length; i++) {
      const head = matchShape(shapes[i]!, text);
      if (head === undefined) continue;
      if (i > 0) shapes.unshift(shapes.splice(i, 1)[0]!);
      return head;
    }
    return undefined;
  }

  /** Keeps the shape of `text`, whose head is `head`, if it is a `tools/call` with located arguments. */
  learn(text: string, head: MessageHead): void {
    const { method, id, idSpan, args, name, cursor, repeated } = head;
    if (method !== 'tools/call' || repeated !== undefined || id === undefined || idSpan === undefined || args === undefined || !args.unread) return;
    if (text.length - (args.end - args.start) > ENVELOPE_AT_MOST) return;
    const idFirst = idSpan.start < args.start;
    const [first, second] = idFirst ? [idSpan, args] : [args, idSpan];
    // Copies, so a shape never holds on to the line (or the chunk) it came from.
    this.shapes.unshift({
      before: flatCopy(text.slice(0, first.start)),
      between: flatCopy(text.slice(first.end, second.start)),
      after: flatCopy(text.slice(second.end)),
      idFirst,
      name: name === undefined ? undefined : flatCopy(name),
      cursor,
    });
    if (this.shapes.length > KEPT) this.shapes.pop();
  }
}

/** The head of `text` if it has `shape`, else `undefined`. */
function matchShape(shape: Shape, text: string): MessageHead | undefined {
  // (A slice compared with `===` measured faster than `startsWith`.)
  const { before, between, after, idFirst } = shape;
  const firstStart = before.length;
  if (text.slice(0, firstStart) !== before) return undefined;
  const first = readSlot(text, firstStart, idFirst);
  // A string id that ends in `"arguments"` holds the key `readHead` looks for first, before the
  // arguments: such a line is read in full, as `readHead` would.
  if (first === undefined || (idFirst && text.startsWith(ARGUMENTS_KEY, first.end - ARGUMENTS_KEY.length))) return undefined;
  const secondStart = first.end + between.length;
  if (text.slice(first.end, secondStart) !== between) return undefined;
  const second = readSlot(text, secondStart, !idFirst);
  if (second === undefined || text.length !== second.end + after.length || text.slice(second.end) !== after) return undefined;
  const [id, idStart, args, argsStart] = idFirst ? [first, firstStart, second, secondStart] : [second, secondStart, first, firstStart];
  const { name, cursor } = shape;
  return { method: 'tools/call', id: id.id, idSpan: { start: idStart, end: id.end }, name, cursor, args: { start: argsStart, end: args.end, unread: true } };
}

/** What fills a slot: where it ends, and the id in the id's slot. */
interface Slot {
  readonly end: number;
  readonly id: MessageId | undefined;
}

/** The id's token, or the object or array of the arguments, at `at`; `undefined` when there is none. */
function readSlot(text: string, at: number, isId: boolean): Slot | undefined {
  if (isId) return idTokenAt(text, at);
  const code = text.charCodeAt(at);
  const end = code === OPEN_BRACE || code === OPEN_BRACKET ? endOfContainer(text, at) : -1;
  return end === -1 ? undefined : { end, id: undefined };
}
