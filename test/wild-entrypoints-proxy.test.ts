/**
 * What `test/wild-entrypoints.test.ts` found in the proxy, with the proxy run in this process (so
 * its mutation suite reaches it) in front of the same real echoing child server: arguments given
 * as a string of multi-line JSON go on inside one line; under `--lenient` a string the reader
 * refuses is answered with the message naming why, without it only a cut-off one; `--verbose`
 * writes its report lines as UTF-8.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { stdioUpstream } from '../src/adapters/proxy/stdio-upstream.js';
import type { ProxyOptions } from '../src/adapters/proxy/session.js';
import { runInProcess } from './_helpers/proxy-run.js';
import { makeTempDir, removeTempDirs } from './_helpers/temp.js';

afterAll(removeTempDirs);

const SCHEMA = { type: 'object', properties: { path: { type: 'string' }, content: { type: 'string' } }, required: ['path'] };
const INIT = '{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"wild","version":"0"}}}\n';

/** The answers the client got to calls of `write` with each of `args` (as JSON text), by call. */
async function calls(args: readonly string[], options: ProxyOptions): Promise<{ answers: { isError?: boolean; text: string }[]; stderr: string }> {
  const tools = join(makeTempDir('schema-coerce-wild-'), 'tools.json');
  writeFileSync(tools, JSON.stringify([{ name: 'write', inputSchema: SCHEMA }]));
  const server = join(import.meta.dirname, 'peers', 'echo-args-server.mjs');
  const lines = args.map((value, id) => `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"write","arguments":${value}}}\n`);
  const run = await runInProcess(stdioUpstream([process.execPath, server, tools]), [INIT, lines.join('')], options);
  const answers: { isError?: boolean; text: string }[] = [];
  for (const line of run.stdout.toString('utf8').split('\n').filter(Boolean)) {
    const message = JSON.parse(line) as { id: unknown; result?: { isError?: boolean; content: { text: string }[] }; error?: { data: string } };
    if (typeof message.id !== 'number') continue;
    answers[message.id] = message.error === undefined ? { ...(message.result!.isError === true ? { isError: true } : {}), text: message.result!.content[0]!.text } : { isError: true, text: `not JSON: ${message.error.data}` };
  }
  return { answers, stderr: run.stderr };
}

const MARKUP = JSON.stringify('<arg_key>path</arg_key><arg_value>a.txt</arg_value>');
const TWO_VALUES = JSON.stringify('{"path": "a"}{"path": "b"}');
const CUT = JSON.stringify('{"path": "a.txt", "content": "ab');

describe('string arguments through the proxy', () => {
  test('multi-line JSON text goes on as the object, on one line, its tokens as written', async () => {
    const pretty = JSON.stringify('{\n  "path": "a.txt",\r\n  "content": "x\\ny"\n}');
    const { answers } = await calls([pretty, JSON.stringify("{'path':\n'b.txt'}")], { lenient: true });
    expect(answers).toEqual([{ text: '{"path":"a.txt","content":"x\\ny"}' }, { text: '{"path":"b.txt"}' }]);
  }, 30_000);

  test('under --lenient, text the reader refuses is answered with the message naming why, never forwarded', async () => {
    const { answers } = await calls([MARKUP, TWO_VALUES, CUT], { lenient: true });
    expect(answers.map((answer) => answer.isError)).toEqual([true, true, true]);
    expect(answers[0]!.text).toMatch(/^Invalid parameters for tool "write": the arguments are not valid JSON \(at line 1 column 1: the arguments are tool-call markup \("<arg_key>", the GLM format\)/);
    expect(answers[1]!.text).toContain('two values back to back');
    expect(answers[2]!.text).toContain('the arguments were cut off');
  }, 30_000);

  test('with syntax repair off (strict, or lenient without syntax), only the cut-off text is answered; the rest goes on as it came', async () => {
    for (const options of [{}, { lenient: { syntax: false } }] as ProxyOptions[]) {
      const { answers } = await calls([MARKUP, CUT], options);
      expect(answers[0]).toEqual({ text: MARKUP });
      expect(answers[1]!.isError).toBe(true);
      expect(answers[1]!.text).toContain('the arguments were cut off');
    }
  }, 30_000);

  test('--verbose writes each report line as UTF-8: a typographic quote stays one character', async () => {
    const { answers, stderr } = await calls([JSON.stringify('{\u201cpath\u201d: \u201ca.txt\u201d}')], { lenient: true, verbose: true });
    expect(answers).toEqual([{ text: '{"path":"a.txt"}' }]);
    const reports = stderr.split('\n').filter((line) => line.startsWith('schema-coerce proxy: ')).map((line) => JSON.parse(line.slice(21)) as { rule: string; from: string });
    expect(reports.map(({ rule, from }) => ({ rule, from }))).toEqual([{ rule: 'quotes', from: '\u201cpath\u201d' }]);
  }, 30_000);
});
