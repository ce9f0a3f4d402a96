/**
 * What the main command reads: the schema (a file, or inline JSON text) and the arguments text
 * (the operand, or stdin read whole). Each failure is a `UsageError` naming what it concerns.
 */
import { fstatSync, readFileSync } from 'node:fs';
import { ArgsParseError, parseArgs, stringifyArgs } from '../../index.js';
import { UsageError } from './errors.js';

/** Arguments text and the label its messages carry: `args`, or `args (stdin)`. */
export interface ArgsInput {
  readonly label: string;
  readonly text: string;
}

/**
 * The schema a `--schema` operand gives: inline JSON when it starts like a JSON object or array
 * (or is `true` or `false`), else a file's JSON. A JSON Schema is an object or a boolean; any
 * other value, or an operand that is neither a file nor such JSON (`--schema 42`), is refused.
 */
export function readSchema(operand: string): unknown {
  const inline = /^\s*[{[]|^\s*(?:true|false)\s*$/.test(operand);
  if (inline) return schemaOf(parseLabelled(operand, '--schema (inline)'), '--schema (inline)');
  let text: string;
  try {
    text = readFileSync(operand, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unreadable';
    if (code === 'ENOENT' && isJson(operand)) {
      throw new UsageError(`--schema ${operand}: neither a file nor a JSON Schema object (no such file; inline, a schema is a JSON object such as '{"type":"object"}')`);
    }
    throw new UsageError(`--schema ${operand}: cannot read the file (${code})`);
  }
  return schemaOf(parseLabelled(text, `--schema ${operand}`), `--schema ${operand}`);
}

/**
 * The arguments text: the operand, or stdin when it is `-` or absent. Stdin is read whole, as
 * bytes first (a file redirected in is read in one piece of its size), then decoded as UTF-8.
 */
export async function readArgs(operand: string | undefined): Promise<ArgsInput> {
  if (operand !== undefined && operand !== '-') return { label: 'args', text: operand };
  return { label: 'args (stdin)', text: (await readStdin()).toString('utf8') };
}

async function readStdin(): Promise<Buffer> {
  if (process.stdin.isTTY) throw new UsageError('no args given: pass them as an operand or on stdin');
  try {
    if (fstatSync(0).isFile()) return readFileSync(0);
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  } catch (error) {
    throw new UsageError(`cannot read stdin (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
}

/** The value of a schema read at `label`, as plain JSON values; only an object or a boolean is a JSON Schema. */
function schemaOf(value: unknown, label: string): unknown {
  const plain = toPlain(value);
  if (typeof plain === 'boolean' || (typeof plain === 'object' && plain !== null && !Array.isArray(plain))) return plain;
  const kind = plain === null ? 'null' : Array.isArray(plain) ? 'an array' : typeof plain === 'string' ? 'a string' : 'a number';
  throw new UsageError(`${label}: a JSON Schema is an object or a boolean, not ${kind}`);
}

function parseLabelled(text: string, label: string): unknown {
  try {
    return parseArgs(text);
  } catch (error) {
    if (error instanceof ArgsParseError) throw new UsageError(`${label}: ${error.detail}`);
    throw error;
  }
}

/** Whether `text` is JSON text of any value (`42`, `"x"`, `null`). */
function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** Schemas are read as plain JSON values: lossless numbers become numbers. */
function toPlain(value: unknown): unknown {
  return JSON.parse(stringifyArgs(value));
}
