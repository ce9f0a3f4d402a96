/**
 * The proxy's Streamable HTTP upstream in this process, against a loopback server that records
 * every request (so the adapters' mutation run reaches it; `proxy-http.test.ts` runs the built
 * proxy): the session id and protocol version on every request after the first answer, DELETE on
 * close, what a JSON body, a 202 and an SSE stream deliver, refusals, the GET stream (refused,
 * resumed with Last-Event-ID and the server's retry, a POST's id and retry not its own), a paused
 * client (a JSON body and an SSE stream held back), and what closing waits for.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, test } from 'vitest';
import { httpUpstream } from '../src/adapters/proxy/http-upstream.js';
import type { ProxySession } from '../src/adapters/proxy/session.js';

interface Seen {
  readonly method: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
}

/** A loopback server answering with `handle` (given each request's body), recording every request. */
async function recording(handle: (seen: Seen, response: ServerResponse) => void) {
  const requests: Seen[] = [];
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      const seen = { method: request.method!, headers: request.headers, body };
      requests.push(seen);
      handle(seen, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`);
  const close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return { url, requests, close };
}

/** An upstream to `url`, what it delivered to the session (one string a message) and said on stderr. */
function upstreamTo(url: URL, headers: Record<string, string> = {}) {
  const delivered: string[] = [];
  const warned: string[] = [];
  /** The messages handed to the session as a line without its newline (there must be none). */
  const unterminated: string[] = [];
  const fromServer = (line: Buffer, terminated: boolean) => {
    delivered.push(line.toString());
    if (!terminated) unterminated.push(line.toString());
  };
  const session = { fromServer } as unknown as ProxySession;
  const upstream = httpUpstream(url, headers)({ session, reader: undefined as never, client: { pause: () => undefined, resume: () => undefined }, warn: (text) => warned.push(text) });
  return { upstream, delivered, warned, unterminated, send: (line: string) => upstream.send([Buffer.from(line)]) };
}

const until = async (done: () => boolean, ms = 10_000): Promise<void> => {
  for (let waited = 0; !done() && waited < ms; waited += 10) await new Promise((resolve) => setTimeout(resolve, 10));
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const INITIALIZE = '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}\n';
const INITIALIZED = '{"jsonrpc":"2.0","method":"notifications/initialized"}\n';
const PING = '{"jsonrpc":"2.0","id":2,"method":"ping"}\n';
const json = (response: ServerResponse, body: string, headers: Record<string, string> = {}) => response.writeHead(200, { 'content-type': 'application/json', ...headers }).end(body);

describe('the Streamable HTTP upstream: the session', () => {
  test("the first answer's Mcp-Session-Id and the initialize result's protocol version go with every later request; closing ends the session with DELETE", async () => {
    const server = await recording((seen, response) => {
      if (seen.method === 'GET') return void response.writeHead(405).end();
      if (seen.method === 'DELETE') return void response.writeHead(200).end();
      const { id } = (seen.body === '' ? {} : JSON.parse(seen.body)) as { id?: number };
      if (id === 1) setTimeout(() => json(response, '{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-06-18"}}', { 'mcp-session-id': 'sess-1' }), 50);
      else if (id === undefined) response.writeHead(202).end();
      else json(response, `{"jsonrpc":"2.0","id":${id},"result":{"protocolVersion":"not-this-one"}}`);
    });
    const { upstream, delivered, send } = upstreamTo(server.url, { authorization: 'Bearer t' });
    // Sent at once (a ping may precede the initialize answer): the ping waits for the first answer, which names the session.
    send(INITIALIZE);
    send(PING);
    await until(() => delivered.length === 2 && server.requests.some((seen) => seen.method === 'GET'));
    send(INITIALIZED);
    send('{"jsonrpc":"2.0","id":3,"method":"ping"}\n');
    await until(() => delivered.length === 3 && server.requests.length === 5);
    upstream.end();
    expect(await upstream.done).toBe(0);
    await server.close();

    expect(delivered).toEqual([
      '{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-06-18"}}',
      '{"jsonrpc":"2.0","id":2,"result":{"protocolVersion":"not-this-one"}}',
      '{"jsonrpc":"2.0","id":3,"result":{"protocolVersion":"not-this-one"}}',
    ]);
    const [first, ping, ...later] = server.requests;
    expect(first).toMatchObject({ method: 'POST', body: INITIALIZE.trimEnd() });
    expect(first!.headers).toMatchObject({ authorization: 'Bearer t', 'content-type': 'application/json', accept: 'application/json, text/event-stream' });
    expect(first!.headers['mcp-session-id']).toBeUndefined();
    expect(first!.headers['mcp-protocol-version']).toBeUndefined();
    expect(ping).toMatchObject({ method: 'POST', body: PING.trimEnd(), headers: { authorization: 'Bearer t', 'mcp-session-id': 'sess-1' } });
    expect(later.map((seen) => seen.method).sort()).toEqual(['DELETE', 'GET', 'POST', 'POST']);
    for (const seen of later) expect(seen.headers).toMatchObject({ authorization: 'Bearer t', 'mcp-session-id': 'sess-1', 'mcp-protocol-version': '2025-06-18' });
    expect(later.find((seen) => seen.method === 'GET')!.headers.accept).toBe('text/event-stream');
    expect(later.filter((seen) => seen.method === 'POST').map((seen) => seen.body).sort()).toEqual([INITIALIZED.trimEnd(), '{"jsonrpc":"2.0","id":3,"method":"ping"}'].sort());
    expect(server.requests.at(-1)!.method).toBe('DELETE');
  });

  test('a server that names no session is sent no DELETE, and a message after the close is not sent', async () => {
    const server = await recording((seen, response) => (seen.method === 'POST' ? json(response, '{"jsonrpc":"2.0","id":1,"result":{}}') : response.writeHead(405).end()));
    const { upstream, delivered, send } = upstreamTo(server.url);
    send(INITIALIZE);
    await until(() => delivered.length === 1 && server.requests.length === 2);
    upstream.end();
    expect(await upstream.done).toBe(0);
    send(PING);
    await sleep(50);
    await server.close();
    expect(server.requests.map((seen) => seen.method)).toEqual(['POST', 'GET']);
  });

  test('a blank line from the client is not posted, and a last message without its newline is posted whole', async () => {
    const server = await recording((_seen, response) => json(response, '{"jsonrpc":"2.0","id":1,"result":{}}'));
    const { upstream, delivered, warned, send } = upstreamTo(server.url);
    send('\n');
    send('{"jsonrpc":"2.0","id":1,"method":"ping"}');
    await until(() => delivered.length === 1);
    upstream.end();
    await upstream.done;
    await server.close();
    expect(server.requests.filter((seen) => seen.method === 'POST').map((seen) => seen.body)).toEqual(['{"jsonrpc":"2.0","id":1,"method":"ping"}']);
    expect(warned).toEqual([]);
  });

  test('closing waits for the answers on their way; a signal does not', async () => {
    const server = await recording((seen, response) => {
      if (seen.method !== 'POST') return void response.writeHead(405).end();
      const { id } = JSON.parse(seen.body) as { id: number };
      setTimeout(() => json(response, `{"jsonrpc":"2.0","id":${id},"result":{}}`), id === 1 ? 0 : 150);
    });
    const ended = upstreamTo(server.url);
    ended.send(INITIALIZE);
    await until(() => ended.delivered.length === 1);
    ended.send(PING);
    ended.upstream.end();
    expect(await ended.upstream.done).toBe(0);
    expect(ended.delivered).toEqual(['{"jsonrpc":"2.0","id":1,"result":{}}', '{"jsonrpc":"2.0","id":2,"result":{}}']);

    const signalled = upstreamTo(server.url);
    signalled.send(INITIALIZE);
    await until(() => signalled.delivered.length === 1);
    signalled.send(PING);
    await sleep(20);
    signalled.upstream.signal('SIGINT');
    expect(await signalled.upstream.done).toBe(130);
    await sleep(200);
    // The answer still on its way was not waited for, and its abort is no refusal.
    expect(signalled.delivered).toEqual(['{"jsonrpc":"2.0","id":1,"result":{}}']);
    expect(signalled.warned).toEqual([]);
    await server.close();
  });
});

describe('the Streamable HTTP upstream: what an answer delivers', () => {
  test('a 202, an empty body and an SSE stream\'s events of another type or without data deliver nothing', async () => {
    const server = await recording((seen, response) => {
      if (seen.method !== 'POST') return void response.writeHead(405).end();
      const { id } = (JSON.parse(seen.body) as { id?: number });
      if (id === undefined) return void response.writeHead(202, { 'content-type': 'application/json' }).end('{"ignored":true}');
      if (id === 1) return void json(response, '{"jsonrpc":"2.0","id":1,"result":{}}');
      if (id === 2) return void json(response, '');
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.end(
        'event: endpoint\ndata: {"not":"a message"}\n\n' +
          'data:\n\n' +
          'event: message\ndata: {"jsonrpc":"2.0","method":"notifications/progress"}\n\n' +
          `data: {"jsonrpc":"2.0","id":${id},"result":{}}\n\n`,
      );
    });
    const { upstream, delivered, send } = upstreamTo(server.url);
    send(INITIALIZE);
    await until(() => delivered.length === 1);
    send(INITIALIZED);
    send(PING);
    send('{"jsonrpc":"2.0","id":3,"method":"ping"}\n');
    await until(() => delivered.length === 3);
    await sleep(50);
    upstream.end();
    await upstream.done;
    await server.close();
    expect(delivered).toEqual(['{"jsonrpc":"2.0","id":1,"result":{}}', '{"jsonrpc":"2.0","method":"notifications/progress"}', '{"jsonrpc":"2.0","id":3,"result":{}}']);
  });

  test('a refusal names the status, and its text when there is one; a refused notification is only said on stderr', async () => {
    const server = await recording((seen, response) => {
      if (seen.method !== 'POST') return void response.writeHead(405).end();
      const { id } = JSON.parse(seen.body) as { id?: number };
      if (id === 1) return void json(response, '{"jsonrpc":"2.0","id":1,"result":{}}');
      response.writeHead(id === 2 ? 503 : 500, id === 2 ? 'Busy' : '').end('refused');
    });
    const { upstream, delivered, warned, unterminated, send } = upstreamTo(server.url);
    send(INITIALIZE);
    await until(() => delivered.length === 1);
    send(PING);
    await until(() => delivered.length === 2);
    send('{"jsonrpc":"2.0","id":4,"method":"ping"}\n');
    await until(() => delivered.length === 3);
    send(INITIALIZED);
    await until(() => warned.length === 3);
    upstream.end();
    await upstream.done;
    await server.close();
    const shown = server.url.href;
    expect(delivered.slice(1).map((line) => JSON.parse(line) as unknown)).toEqual([
      { jsonrpc: '2.0', id: 2, error: { code: -32000, message: `schema-coerce proxy: ${shown} answered HTTP 503 Busy` } },
      { jsonrpc: '2.0', id: 4, error: { code: -32000, message: `schema-coerce proxy: ${shown} answered HTTP 500` } },
    ]);
    expect(warned).toEqual([`${shown} answered HTTP 503 Busy`, `${shown} answered HTTP 500`, `${shown} answered HTTP 500`]);
    // A refusal is a whole message, as every answer is.
    expect(unterminated).toEqual([]);
  });

  test('while the client is not taking bytes a JSON answer is not delivered; once it is, the answer arrives', async () => {
    const server = await recording((seen, response) => (seen.method === 'POST' ? json(response, '{"jsonrpc":"2.0","id":1,"result":{}}') : response.writeHead(405).end()));
    const { upstream, delivered, send } = upstreamTo(server.url);
    upstream.source.pause();
    upstream.source.pause();
    send(INITIALIZE);
    await until(() => server.requests.length > 0);
    await sleep(100);
    expect(delivered).toEqual([]);
    upstream.source.resume();
    await until(() => delivered.length === 1);
    expect(delivered).toEqual(['{"jsonrpc":"2.0","id":1,"result":{}}']);
    upstream.end();
    await upstream.done;
    await server.close();
  });
});

describe('the Streamable HTTP upstream: the GET stream', () => {
  test('a server that refuses the GET stream, or answers it with something other than SSE, is not asked again', async () => {
    // A 204 has no body at all.
    const refusals = [(response: ServerResponse) => response.writeHead(405).end(), (response: ServerResponse) => json(response, '{}'), (response: ServerResponse) => response.writeHead(204).end()];
    for (const refuse of refusals) {
      const server = await recording((seen, response) => (seen.method === 'POST' ? json(response, '{"jsonrpc":"2.0","id":1,"result":{}}') : refuse(response)));
      const { upstream, delivered, send } = upstreamTo(server.url);
      send(INITIALIZE);
      await until(() => delivered.length === 1);
      // Past the default retry delay (1 s).
      await sleep(1_300);
      upstream.end();
      await upstream.done;
      await server.close();
      expect(server.requests.map((seen) => seen.method)).toEqual(['POST', 'GET']);
      expect(delivered).toEqual(['{"jsonrpc":"2.0","id":1,"result":{}}']);
    }
  });

  test('an event without an id keeps the last one: the stream is opened again with the id of the event before it', async () => {
    const gets: (string | undefined)[] = [];
    const server = await recording((seen, response) => {
      if (seen.method === 'POST') return void json(response, '{"jsonrpc":"2.0","id":1,"result":{}}');
      if (seen.method !== 'GET' || gets.length === 2) return void response.writeHead(405).end();
      gets.push(seen.headers['last-event-id'] as string | undefined);
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.end('retry: 50\nid: e1\ndata: {"jsonrpc":"2.0","method":"notifications/a"}\n\ndata: {"jsonrpc":"2.0","method":"notifications/b"}\n\n');
    });
    const { upstream, send } = upstreamTo(server.url);
    send(INITIALIZE);
    await until(() => gets.length === 2);
    upstream.end();
    await upstream.done;
    await server.close();
    expect(gets).toEqual([undefined, 'e1']);
  });

  test('the id and retry of an event on a POST answer are not the GET stream\'s: it is opened again after the default delay, without Last-Event-ID', async () => {
    let gets = 0;
    const server = await recording((seen, response) => {
      if (seen.method === 'POST') {
        response.writeHead(200, { 'content-type': 'text/event-stream' }).end('retry: 60000\nid: post-1\ndata: {"jsonrpc":"2.0","id":1,"result":{}}\n\n');
      } else if (seen.method === 'GET' && ++gets <= 2) {
        response.writeHead(200, { 'content-type': 'text/event-stream' }).end(': nothing yet\n\n');
      } else {
        response.writeHead(405).end();
      }
    });
    const { upstream, delivered, send } = upstreamTo(server.url);
    send(INITIALIZE);
    await until(() => gets >= 2, 5_000);
    upstream.end();
    await upstream.done;
    await server.close();
    expect(delivered).toEqual(['{"jsonrpc":"2.0","id":1,"result":{}}']);
    const opened = server.requests.filter((seen) => seen.method === 'GET');
    expect(opened.length).toBeGreaterThanOrEqual(2);
    expect(opened.map((seen) => seen.headers['last-event-id'])).toEqual(opened.map(() => undefined));
  });
});

describe('the Streamable HTTP upstream: backpressure', () => {
  test('while the client takes no bytes, an SSE answer is read no further: the server is held back, then all arrives', async () => {
    const event = `data: {"jsonrpc":"2.0","method":"notifications/message","params":{"data":"${'x'.repeat(16_000)}"}}\n\n`;
    const count = 2_000;
    let written = 0;
    let finished = false;
    const http = createServer((request, response) => {
      request.resume();
      if (request.method !== 'POST') {
        response.writeHead(405).end();
        return;
      }
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      let sent = 0;
      const more = (): void => {
        while (sent < count) {
          sent++;
          written += event.length;
          if (!response.write(event)) {
            response.once('drain', more);
            return;
          }
        }
        finished = true;
        response.end();
      };
      more();
    });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    let delivered = 0;
    const side = { session: { fromServer: () => delivered++ } as unknown as ProxySession, reader: undefined as never, client: { pause: () => undefined, resume: () => undefined }, warn: () => undefined };
    const upstream = httpUpstream(new URL(`http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`), {})(side);
    // The client's outlet is blocked: the proxy's source is paused.
    upstream.source.pause();
    upstream.send([Buffer.from('{"jsonrpc":"2.0","id":1,"method":"ping"}\n')]);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(finished).toBe(false);
    expect(written).toBeLessThan((count * event.length) / 2);
    upstream.source.resume();
    for (let waited = 0; (!finished || delivered < count) && waited < 20_000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(delivered).toBe(count);
    upstream.signal('SIGTERM');
    await upstream.done;
    await new Promise((resolve) => http.close(resolve));
  }, 30_000);
});

describe('the Streamable HTTP upstream: the GET stream, resumed', () => {
  test('a GET stream that ends is opened again after the retry delay, with Last-Event-ID', async () => {
    const gets: (string | undefined)[] = [];
    const http = createServer((request, response) => {
      request.resume();
      if (request.method === 'POST') {
        response.writeHead(200, { 'content-type': 'application/json' }).end('{"jsonrpc":"2.0","id":1,"result":{}}');
      } else if (request.method === 'GET' && gets.length < 2) {
        gets.push(request.headers['last-event-id'] as string | undefined);
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        const n = gets.length;
        response.end(`${n === 1 ? 'retry: 50\n' : ''}id: e${n}\ndata: {"jsonrpc":"2.0","method":"notifications/n${n}"}\n\n`);
      } else {
        response.writeHead(405).end();
      }
    });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    const delivered: string[] = [];
    const session = { fromServer: (line: Buffer) => delivered.push(line.toString()) } as unknown as ProxySession;
    const upstream = httpUpstream(new URL(`http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`), {})({ session, reader: undefined as never, client: { pause: () => undefined, resume: () => undefined }, warn: () => undefined });
    upstream.send([Buffer.from('{"jsonrpc":"2.0","id":1,"method":"ping"}\n')]);
    for (let waited = 0; delivered.length < 3 && waited < 10_000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(delivered).toEqual(['{"jsonrpc":"2.0","id":1,"result":{}}', '{"jsonrpc":"2.0","method":"notifications/n1"}', '{"jsonrpc":"2.0","method":"notifications/n2"}']);
    expect(gets).toEqual([undefined, 'e1']);
    upstream.signal('SIGTERM');
    await upstream.done;
    await new Promise((resolve) => http.close(resolve));
  }, 30_000);
});

describe('the Streamable HTTP upstream: what its mutation run of 2026-12-02 left untested', () => {
  test('it takes whole messages only: each POST must be one message, so client bytes are never handed to it unread', () => {
    const { upstream } = upstreamTo(new URL('http://127.0.0.1:9/mcp'));
    expect(upstream.takesStream).toBe(false);
  });

  test('a first message whose POST breaks lets the later ones go: each is posted and answered', async () => {
    const server = await recording((seen, response) => {
      if (seen.method !== 'POST') return void response.writeHead(405).end();
      if (server.requests.length === 1) return void response.socket!.destroy();
      json(response, '{"jsonrpc":"2.0","id":2,"result":{}}');
    });
    const { upstream, delivered, warned, send } = upstreamTo(server.url);
    send(INITIALIZE);
    await until(() => warned.length === 1);
    send(PING);
    await until(() => delivered.length === 2, 3_000);
    upstream.end();
    await upstream.done;
    await server.close();
    expect(JSON.parse(delivered[0]!)).toMatchObject({ id: 1, error: { code: -32000 } });
    expect(delivered[1]).toBe('{"jsonrpc":"2.0","id":2,"result":{}}');
  });

  test('a 304 (no body) is refused with its status; a 204 to a request delivers nothing and is no refusal', async () => {
    const server = await recording((seen, response) => {
      if (seen.method !== 'POST') return void response.writeHead(405).end();
      const { id } = JSON.parse(seen.body) as { id: number };
      if (id === 1) return void json(response, '{"jsonrpc":"2.0","id":1,"result":{}}');
      response.writeHead(id === 2 ? 304 : 204).end();
    });
    const { upstream, delivered, warned, send } = upstreamTo(server.url);
    send(INITIALIZE);
    await until(() => delivered.length === 1);
    send('{"jsonrpc":"2.0","id":3,"method":"ping"}\n');
    await until(() => server.requests.length === 3);
    await sleep(50);
    send(PING);
    await until(() => delivered.length === 2, 3_000);
    upstream.end();
    await upstream.done;
    await server.close();
    const shown = server.url.href;
    expect(delivered.slice(1).map((line) => JSON.parse(line) as unknown)).toEqual([{ jsonrpc: '2.0', id: 2, error: { code: -32000, message: `schema-coerce proxy: ${shown} answered HTTP 304 Not Modified` } }]);
    expect(warned).toEqual([`${shown} answered HTTP 304 Not Modified`]);
  });

  test('the body of a 202 is not read, and not left open: its connection is let go at once', async () => {
    let bodyClosed = false;
    const server = await recording((seen, response) => {
      if (seen.method !== 'POST') return void response.writeHead(405).end();
      if (seen.body.includes('"id"')) return void json(response, '{"jsonrpc":"2.0","id":1,"result":{}}');
      response.on('close', () => (bodyClosed = true));
      // A body begun and never ended.
      response.writeHead(202, { 'content-type': 'application/json' }).write('{"jsonrpc":"2.0"');
    });
    const { upstream, delivered, send } = upstreamTo(server.url);
    send(INITIALIZE);
    await until(() => delivered.length === 1);
    send(INITIALIZED);
    await until(() => bodyClosed, 5_000);
    expect(bodyClosed).toBe(true);
    upstream.end();
    await upstream.done;
    await server.close();
    expect(delivered).toEqual(['{"jsonrpc":"2.0","id":1,"result":{}}']);
  });

  test('a character split across two chunks of an SSE answer arrives whole', async () => {
    const message = '{"jsonrpc":"2.0","id":1,"result":{"text":"é€😀"}}';
    const bytes = Buffer.from(`data: ${message}\n\n`);
    // Inside "€": its first byte in one chunk, the other two in the next.
    const cut = bytes.indexOf(Buffer.from('€')) + 1;
    const server = await recording((seen, response) => {
      if (seen.method !== 'POST') return void response.writeHead(405).end();
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write(bytes.subarray(0, cut));
      setTimeout(() => response.end(bytes.subarray(cut)), 50);
    });
    const { upstream, delivered, send } = upstreamTo(server.url);
    send(INITIALIZE);
    await until(() => delivered.length === 1);
    upstream.end();
    await upstream.done;
    await server.close();
    expect(delivered).toEqual([message]);
  });

  test("the GET stream's retry: is the delay before it is opened again", async () => {
    const opened: number[] = [];
    const server = await recording((seen, response) => {
      if (seen.method === 'POST') return void json(response, '{"jsonrpc":"2.0","id":1,"result":{}}');
      if (seen.method !== 'GET') return void response.writeHead(405).end();
      opened.push(Date.now());
      response.writeHead(200, { 'content-type': 'text/event-stream' }).end('retry: 40\n\n');
    });
    const { upstream, send } = upstreamTo(server.url);
    send(INITIALIZE);
    await until(() => opened.length === 3, 3_000);
    upstream.end();
    await upstream.done;
    await server.close();
    // The default delay is 1 s: three openings within less than two of it are the server's 40 ms (a loaded machine adds time, never takes it).
    expect(opened.length).toBeGreaterThanOrEqual(3);
    expect(opened[2]! - opened[0]!).toBeLessThan(1_900);
  });

  test('a GET stream that breaks mid-event is opened again', async () => {
    let gets = 0;
    const server = await recording((seen, response) => {
      if (seen.method === 'POST') return void json(response, '{"jsonrpc":"2.0","id":1,"result":{}}');
      if (seen.method !== 'GET' || ++gets > 1) return void response.writeHead(405).end();
      response.writeHead(200, { 'content-type': 'text/event-stream' }).write('retry: 40\n\ndata: {"jsonrpc"');
      setTimeout(() => response.socket!.destroy(), 20);
    });
    const { upstream, delivered, send } = upstreamTo(server.url);
    send(INITIALIZE);
    await until(() => gets === 2, 3_000);
    upstream.end();
    await upstream.done;
    await server.close();
    expect(gets).toBe(2);
    expect(delivered).toEqual(['{"jsonrpc":"2.0","id":1,"result":{}}']);
  });

  test('the protocol version is read from the first answer only: not from a later one, nor from the GET stream, nor when it is no string', async () => {
    for (const first of ['{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":20250618}}', '{"jsonrpc":"2.0","id":1,"result":{}}', 'not JSON']) {
      let gets = 0;
      const server = await recording((seen, response) => {
        if (seen.method === 'GET' && ++gets === 1) {
          return void response.writeHead(200, { 'content-type': 'text/event-stream' }).end('data: {"jsonrpc":"2.0","id":7,"result":{"protocolVersion":"from-get"}}\n\n');
        }
        if (seen.method !== 'POST') return void response.writeHead(405).end();
        const { id } = JSON.parse(seen.body) as { id: number };
        json(response, id === 1 ? first : `{"jsonrpc":"2.0","id":${id},"result":{"protocolVersion":"from-later"}}`);
      });
      const { upstream, delivered, send } = upstreamTo(server.url);
      send(INITIALIZE);
      await until(() => delivered.length === 2);
      send(PING);
      await until(() => delivered.length === 3);
      send('{"jsonrpc":"2.0","id":3,"method":"ping"}\n');
      await until(() => delivered.length === 4);
      upstream.end();
      await upstream.done;
      await server.close();
      expect(delivered).toHaveLength(4);
      const posts = server.requests.filter((seen) => seen.method === 'POST');
      expect(posts.map((seen) => seen.headers['mcp-protocol-version'])).toEqual([undefined, undefined, undefined]);
    }
  });

  test('a refused line that is not JSON is said once on stderr, and answered with nothing', async () => {
    const server = await recording((seen, response) => (seen.method === 'POST' ? response.writeHead(500, '').end() : response.writeHead(405).end()));
    const { upstream, delivered, warned, send } = upstreamTo(server.url);
    send('not JSON\n');
    await until(() => warned.length === 1);
    await sleep(50);
    upstream.end();
    await upstream.done;
    await server.close();
    expect(warned).toEqual([`${server.url.href} answered HTTP 500`]);
    expect(delivered).toEqual([]);
  });

  test('closing twice ends the session once: one DELETE, the first status', async () => {
    const server = await recording((seen, response) => {
      if (seen.method === 'POST') return void json(response, '{"jsonrpc":"2.0","id":1,"result":{}}', { 'mcp-session-id': 's' });
      response.writeHead(seen.method === 'DELETE' ? 200 : 405).end();
    });
    const { upstream, delivered, send } = upstreamTo(server.url);
    send(INITIALIZE);
    await until(() => delivered.length === 1 && server.requests.length === 2);
    upstream.end();
    upstream.signal('SIGTERM');
    upstream.end();
    expect(await upstream.done).toBe(0);
    await sleep(100);
    await server.close();
    expect(server.requests.map((seen) => seen.method)).toEqual(['POST', 'GET', 'DELETE']);
  });

  test("the DELETE's answer is not left open: its connection is let go at once, not at the DELETE's 2 s limit", async () => {
    let deleteClosed = false;
    const server = await recording((seen, response) => {
      if (seen.method === 'POST') return void json(response, '{"jsonrpc":"2.0","id":1,"result":{}}', { 'mcp-session-id': 's' });
      if (seen.method !== 'DELETE') return void response.writeHead(405).end();
      response.on('close', () => (deleteClosed = true));
      response.writeHead(200, { 'content-type': 'text/plain' }).write('ended');
    });
    const { upstream, delivered, send } = upstreamTo(server.url);
    send(INITIALIZE);
    await until(() => delivered.length === 1 && server.requests.length === 2);
    upstream.end();
    await upstream.done;
    await until(() => deleteClosed, 1_500);
    expect(deleteClosed).toBe(true);
    await server.close();
  });
});
