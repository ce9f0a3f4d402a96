/**
 * The links of README.md and docs/*.md lead somewhere. The README is also the package's page on
 * npm, where a path relative to the repository leads nowhere: each of its links is an anchor of
 * the README itself, a file the package ships, or an absolute link into the repository (whose
 * file, and anchor, must exist here); its contents list names every section, in order.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { ROOT } from './_helpers/run.js';
import { documents } from './_helpers/snippets.js';

const { repository } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { repository: { url: string } };
/** `https://github.com/<owner>/<name>`, from package.json's `repository`. */
const REPO = repository.url.replace(/^git\+/, '').replace(/\.git$/, '');
const RAW = REPO.replace('https://github.com/', 'https://raw.githubusercontent.com/');

/** A Markdown file's text without its fenced blocks (a link inside one is code, not a link). */
const prose = (file: string): string => readFileSync(join(ROOT, file), 'utf8').replace(/^(```|~~~)[^]*?^\1/gm, '');

/** The anchors a Markdown file offers: its headings, as GitHub spells them, and explicit ids. */
function anchors(file: string): Set<string> {
  const found = new Set<string>();
  for (const [, heading] of prose(file).matchAll(/^#{1,6} (.+)$/gm)) {
    const slug = heading!.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
    let unique = slug;
    for (let n = 1; found.has(unique); n++) unique = `${slug}-${n}`;
    found.add(unique);
  }
  for (const [, id] of prose(file).matchAll(/<a id="([^"]+)"/g)) found.add(id!);
  return found;
}

/** Every link target of a Markdown file, images included. */
const links = (file: string): string[] => [...prose(file).matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1]!);

/** Why `path#anchor` (relative to the repository root) leads nowhere, or undefined when it leads somewhere. */
function missing(path: string, anchor: string | undefined): string | undefined {
  if (!existsSync(join(ROOT, path))) return `${path} does not exist`;
  if (anchor !== undefined && !anchors(path).has(anchor)) return `${path} has no anchor #${anchor}`;
  return undefined;
}

describe('README.md, the package page on npm', () => {
  const shipped = new Set((JSON.parse(execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT, encoding: 'utf8' })) as { files: { path: string }[] }[])[0]!.files.map((file) => file.path));

  test.each(links('README.md'))('%s leads somewhere from the package page', (target) => {
    const [path, anchor] = target.split('#') as [string, string | undefined];
    if (path === '') {
      expect(anchors('README.md').has(anchor!), `README.md has no anchor #${anchor}`).toBe(true);
    } else if (target.startsWith(`${REPO}/blob/main/`) || target.startsWith(`${REPO}/tree/main/`)) {
      expect(missing(path.slice(`${REPO}/blob/main/`.length), anchor)).toBeUndefined();
    } else if (target.startsWith(`${RAW}/main/`)) {
      expect(missing(path.slice(`${RAW}/main/`.length), anchor)).toBeUndefined();
    } else if (/^[a-z]+:/.test(target)) {
      // Another site: not this package's to resolve.
      expect(target).toMatch(/^https:\/\//);
    } else {
      expect(shipped.has(path), `${target} is relative, and the package does not ship ${path}: link into ${REPO} instead`).toBe(true);
      expect(missing(path, anchor)).toBeUndefined();
    }
  });

  test('the contents list names every section, in order', () => {
    const text = prose('README.md');
    const sections = [...text.matchAll(/^## (.+)$/gm)].map((match) => match[1]!);
    const listed = [...text.slice(0, text.indexOf('\n## ')).matchAll(/^- \[([^\]]+)\]\(#([^)]+)\)$/gm)].map((match) => match[1]!);
    expect(listed).toEqual(sections);
  });
});

test.each(documents(ROOT).filter((file) => file !== 'README.md'))('every relative link of %s resolves, its anchor included', (file) => {
  for (const target of links(file)) {
    if (/^[a-z]+:/.test(target)) continue;
    const [path, anchor] = target.split('#') as [string, string | undefined];
    expect(missing(path === '' ? file : join(file, '..', path), anchor), `${file}: the link ${target} leads nowhere`).toBeUndefined();
  }
});
