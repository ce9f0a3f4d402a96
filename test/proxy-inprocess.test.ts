/**
 * The proxy run in this process over streams, in front of real servers on loopback: what a
 * client and stderr are told when a remote server cannot be reached or refuses, with secrets in
 * the URL and the headers (none of them ever shown), and the command-line checks of both; bodies
 * and SSE events written on several lines; a signal's status; a long non-ASCII call in chunks.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, test } from 'vitest';
import { httpUpstream } from '../src/adapters/proxy/http-upstream.js';
import { targetHeaders, targetUrl } from '../src/adapters/proxy/http-target.js';
import { Redactor, shownUrl, shownUrlText } from '../src/adapters/proxy/secrets.js';
import { runInProcess } from './_helpers/proxy-run.js';
import { bytesOf } from '../src/adapters/proxy/outlet.js';
import type { Connect } from '../src/adapters/proxy/upstream.js';

const SECRET = 'sk-live-0123456789abcdef';
const TOKEN = 'Bearer tok-9876543210';
const PING = '{"jsonrpc":"2.0","id":1,"method":"ping"}\n';

/** A loopback HTTP server answering every request with `handle`. */
async function serve(handle: (request: IncomingMessage, response: ServerResponse) => void): Promise<{ url: string; close: () => Promise<void> }> {
  const server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/mcp`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

describe('secrets in --url and --header never reach a message', () => {
  test('a server that refuses: the client\'s error and stderr show the URL with its query values as ***', async () => {
    const server = await serve((request, response) => {
      request.resume();
      response.writeHead(401, `no ${SECRET}`).end();
    });
    const url = new URL(`${server.url}?api_key=${SECRET}&v=2`);
    const run = await runInProcess(httpUpstream(url, { authorization: TOKEN }), [PING]);
    await server.close();
    const shown = `${server.url}?api_key=***&v=***`;
    expect(JSON.parse(run.stdout.toString())).toEqual({ jsonrpc: '2.0', id: 1, error: { code: -32000, message: `schema-coerce proxy: ${shown} answered HTTP 401 no ***` } });
    expect(run.stderr).toBe(`schema-coerce proxy: ${shown} answered HTTP 401 no ***\n`);
    expect(run.status).toBe(0);
  });

  test('a server that cannot be reached: neither the query value nor a header value is shown', async () => {
    const server = await serve(() => undefined);
    await server.close();
    const url = new URL(`${server.url}?key=${SECRET}`);
    const run = await runInProcess(httpUpstream(url, { 'x-key': SECRET, authorization: TOKEN }), [PING]);
    const said = run.stdout.toString() + run.stderr;
    expect(said).toContain(`${server.url}?key=*** cannot be reached: ECONNREFUSED`);
    expect(said).not.toContain(SECRET);
    expect(said).not.toContain('tok-9876543210');
  });

  test('a header value fetch refuses: its message, which quotes the value, is scrubbed', async () => {
    const server = await serve((_request, response) => response.end());
    // A value only `fetch` checks (the command line refuses line breaks before this).
    const run = await runInProcess(httpUpstream(new URL(server.url), { 'x-key': `${SECRET}\nX-Other: 1` }), [PING]);
    await server.close();
    const said = run.stdout.toString() + run.stderr;
    expect(said).toContain('cannot be reached');
    expect(said).not.toContain(SECRET);
  });

  test('shownUrl: no credentials, no fragment, every query value ***; a URL without a query as it is', () => {
    expect(shownUrl(new URL('https://u:p@h.example/a/b?x=1&y=&x=3#frag'))).toBe('https://h.example/a/b?x=***&y=***&x=***');
    expect(shownUrl(new URL('http://127.0.0.1:9/mcp'))).toBe('http://127.0.0.1:9/mcp');
    expect(shownUrl(new URL('http://127.0.0.1:9/mcp?'))).toBe('http://127.0.0.1:9/mcp');
    expect(shownUrl(new URL('http://h/?a%20b=c'))).toBe('http://h/?a%20b=***');
  });

  test('shownUrlText: a URL that does not parse loses its credentials and its query', () => {
    expect(shownUrlText(`http://user:${SECRET}@h:x/mcp?k=${SECRET}`)).toBe('http://***@h:x/mcp?***');
    expect(shownUrlText(`not a url#${SECRET}`)).toBe('not a url?***');
    expect(shownUrlText('plain')).toBe('plain');
  });

  test('shownUrlText: credentials are cut wherever the URL starts in the text, each time it has some', () => {
    expect(shownUrlText(`<http://alice:${SECRET}@h/mcp>`)).toBe('<http://***@h/mcp>');
    expect(shownUrlText(`1http://alice:${SECRET}@h/ and https://bob:${SECRET}@h/`)).toBe('1http://***@h/ and https://***@h/');
  });

  test('Redactor: every secret of four characters or more, the longest first, encoded or not', () => {
    const redactor = new Redactor(new URL(`http://alice:pa%24%24word@h/?k=${SECRET}&n=12`), { authorization: TOKEN, short: 'abc' });
    expect(redactor.scrub(`${SECRET} ${TOKEN} pa$$word pa%24%24word alice abc 12`)).toBe('*** *** *** *** *** abc 12');
    expect(redactor.scrub(`Bearer ${SECRET}`)).toBe('Bearer ***');
  });

  test('Redactor: a secret holding another is replaced whole; a query without =, and a secret of four characters, are searched for', () => {
    const redactor = new Redactor(new URL(`http://h/mcp?${SECRET}`), { 'x-key': `team-${SECRET}`, pin: 'abcd' });
    expect(redactor.scrub(`key team-${SECRET} refused; pin abcd; ${SECRET}`)).toBe('key *** refused; pin ***; ***');
  });
});

