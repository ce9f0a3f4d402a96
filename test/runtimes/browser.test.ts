/**
 * The root, `render` and `validate` entries loaded as ES modules in headless Chromium, straight
 * from `dist/` (no bundler: an import map names `lossless-json`, and Ajv, which ships CommonJS
 * only, as the ES module a bundler would make of it), run every fixture table; each row's
 * outcome equals Node's. `npm run test:browser`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { build } from 'vite';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { launchChromium, serveStatic } from './browser.js';
import { loadTables, nodeOutcomes, ROOT, type RowOutcome } from './tables.js';

const require = createRequire(import.meta.url);
const work = mkdtempSync(join(tmpdir(), 'schema-coerce-browser-'));
let browser: Browser;
let server: Server;
let origin: string;

/** Ajv's two entries as ES modules, as a bundler would hand them to a page. */
async function bundleAjv(): Promise<void> {
  await build({
    configFile: false,
    logLevel: 'silent',
    build: {
      outDir: join(work, 'ajv'),
      minify: false,
      lib: { entry: { ajv: require.resolve('ajv'), 'ajv-2020': require.resolve('ajv/dist/2020.js') }, formats: ['es'] },
    },
  });
}

const PAGE = `<!doctype html><meta charset="utf-8"><title>schema-coerce in a browser</title><link rel="icon" href="data:,">
<script type="importmap">${JSON.stringify({
  imports: {
    'lossless-json': '/node_modules/lossless-json/lib/esm/index.js',
    ajv: '/ajv/ajv.js',
    'ajv/dist/2020.js': '/ajv/ajv-2020.js',
  },
})}</script>
<script type="module">
  import * as index from '/dist/index.js';
  import * as render from '/dist/render.js';
  import * as validate from '/dist/validate.js';
  import { runFixtureTables } from '/runner/fixture-rows.mjs';
  globalThis.runTables = (text) => JSON.stringify({ agent: navigator.userAgent, rows: runFixtureTables({ index, render, validate }, JSON.parse(text)) });
</script>`;

beforeAll(async () => {
  await bundleAjv();
  ({ server, origin } = await serveStatic(
    { '/dist/': join(ROOT, 'dist'), '/node_modules/lossless-json/': join(ROOT, 'node_modules', 'lossless-json'), '/ajv/': join(work, 'ajv'), '/runner/': import.meta.dirname },
    { '/': PAGE },
  ));
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  server?.close();
  rmSync(work, { recursive: true, force: true });
});

test('every fixture row has the same outcome in Chromium as in Node', async () => {
  const tables = loadTables();
  const page = await browser.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(String(error)));
  page.on('console', (message) => { if (message.type() === 'error') errors.push(message.text()); });
  page.on('requestfailed', (request) => errors.push(`${request.url()}: ${request.failure()?.errorText}`));
  page.on('response', (response) => { if (response.status() >= 400) errors.push(`${response.url()}: ${response.status()}`); });
  await page.goto(`${origin}/`);
  await page.waitForFunction('typeof globalThis.runTables === "function"', undefined, { timeout: 20_000 }).catch((error: unknown) => {
    throw new Error(`the page's modules did not load: ${errors.join('; ') || String(error)}`);
  });
  // As JSON text both ways: the structured copy of an evaluate argument drops a key named __proto__.
  const answer = await page.evaluate((text) => (globalThis as unknown as { runTables: (t: string) => string }).runTables(text), JSON.stringify(tables));
  const inBrowser = JSON.parse(answer) as { agent: string; rows: RowOutcome[] };
  expect(inBrowser.agent).toContain('HeadlessChrome');
  expect(errors).toEqual([]);
  const inNode = await nodeOutcomes(tables);
  expect(inBrowser.rows.length).toBe(inNode.length);
  expect(inNode.length).toBeGreaterThan(400);
  inNode.forEach((row, i) => expect(inBrowser.rows[i], `${row.file}: ${row.name}`).toStrictEqual(row));
});
