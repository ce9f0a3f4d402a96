/**
 * Headless Chromium (Debian's `chromium`, driven by playwright-core: nothing downloads a browser)
 * and a loopback static server for the pages it loads.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, sep } from 'node:path';
import { chromium, type Browser } from 'playwright-core';

/** Where Debian installs Chromium; `CHROMIUM` overrides it. */
export const CHROMIUM: string = process.env['CHROMIUM'] ?? '/usr/bin/chromium';

/** Chromium, headless, or a clear failure naming how to install it (a check that cannot run fails). */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`no Chromium at ${CHROMIUM}: apt-get install -y chromium (or set CHROMIUM)`);
  // --no-sandbox: CI runs as root, where Chromium's sandbox refuses to start.
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] });
}

const TYPES: Record<string, string> = { '.js': 'text/javascript', '.mjs': 'text/javascript', '.html': 'text/html', '.json': 'application/json', '.css': 'text/css' };

/** A static server on 127.0.0.1 (port chosen by the OS) for the files under `roots` (URL prefix → folder). */
export async function serveStatic(roots: Record<string, string>, pages: Record<string, string> = {}): Promise<{ server: Server; origin: string }> {
  const server = createServer((request, response) => {
    const path = decodeURIComponent(new URL(request.url ?? '/', 'http://localhost').pathname);
    const send = (status: number, body: string | Buffer, type = 'text/plain') => {
      response.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
      response.end(body);
    };
    if (pages[path] !== undefined) return send(200, pages[path], 'text/html');
    for (const [prefix, folder] of Object.entries(roots)) {
      if (!path.startsWith(prefix)) continue;
      const file = normalize(join(folder, path.slice(prefix.length)));
      if (!file.startsWith(normalize(folder) + sep) || !existsSync(file)) break;
      return send(200, readFileSync(file), TYPES[extname(file)] ?? 'application/octet-stream');
    }
    send(404, 'not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}
