/**
 * The repair report's HTML page (`schema-coerce report --html`) in headless Chromium: it loads
 * nothing but itself, runs no script, shows every value a hostile log holds as text (never as
 * markup), and draws each chart to its numbers. In `npm run test:runtimes` (which `.ci/run` runs
 * once Chromium is installed); alone: `npx vitest run --project runtimes test/runtimes/report-html.test.ts`.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { BIN } from '../_helpers/run.js';
import { makeTempDir, removeTempDirs } from '../_helpers/temp.js';
import { launchChromium } from './browser.js';

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  removeTempDirs();
});

/** Values a client controls, each trying to become markup, a script or a request. */
const HOSTILE = {
  tool: '</title><script>window.__pwned = "tool"</script><img src="https://example.invalid/t.png">',
  path: "/x' onmouseover='window.__pwned=1",
  example: '"><svg onload="window.__pwned=2"></svg><iframe src="https://example.invalid/"></iframe>',
  rule: '<style>body{display:none}</style>',
  outcome: '" fill="url(https://example.invalid/f)',
};

/** What the test reads of the page. */
interface Seen {
  pwned: unknown;
  title: string;
  scripts: number;
  handlers: string[];
  elements: string[];
  text: string;
  headlines: string[];
  bars: { name: string; values: number[]; outcomes: { width: number; fill: string }[] }[];
  hidden: string;
}

const call = (tool: string, outcome: string, changes: object[] = [], refusals: object[] = []): string => JSON.stringify({ time: '2026-12-03T22:00:00.000Z', client: { address: '127.0.0.1' }, tool, outcome, changes, refusals, gatewayMs: 0.2, bytes: 90 });

test('the page loads nothing, runs nothing, shows hostile values as text, and draws its charts to the numbers', async () => {
  const folder = makeTempDir('report-html-');
  const lines = [
    // search: 5 calls; `limit` a string in 2 of them (40%), one refused `unconvertible`.
    call('search', 'repaired', [{ path: '/limit', rule: 'string-to-integer' }]),
    call('search', 'repaired', [{ path: '/limit', rule: 'string-to-integer' }]),
    call('search', 'forwarded', [], [{ path: '/limit', reason: 'unconvertible' }]),
    call('search', 'forwarded'),
    call('search', 'refused'),
    call(HOSTILE.tool, HOSTILE.outcome, [{ path: HOSTILE.path, rule: HOSTILE.rule, from: HOSTILE.example, to: '1' }]),
    JSON.stringify({ kind: 'rejection', tool: HOSTILE.tool, message: HOSTILE.example }),
  ];
  writeFileSync(join(folder, 'audit.jsonl'), lines.join('\n') + '\n');
  const run = spawnSync(process.execPath, [BIN, 'report', 'audit.jsonl', '--html', 'report.html'], { cwd: folder, encoding: 'utf8' });
  expect(run.status).toBe(0);
  const html = readFileSync(join(folder, 'report.html'), 'utf8');
  expect(html).not.toMatch(/<script|<img|<iframe|<style>body{display/i);

  const page = await browser.newPage();
  const requests: string[] = [];
  const problems: string[] = [];
  page.on('request', (request) => requests.push(request.url()));
  page.on('console', (message) => problems.push(message.text()));
  page.on('pageerror', (error) => problems.push(String(error)));
  const url = pathToFileURL(join(folder, 'report.html')).href;
  await page.goto(url);
  await page.waitForLoadState('load');
  expect(requests).toEqual([url]);
  expect(problems).toEqual([]);
  // A string, run in the page (this file is typed without the DOM).
  const seen = (await page.evaluate(`({
    pwned: globalThis.__pwned,
    title: document.title,
    scripts: document.scripts.length,
    handlers: [...document.querySelectorAll('*')].flatMap((element) => [...element.attributes].map((attribute) => attribute.name)).filter((name) => name.startsWith('on')),
    elements: [...new Set([...document.querySelectorAll('body *')].map((element) => element.localName))].sort(),
    text: document.body.innerText,
    headlines: [...document.querySelectorAll('ul.headlines li')].map((item) => item.innerText),
    bars: [...document.querySelectorAll('section.tool')].map((section) => ({
      name: section.querySelector('h2').textContent,
      values: [...section.querySelectorAll('svg.bar rect.value')].map((rect) => Number(rect.getAttribute('width'))),
      outcomes: [...section.querySelectorAll('svg.outcomes rect')].map((rect) => ({ width: Number(rect.getAttribute('width')), fill: rect.getAttribute('fill') })),
    })),
    hidden: getComputedStyle(document.body).display,
  })`)) as Seen;
  expect(seen.pwned).toBeUndefined();
  expect(seen.title).toBe('schema-coerce repair report');
  expect(seen.scripts).toBe(0);
  expect(seen.handlers).toEqual([]);
  // Only the elements the page writes itself.
  expect(seen.elements).toEqual(['code', 'h1', 'h2', 'li', 'p', 'rect', 'section', 'span', 'svg', 'table', 'tbody', 'td', 'th', 'thead', 'title', 'tr', 'ul']);
  expect(seen.hidden).toBe('block');
  for (const value of [HOSTILE.tool, HOSTILE.path.slice(1), HOSTILE.example]) expect(seen.text).toContain(value);
  expect(seen.headlines).toContain('limit comes as a string for an integer in 40% of calls (search)');
  const search = seen.bars.find((bar) => bar.name === 'search')!;
  // Bars are 160 wide at 100%: 40% and 20% of the calls.
  expect(search.values).toEqual([64, 32]);
  // 5 calls, 480 wide: repaired 2, forwarded 2, refused 1.
  expect(search.outcomes.map((rect) => rect.width)).toEqual([192, 192, 96]);
  const hostile = seen.bars.find((bar) => bar.name === HOSTILE.tool)!;
  expect(hostile.outcomes).toEqual([{ width: 480, fill: '#999999' }]);
  await page.close();
});
