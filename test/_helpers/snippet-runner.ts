/**
 * Runs documentation snippets in one process, in order (see snippets.ts): each module file is
 * imported, every value it states is compared with what it computed, and the verdicts are written
 * as JSON to the output file. Run as `node --import tsx snippet-runner.ts <job.json>`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { inspect, isDeepStrictEqual } from 'node:util';
import { matchesText, readExpected } from './snippets.js';

/** One snippet to run: its module file and the results it states, by Markdown line. */
export interface Job {
  readonly path: string;
  readonly claims: readonly { readonly line: number; readonly expected: string }[];
}

/** What running a snippet gave. */
export interface Verdict {
  /** The error the module threw, with its stack, if it did. */
  readonly error?: string;
  /** Per stated result: whether it held, and what the snippet computed. */
  readonly claims: readonly { readonly line: number; readonly ok: boolean; readonly actual: string }[];
}

function holds(actual: unknown, stated: string): boolean {
  const expected = readExpected(stated);
  if ('text' in expected) return matchesText(typeof actual === 'string' ? actual : inspect(actual), expected.text);
  if (typeof expected.value === 'string' && typeof actual === 'string' && expected.value.includes('…')) return matchesText(actual, expected.value);
  return isDeepStrictEqual(actual, expected.value) || (typeof actual === 'object' && actual !== null && JSON.stringify(actual) === JSON.stringify(expected.value));
}

const [jobFile, outFile] = process.argv.slice(2) as [string, string];
const jobs = JSON.parse(readFileSync(jobFile, 'utf8')) as Job[];
const verdicts: Verdict[] = [];
const global = globalThis as { __snippetClaim?: (line: number, value: unknown) => void };
for (const job of jobs) {
  const seen = new Map<number, unknown>();
  global.__snippetClaim = (line, value) => void seen.set(line, value);
  let error: string | undefined;
  try {
    await import(pathToFileURL(job.path).href);
  } catch (thrown) {
    error = thrown instanceof Error ? (thrown.stack ?? thrown.message) : String(thrown);
  }
  const claims = job.claims.map(({ line, expected }) =>
    seen.has(line)
      ? { line, ok: holds(seen.get(line), expected), actual: typeof seen.get(line) === 'string' ? (seen.get(line) as string) : inspect(seen.get(line), { depth: 6 }) }
      : { line, ok: false, actual: '(never reached)' });
  verdicts.push({ ...(error === undefined ? {} : { error }), claims });
}
writeFileSync(outFile, JSON.stringify(verdicts));
// A snippet may leave a server or a timer behind: the verdicts are written, so end here.
process.exit(0);
