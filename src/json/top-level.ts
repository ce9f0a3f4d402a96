/**
 * The parts of a JSON text's root container, found by one scan without building any value: each
 * member of a root object (its key, where the key starts, where its value lies) or each element
 * of a root array. Nothing below them is recorded, so a large value costs its scan alone.
 */
import { scanJson, type JsonVisitor } from './scanner.js';

/** One member of the root object (or element of the root array: `key` undefined). */
export interface TopLevelPart {
  /** The member's key, decoded; `undefined` for an array's element. */
  readonly key: string | undefined;
  /** Where the member's key starts (an element's value, for an array). */
  readonly keyStart: number;
  /** Where the value starts. */
  start: number;
  /** Where the value ends (exclusive). */
  end: number;
}

/** What the root is, and its parts in text order. */
export interface TopLevel {
  readonly root: 'object' | 'array' | 'scalar';
  readonly parts: readonly TopLevelPart[];
}

/**
 * The root container's parts of `text`, which must be JSON.
 *
 * @throws {ArgsParseError} When `text` is not JSON.
 */
export function topLevelParts(text: string): TopLevel {
  const finder = new PartFinder();
  scanJson(text, finder);
  return { root: finder.root, parts: finder.parts };
}

class PartFinder implements JsonVisitor {
  root: TopLevel['root'] = 'scalar';
  readonly parts: TopLevelPart[] = [];
  private depth = 0;

  open(isArray: boolean, at: number): void {
    if (this.depth === 0) this.root = isArray ? 'array' : 'object';
    else if (this.depth === 1) this.value(at, -1);
    this.depth++;
  }

  key(key: string, start: number): void {
    if (this.depth === 1) this.parts.push({ key, keyStart: start, start: -1, end: -1 });
  }

  string(start: number, end: number): void {
    if (this.depth === 1) this.value(start, end);
  }

  number(start: number, end: number): void {
    if (this.depth === 1) this.value(start, end);
  }

  literal(_value: boolean | null, start: number, end: number): void {
    if (this.depth === 1) this.value(start, end);
  }

  close(at: number): void {
    if (--this.depth === 1) this.parts[this.parts.length - 1]!.end = at + 1;
  }

  /** A value of the root starts at `start` (and ends at `end`, for a scalar). */
  private value(start: number, end: number): void {
    if (this.root === 'array') {
      this.parts.push({ key: undefined, keyStart: start, start, end });
      return;
    }
    const member = this.parts[this.parts.length - 1]!;
    member.start = start;
    member.end = end;
  }
}
