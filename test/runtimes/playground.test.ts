/**
 * The playground (`npm run playground:build`), opened from the file system in headless Chromium:
 * each preset's output is what `prepareToolCall` and `formatToolCall` give in Node for the same
 * input; typing into the fields updates it; the state survives a reload from the URL alone; and
 * screenshots at desktop and phone width go to `playground/dist/screenshots/` (test artefacts).
 * `npm run test:playground`.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { PRESETS } from '../../playground/src/presets.js';
import { coerceOptions, decodeState, DEFAULT_STATE, encodeState, type State } from '../../playground/src/state.js';
import { formatToolCall, parseArgs, prepareToolCall } from '../../src/index.js';
import { validateArgs } from '../../src/validate.js';
import { launchChromium } from './browser.js';
import { ROOT } from './tables.js';

const DIST = join(ROOT, 'playground', 'dist');
const SHOTS = join(DIST, 'screenshots');
const PAGE = pathToFileURL(join(DIST, 'index.html')).href;
let browser: Browser;

beforeAll(async () => {
  execFileSync('npm', ['run', '--silent', 'playground:build'], { cwd: ROOT, stdio: 'inherit' });
  mkdirSync(SHOTS, { recursive: true });
  browser = await launchChromium();
});
afterAll(() => browser?.close());

/** A fresh page at `width`, failing on any error it logs or throws. */
async function open(width: number, url = PAGE): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.newPage({ viewport: { width, height: 900 } });
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(String(error)));
  page.on('console', (message) => void (message.type() === 'error' && errors.push(message.text())));
  await page.goto(url);
  await page.waitForSelector('body[data-ready="true"]');
  return { page, errors };
}

/** The little of the DOM the page's checks read (the project's types have no DOM library). */
interface Node {
  readonly textContent: string | null;
  querySelectorAll(selector: string): Iterable<Node>;
}
interface Dom {
  readonly document: Node & { getElementById(id: string): Node | null; readonly documentElement: { readonly scrollWidth: number } };
}

/** What the page shows, read from its DOM. */
async function shown(page: Page) {
  return page.evaluate(() => {
    const { document } = globalThis as unknown as Dom;
    const text = (id: string) => document.getElementById(id)!.textContent ?? '';
    const rows = (id: string) => [...document.querySelectorAll(`#${id} tbody tr`)].map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent ?? ''));
    return {
      verdict: text('verdict'),
      dispatched: text('dispatched'),
      marked: [...document.querySelectorAll('#dispatched mark')].map((mark) => mark.textContent ?? ''),
      changes: rows('changes'),
      refusals: rows('refusals'),
      message: text('message'),
      render: text('render'),
    };
  });
}

/** What the page must show for `state`, from the library in Node. */
function expected(state: State) {
  const schema = JSON.parse(state.schema) as unknown;
  const options = coerceOptions(state);
  const call = prepareToolCall(state.args, schema, { ...options, validate: state.validate ? validateArgs : false });
  let render: string;
  try {
    render = formatToolCall(state.tool, parseArgs(state.args, { repair: options.lenient !== false }), schema, options);
  } catch (error) {
    render = `(not shown: ${(error as Error).message})`;
  }
  return {
    call,
    dispatched: call.parseError === undefined ? call.json : call.parseError.message,
    changes: call.changes.map((c) => [c.path || '(root)', c.from, c.to, c.rule]),
    refusals: [
      ...call.refusals.map((r) => [r.path || '(root)', r.reason, r.message]),
      ...call.undeclared.map((u) => [u.path, 'undeclared', `${u.key} is not declared${u.suggestion === undefined ? '' : ` (did you mean ${u.suggestion}?)`}`]),
      ...call.errors.map((e) => [e.path || '(root)', e.keyword, e.message]),
    ],
    message: call.message ?? 'None: the call goes through.',
    render,
  };
}

