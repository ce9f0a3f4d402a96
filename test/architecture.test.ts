import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { expect, test } from 'vitest';

// docs/ARCHITECTURE.md draws the layers by hand; this holds the drawing to the real imports.
const ROOT = join(import.meta.dirname, '..');
const SRC = join(ROOT, 'src');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : name.endsWith('.ts') ? [path] : [];
  });
}

/** The layer of a file under src/: its folder, or `entries` for the public entry files. */
function layerOf(path: string): string {
  const parts = relative(SRC, path).split(/[\\/]/);
  return parts.length === 1 ? 'entries' : parts[0]!;
}

function realEdges(): string[] {
  const edges = new Set<string>();
  for (const file of sources(SRC)) {
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*)'(\.{1,2}\/[^']+)'/g)) {
      const target = join(file, '..', match[1]!);
      const from = layerOf(file);
      const to = layerOf(target);
      if (from !== to) edges.add(`${from} --> ${to}`);
    }
  }
  return [...edges].sort();
}

function drawnEdges(): string[] {
  const doc = readFileSync(join(ROOT, 'docs', 'ARCHITECTURE.md'), 'utf8');
  const chart = /```mermaid\n([\s\S]*?)```/.exec(doc)?.[1] ?? '';
  return [...chart.matchAll(/^\s*(\w+)\s*-->\s*(\w+)\s*$/gm)].map((m) => `${m[1]} --> ${m[2]}`).sort();
}

test('the Mermaid chart in docs/ARCHITECTURE.md draws exactly the layer imports of src/', () => {
  expect(drawnEdges().length).toBeGreaterThan(0);
  expect(drawnEdges()).toEqual(realEdges());
});

test('no lower layer imports a higher one', () => {
  const order = ['json', 'schema', 'coerce', 'report', 'adapters'];
  const upward = realEdges().filter((edge) => {
    const [from, to] = edge.split(' --> ') as [string, string];
    return from !== 'entries' && to !== 'entries' && order.indexOf(to) > order.indexOf(from);
  });
  expect(upward).toEqual([]);
});

const MAX_LINES = 350;

/** Lines as `wc -l` would count them, plus a last line without a newline. */
function lineCount(text: string): number {
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

test(`every module under src/ is at most ${MAX_LINES} lines`, () => {
  const over = sources(SRC)
    .map((file) => ({ name: relative(SRC, file).split(/[\\/]/).join('/'), count: lineCount(readFileSync(file, 'utf8')) }))
    .filter(({ count }) => count > MAX_LINES);
  expect(over).toEqual([]);
});
