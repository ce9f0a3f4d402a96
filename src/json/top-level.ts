/**
 * The parts of a JSON text's root container, found by one scan without building any value: each
 * member of a root object (its key, where the key starts, where its value lies) or each element
 * of a root array. Nothing below them is recorded, so a large value costs its scan alone.
 */
import { scanJson, type JsonVisitor } from './scanner.js';

/** One member of the root object, or one element of the root array (`key` undefined). */
export interface TopLevelPart {
  /** The member's key, decoded; `undefined` for an array's element. */
  readonly key: string | undefined;
  /** Where the member's key starts (where the value starts, for an array's element). */
  readonly keyStart: number;
  /** Where the value starts. */
  start: number;
  /** Where the value ends (exclusive). */
  end: number;
}

/**
 * The parts of the root container of `text`, which must be JSON, in text order: none for a
 * scalar root or an empty container.
 *
 * @throws {ArgsParseError} When `text` is not JSON.
 */
export function topLevelParts(text: string): TopLevelPart[] {
  const finder = new PartFinder();
  scanJson(text, finder);
  return finder.parts;
}

class PartFinder implements JsonVisitor {
  readonly parts: TopLevelPart[] = [];
  private depth = 0;
  /** Whether the root is an array (set as the scan opens it). */
  private isArray: boolean | undefined;

  open(isArray: boolean, at: number): void {
    if (this.depth === 0) this.isArray = isArray;
    else if (this.depth === 1) this.begin(at);
    this.depth++;
  }

  key(key: string, start: number): void {
    if (this.depth === 1) this.parts.push({ key, keyStart: start, start: 0, end: 0 });
  }

  string(start: number, end: number): void {
    this.scalar(start, end);
  }

  number(start: number, end: number): void {
    this.scalar(start, end);
  }

  literal(_value: boolean | null, start: number, end: number): void {
    this.scalar(start, end);
  }

  close(at: number): void {
    if (--this.depth === 1) this.last().end = at + 1;
  }

  private scalar(start: number, end: number): void {
    if (this.depth !== 1) return;
    this.begin(start);
    this.last().end = end;
  }

  /** A value of the root starts at `at`: a new element of an array, the value of an object's last key. */
  private begin(at: number): void {
    if (this.isArray) this.parts.push({ key: undefined, keyStart: at, start: at, end: 0 });
    else this.last().start = at;
  }

  private last(): TopLevelPart {
    return this.parts[this.parts.length - 1]!;
  }
}
