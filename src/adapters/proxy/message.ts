/**
 * What the proxy needs to know of one JSON-RPC line, located by the scanner without building any
 * value: the method, the id, the tool name and where `params.arguments` lies. The line is read as
 * its latin1 image (one character per byte), so every position is a byte offset and the bytes
 * can be spliced exactly, whatever their encoding.
 */
import { decodeString, scanJson, type JsonVisitor } from '../../json/scanner.js';

/** A JSON-RPC id as a map key: the number or the decoded string. */
export type MessageId = string | number;

/** Where the value of `params.arguments` lies in a line, as byte offsets. */
interface Span {
  readonly start: number;
  readonly end: number;
}

/** The parts of a line the proxy acts on; each is absent when the line does not have it. */
export interface MessageHead {
  readonly method?: string;
  readonly id?: MessageId;
  /** `params.name`, for a `tools/call`. */
  readonly name?: string;
  /** `params.cursor` was present, for a `tools/list` request. */
  readonly cursor: boolean;
  /** `params.arguments`, for a `tools/call`. */
  readonly args?: Span;
}

/** Thrown by the visitor to stop reading once the rest of the line cannot matter. */
const ENOUGH = Symbol('enough');

/**
 * Reads the head of one line (`text` is its latin1 image). A line that is not a JSON object, or
 * not valid JSON where it matters, yields `undefined`. A line whose method is neither
 * `tools/call` nor `tools/list` is read only as far as its method when `stopEarly` is set.
 */
export function readHead(text: string, stopEarly: boolean): MessageHead | undefined {
  const head = new HeadFinder(text, stopEarly);
  try {
    scanJson(text, head);
  } catch (error) {
    if (error !== ENOUGH) return undefined;
  }
  return head.isObject ? head.result() : undefined;
}

/** Decodes the UTF-8 bytes of a token from its latin1 image. */
export function utf8Of(latin1: string): string {
  return Buffer.from(latin1, 'latin1').toString('utf8');
}

/** Whether the latin1 image holds only ASCII, so it reads the same as UTF-8. */
export function isAscii(latin1: string): boolean {
  return Buffer.byteLength(latin1, 'utf8') === latin1.length;
}

/** The value of the string token at `start`..`end` of a latin1 image. */
function stringAt(text: string, start: number, end: number): string {
  const token = text.slice(start, end);
  return isAscii(token) ? decodeString(text, start, end) : (JSON.parse(utf8Of(token)) as string);
}

/** A visitor that records the members of depth 1 and of `params` the proxy needs. */
class HeadFinder implements JsonVisitor {
  isObject = false;
  private method: string | undefined;
  private id: MessageId | undefined;
  private name: string | undefined;
  private cursor = false;
  private argsStart = -1;
  private argsEnd = -1;
  private depth = 0;
  /** The key of the member being read at depth 1 and at depth 2. */
  private key1 = '';
  private key2 = '';
  private paramsIsObject = false;
  private readonly text: string;
  private readonly stopEarly: boolean;

  constructor(text: string, stopEarly: boolean) {
    this.text = text;
    this.stopEarly = stopEarly;
  }

  result(): MessageHead {
    return {
      cursor: this.cursor,
      ...(this.method === undefined ? {} : { method: this.method }),
      ...(this.id === undefined ? {} : { id: this.id }),
      ...(this.name === undefined ? {} : { name: this.name }),
      ...(this.argsStart === -1 || this.argsEnd === -1 ? {} : { args: { start: this.argsStart, end: this.argsEnd } }),
    };
  }

  open(isArray: boolean, at: number): void {
    if (this.depth === 0) this.isObject = !isArray;
    else if (this.depth === 1 && this.key1 === 'params') this.paramsIsObject = !isArray;
    this.atParams(at, -1);
    this.depth++;
  }

  key(key: string): void {
    if (this.depth === 1) this.key1 = key;
    else if (this.depth === 2) this.key2 = key;
  }

  string(start: number, end: number): void {
    if (this.depth === 1 && (this.key1 === 'method' || this.key1 === 'id')) {
      const value = stringAt(this.text, start, end);
      if (this.key1 === 'method') this.setMethod(value);
      else this.id = value;
    } else if (this.depth === 2 && this.inParams() && this.key2 === 'name') {
      this.name = stringAt(this.text, start, end);
    }
    this.atParams(start, end);
  }

  number(start: number, end: number): void {
    if (this.depth === 1 && this.key1 === 'id') this.id = Number(this.text.slice(start, end));
    this.atParams(start, end);
  }

  literal(_value: boolean | null, start: number, end: number): void {
    this.atParams(start, end);
  }

  close(at: number): void {
    this.depth--;
    if (this.depth === 2 && this.inParams() && this.key2 === 'arguments' && this.argsEnd === -1) this.argsEnd = at + 1;
  }

  private inParams(): boolean {
    return this.key1 === 'params' && this.paramsIsObject;
  }

  private setMethod(method: string): void {
    this.method = method;
    if (this.stopEarly && method !== 'tools/call' && method !== 'tools/list') throw ENOUGH;
  }

  /** A value starts at `start` (and ends at `end`, for a scalar): note `cursor` and `arguments`. */
  private atParams(start: number, end: number): void {
    if (this.depth !== 2 || !this.inParams()) return;
    if (this.key2 === 'cursor') this.cursor = true;
    else if (this.key2 === 'arguments' && this.argsStart === -1) {
      this.argsStart = start;
      if (end !== -1) this.argsEnd = end;
    }
  }
}