describe('the command line\'s --url and --header', () => {
  test('credentials in the URL are refused, with a clear message and nothing of them', () => {
    expect(() => targetUrl(`http://alice:${SECRET}@127.0.0.1/mcp`)).toThrow("--url must not hold credentials (user:password@): fetch cannot send them; give them as --header 'Authorization: …' instead");
    expect(() => targetUrl('http://alice@127.0.0.1/mcp')).toThrow('must not hold credentials');
  });

  test('a URL that does not parse is shown without its query; a scheme that is not http(s) is named', () => {
    expect(() => targetUrl(`nope?key=${SECRET}`)).toThrow('--url "nope?***" is not a URL');
    expect(() => targetUrl(`<http://alice:${SECRET}@127.0.0.1/mcp>`)).toThrow('--url "<http://***@127.0.0.1/mcp>" is not a URL');
    expect(() => targetUrl('ftp://h/')).toThrow('--url must be http or https, not ftp:');
    expect(targetUrl('https://h/mcp?k=v').href).toBe('https://h/mcp?k=v');
  });

  test('a header that is not Name: value is named by its place, never shown; one with a line break is refused', () => {
    expect(() => targetHeaders(['A: 1', SECRET])).toThrow("--header number 2 must be 'Name: value' (its text is not shown: it may hold a secret)");
    expect(() => targetHeaders([`: ${SECRET}`])).toThrow('--header number 1 must be');
    expect(() => targetHeaders([`X-Key: ${SECRET}\r\nX-Other: 1`])).toThrow('--header number 1 (X-Key) has a line break or NUL in its value, which HTTP cannot carry');
    expect(() => targetHeaders([`X-Key: a\0b`])).toThrow('line break or NUL');
    expect(targetHeaders(['Authorization:  Bearer x ', 'X-A:1'])).toEqual({ authorization: 'Bearer x', 'x-a': '1' });
  });
});

describe('the Streamable HTTP upstream', () => {
  test('a JSON body and an SSE event written on several lines reach the client as one line each', async () => {
    const server = await serve((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        const { id } = JSON.parse(body) as { id: number };
        if (id === 1) {
          response.writeHead(200, { 'content-type': 'application/json' }).end(`{\n  "jsonrpc": "2.0",\r\n  "id": 1,\n  "result": {}\n}\n`);
        } else {
          response.writeHead(200, { 'content-type': 'text/event-stream' }).end(`data: {"jsonrpc":"2.0",\ndata: "id":2,\ndata: "result":{}}\n\n`);
        }
      });
    });
    const run = await runInProcess(httpUpstream(new URL(server.url), {}), [PING, PING.replace('"id":1', '"id":2')]);
    await server.close();
    const lines = run.stdout.toString().split('\n');
    expect(lines).toEqual(['{   "jsonrpc": "2.0",    "id": 1,   "result": {} } ', '{"jsonrpc":"2.0", "id":2, "result":{}}', '']);
    expect(lines.slice(0, 2).map((line) => JSON.parse(line) as unknown)).toEqual([{ jsonrpc: '2.0', id: 1, result: {} }, { jsonrpc: '2.0', id: 2, result: {} }]);
  });

  test('a signal ends the session with 128 + its number (SIGTERM: 143)', async () => {
    const server = await serve((request, response) => {
      request.resume();
      response.writeHead(405).end();
    });
    const upstream = httpUpstream(new URL(server.url), {})({ session: { fromServer: () => undefined } as never, reader: undefined as never, client: { pause: () => undefined, resume: () => undefined }, warn: () => undefined });
    upstream.signal('SIGTERM');
    expect(await upstream.done).toBe(143);
    await server.close();
  });
});

describe('a call longer than a pipe\'s 64 KB, not ASCII, in chunks', () => {
  test.each([
    ['with its newline', '\n'],
    ['as the last line, without a newline: none is added', ''],
  ])('only its integer literals change, whatever the chunks, %s', async (_name, newline) => {
    const received: Buffer[] = [];
    let finish!: (status: number) => void;
    const connect: Connect = (side) => ({
      send: (pieces) => {
        const bytes = Buffer.concat(pieces.map(bytesOf));
        if (bytes.includes('schema-coerce-proxy:')) {
          const { id } = JSON.parse(bytes.toString()) as { id: string };
          setImmediate(() => side.reader.push(Buffer.from(JSON.stringify({ jsonrpc: '2.0', id, result: { tools: [{ name: 't', inputSchema: { type: 'object', properties: { n: { type: 'integer' }, s: { type: 'string' } } } }] } }) + '\n')));
        } else received.push(bytes);
      },
      end: () => finish(0),
      signal: () => undefined,
      takesStream: true,
      source: { pause: () => undefined, resume: () => undefined },
      done: new Promise((resolve) => (finish = resolve)),
    });
    const text = 'é日本😀\u00e9'.repeat(8_000);
    const call = Buffer.from(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":{"s":"${text}","n":3.0,"t":"${text}"}}}${newline}`);
    // Chunks that cut characters in the middle.
    const chunks: Buffer[] = [];
    for (let at = 0; at < call.length; at += 9_999) chunks.push(call.subarray(at, at + 9_999));
    await runInProcess(connect, chunks);
    expect(Buffer.concat(received).toString()).toBe(call.toString().replace('"n":3.0', '"n":3'));
  });
});