describe('presets', () => {
  test('there is one for each case the issue names', () => {
    expect(PRESETS.map((preset) => preset.id)).toEqual(['python-repr', 'truncation', 'nested-tuple', 'undeclared-key']);
  });

  test.each(PRESETS.map((preset) => [preset.label, preset] as const))('%s: the page shows what the library gives in Node', async (_label, preset) => {
    const { page, errors } = await open(1280);
    await page.selectOption('#preset', preset.id);
    const want = expected(preset.state);
    const got = await shown(page);
    expect(got.dispatched).toBe(want.dispatched);
    expect(got.changes).toEqual(want.changes);
    expect(got.refusals).toEqual(want.refusals);
    expect(got.message).toBe(want.message);
    expect(got.render).toBe(want.render);
    expect(got.verdict).toMatch(want.call.ok ? /^Dispatched/ : /^Refused/);
    // Every change's new text is highlighted, and nothing is when nothing changed.
    if (want.call.parseError === undefined) expect(got.marked.length > 0).toBe(want.call.json !== preset.state.args);
    expect(await page.textContent('#source')).toContain('fixtures/');
    await page.screenshot({ path: join(SHOTS, `${preset.id}-desktop.png`), fullPage: true });
    expect(errors).toEqual([]);
    await page.close();
  });

  test('each preset is as its fixture row says: the repr repaired, the truncation refused, the integer positions of the tuple restored, the key rejected', () => {
    const [repr, cut, tuple, undeclared] = PRESETS.map((preset) => expected(preset.state).call);
    expect(repr!.changes.map((c) => c.rule)).toContain('python-literal');
    expect(repr!.ok).toBe(true);
    expect(cut!.parseError?.truncated).toBe(true);
    expect(tuple!.json).toBe('{"t":[1,2.0,3]}'); // index 1 is a number position: its 2.0 stays
    expect(undeclared!.ok).toBe(false);
    expect(undeclared!.undeclared.map((u) => u.key)).toEqual(['query']);
  });
});

test('typing into the fields and switching options updates the output, and the URL carries the state', async () => {
  const { page, errors } = await open(1280);
  await page.fill('#schema', '{"type":"object","properties":{"n":{"type":"integer"},"ok":{"type":"boolean"}}}');
  await page.fill('#args', '{"n":5.0,"ok":"true"}');
  expect((await shown(page)).dispatched).toBe('{"n":5,"ok":"true"}');
  expect((await shown(page)).refusals).toEqual([]);
  await page.check('#lenient');
  expect((await shown(page)).dispatched).toBe('{"n":5,"ok":true}');
  expect((await shown(page)).marked).toEqual(['5', 'true']);
  // One lenient rule off: the boolean is refused again.
  await page.uncheck('#rules input[data-rule="booleans"]');
  expect((await shown(page)).dispatched).toBe('{"n":5,"ok":"true"}');
  expect((await shown(page)).refusals.map((row) => row.slice(0, 2))).toEqual([['/ok', 'unconvertible']]);
  // The keyboard alone: Tab to the tool name, type, and the render path shows it.
  await page.focus('#tool');
  await page.keyboard.press('Control+A');
  await page.keyboard.type('set_flag');
  expect((await shown(page)).render).toBe('set_flag({"n":5,"ok":"true"})');
  const url = page.url();
  expect(url).toContain('#');
  // The link alone gives the same page.
  const again = await open(1280, url);
  expect(await shown(again.page)).toEqual(await shown(page));
  expect(await again.page.isChecked('#lenient')).toBe(true);
  expect(await again.page.isChecked('#rules input[data-rule="booleans"]')).toBe(false);
  // A schema that is not JSON is said so, not thrown.
  await page.fill('#schema', '{"type":');
  expect((await shown(page)).verdict).toContain('The schema is not JSON');
  expect([...errors, ...again.errors]).toEqual([]);
  await page.close();
  await again.page.close();
});

test('the URL carries any state: non-ASCII text and a 300 KB schema round-trip; a foreign fragment gives the defaults', () => {
  const state: State = { ...DEFAULT_STATE, args: '{"页码":"1","emoji":"😀"}', schema: JSON.stringify({ enum: Array.from({ length: 40_000 }, (_, i) => `v${i}`) }), off: ['syntax'] };
  expect(state.schema.length).toBeGreaterThan(300_000);
  expect(decodeState(encodeState(state))).toEqual(state);
  expect(decodeState('#not-ours')).toEqual(DEFAULT_STATE);
  expect(decodeState('')).toEqual(DEFAULT_STATE);
});

test('a shared link cannot inject HTML: every value is shown as text', async () => {
  const state = { ...PRESETS[0]!.state, tool: '<img src=x onerror="document.title=1">', args: '{"path":"<b>x</b>"}' };
  const hash = `#${Buffer.from(JSON.stringify(state)).toString('base64url')}`;
  const { page } = await open(1280, PAGE + hash);
  expect(await page.$$('#outputs img, #outputs b')).toEqual([]);
  expect(await page.textContent('#render')).toContain('<img src=x');
  await page.close();
});

test('screenshots at desktop and phone width, with no horizontal scroll at phone width', async () => {
  for (const [name, width] of [['desktop', 1280], ['phone', 390]] as const) {
    const { page } = await open(width);
    await page.selectOption('#preset', 'python-repr');
    await page.screenshot({ path: join(SHOTS, `playground-${name}.png`), fullPage: true });
    expect(await page.evaluate(() => (globalThis as unknown as Dom).document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    await page.close();
  }
});
