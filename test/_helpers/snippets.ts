/**
 * The documentation's code snippets, taken from the Markdown itself so a snippet and what it
 * promises cannot drift apart. Every fenced block of README.md and docs/*.md names its language:
 * `ts`/`typescript`/`js`/`javascript` blocks run as ES modules against the built package,
 * `sh`/`bash`/`shell` blocks run in bash, `json` blocks must parse, and any other language
 * (`jsonc`, `text`, `mermaid`...) marks a block that is deliberately not run.
 *
 * A ts/js snippet states results in comments: `expr; // → value` (or `expr; // 'value'`, or a bare
 * `name;` with `// value`), or `expr;` followed by lines of `//` text. A value that reads as a
 * JavaScript literal is compared deeply, anything else as text; `…` in a stated text stands for
 * any run of characters. An sh snippet states output as `$ command` followed by the output lines,
 * or as a command followed by `# output` lines.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/** A fenced block of a Markdown file. */
export interface Fence {
  /** The file, relative to the repository root. */
  readonly file: string;
  /** 1-based line of the opening fence. */
  readonly line: number;
  /** The fence's language, lower case ('' when it names none). */
  readonly lang: string;
  /** The block's lines, its indentation removed. */
  readonly lines: readonly string[];
}

/** One stated result of a snippet. */
export interface Claim {
  /** 1-based line in the Markdown file of the statement (of the command, for sh). */
  readonly line: number;
  /** The statement's expression, or the sh command. */
  readonly expression: string;
  /** The stated value or output, `→ ` and trailing prose (after three spaces) removed. */
  readonly expected: string;
}

/** The kinds of block, by fence language. */
export type Kind = 'module' | 'shell' | 'json' | 'inert' | 'unnamed';

const KINDS: Record<string, Kind> = { ts: 'module', typescript: 'module', js: 'module', javascript: 'module', sh: 'shell', bash: 'shell', shell: 'shell', json: 'json' };

/** What a fence language asks the suite to do with its block. */
export function kindOf(lang: string): Kind {
  return lang === '' ? 'unnamed' : (KINDS[lang] ?? 'inert');
}

/** README.md and every Markdown file of docs/, relative to `root`. */
export function documents(root: string): string[] {
  const docs = readdirSync(join(root, 'docs')).filter((name) => name.endsWith('.md')).sort();
  return ['README.md', ...docs.map((name) => join('docs', name))];
}

const OPEN = /^( {0,3})(`{3,}|~{3,})\s*([^\s`]*)/;

/** Every fenced block of the Markdown file `file` (relative to `root`). */
export function fences(root: string, file: string): Fence[] {
  const text = readFileSync(join(root, file), 'utf8').split('\n');
  const found: Fence[] = [];
  for (let i = 0; i < text.length; i++) {
    const open = OPEN.exec(text[i]!);
    if (open === null) continue;
    const [, indent, marker] = open as unknown as [string, string, string];
    const close = new RegExp(`^ {0,3}${marker[0] === '`' ? '`' : '~'}{${marker.length},}\\s*$`);
    let end = i + 1;
    while (end < text.length && !close.test(text[end]!)) end++;
    const lines = text.slice(i + 1, end).map((line) => (line.startsWith(indent) ? line.slice(indent.length) : line.trimStart()));
    found.push({ file: relative(root, join(root, file)), line: i + 1, lang: open[3]!.toLowerCase(), lines });
    i = end;
  }
  return found;
}

const DECLARATION = /^(?:if|else|for|while|do|switch|return|const|let|var|import|export|function|class|type|interface|throw|try|catch|finally)\b|^[}\])]/;
const STATEMENT = /^(\S.*?);\s*(?:\/\/ ?(.*))?$/;
const BARE_READ = /^[\w$]+(?:\??\.[\w$]+|\[[^\]]+\])*$/;
const VALUE_LIKE = /^(?:→|['"`[{\d-]|(?:true|false|null|undefined)\b)/;

/** The results a ts/js block states, each at its line of `fence.file`. */
export function moduleClaims(fence: Fence): Claim[] {
  const claims: Claim[] = [];
  fence.lines.forEach((line, i) => {
    // A claim may sit inside a block (`if (!result.ok) {`), indented.
    const text = line.trim();
    if (DECLARATION.test(text)) return;
    const statement = STATEMENT.exec(text);
    if (statement === null) return;
    const expression = statement[1]!;
    const comments: string[] = [];
    if (statement[2] !== undefined) {
      if (VALUE_LIKE.test(statement[2]) || BARE_READ.test(expression)) comments.push(statement[2]);
    } else {
      for (let j = i + 1; j < fence.lines.length && fence.lines[j]!.trim().startsWith('//'); j++) comments.push(fence.lines[j]!.trim().replace(/^\/\/ ?/, ''));
      if (comments.length > 0 && !comments[0]!.startsWith('→') && !BARE_READ.test(expression)) comments.length = 0;
    }
    if (comments.length === 0) return;
    const first = comments[0]!.replace(/^→ ?/, '').split(/\s{3,}/)[0]!;
    claims.push({ line: fence.line + 1 + i, expression, expected: [first, ...comments.slice(1)].join('\n') });
  });
  return claims;
}

/**
 * The module a ts/js block runs as: each claimed statement hands its value to
 * `globalThis.__snippetClaim(line, value)`; every other line is as written, so line numbers in
 * a stack trace are the block's.
 */
export function moduleSource(fence: Fence, claims: readonly Claim[]): string {
  const byLine = new Map(claims.map((claim) => [claim.line, claim]));
  return fence.lines
    .map((text, i) => {
      const claim = byLine.get(fence.line + 1 + i);
      return claim === undefined ? text : `${/^\s*/.exec(text)![0]}globalThis.__snippetClaim(${claim.line}, (${claim.expression}));`;
    })
    .join('\n');
}

/** The commands of an sh block with the output each states (`$ cmd` + output, or cmd + `# output`). */
export function shellClaims(fence: Fence): Claim[] {
  const prompted = fence.lines.some((line) => line.startsWith('$ '));
  const claims: Claim[] = [];
  for (let i = 0; i < fence.lines.length; i++) {
    const text = fence.lines[i]!;
    if (text.trim() === '' || (!prompted && text.startsWith('#'))) continue;
    if (prompted && !text.startsWith('$ ')) continue;
    const output: string[] = [];
    let j = i + 1;
    for (; j < fence.lines.length; j++) {
      const next = fence.lines[j]!;
      if (prompted ? next.startsWith('$ ') : !next.startsWith('#')) break;
      output.push(prompted ? next : next.replace(/^# ?/, ''));
    }
    claims.push({ line: fence.line + 1 + i, expression: prompted ? text.slice(2) : text, expected: output.join('\n').trimEnd() });
    if (prompted || output.length > 0) i = j - 1;
  }
  return claims;
}

/** A stated result read as a JavaScript value when it is one (`'…'`, `[…]`, `false`), else as text. */
export function readExpected(expected: string): { value: unknown } | { text: string } {
  if (expected.includes('\n')) return { text: expected };
  try {
    return { value: new Function(`return (${expected});`)() as unknown };
  } catch {
    return { text: expected };
  }
}

/** Whether `actual` is the stated `text`, where `…` in it stands for any run of characters. */
export function matchesText(actual: string, text: string): boolean {
  if (!text.includes('…')) return actual === text;
  const pattern = text.split('…').map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('[\\s\\S]*');
  return new RegExp(`^${pattern}$`).test(actual);
}

/**
 * What each subpath needs installed besides this package (the README's install table): a
 * snippet that imports the subpath needs the package installed, named or not in its imports.
 */
const SUBPATH_PEERS: Record<string, readonly string[]> = {
  'schema-coerce/validate': ['ajv'],
  'schema-coerce/mcp': ['@modelcontextprotocol/sdk'],
  'schema-coerce/ai': ['ai'],
  'schema-coerce/openai-agents': ['@openai/agents-core'],
  'schema-coerce/langchain': ['@langchain/core'],
  'schema-coerce/mastra': ['@mastra/core'],
};

/** The package a bare import specifier names: `@scope/name` or `name`, without its subpath. */
const packageOf = (specifier: string): string => specifier.split('/').slice(0, specifier.startsWith('@') ? 2 : 1).join('/');

/**
 * The packages other than this one that a ts/js block needs installed to run: those it imports,
 * the peers of the subpaths it imports, and Ajv where it switches validation on (`validateArgs`,
 * `validate: true`) or loads MCP tools into LangChain (`@langchain/mcp-adapters`).
 */
export function neededPackages(fence: Fence): string[] {
  const text = fence.lines.join('\n');
  const specifiers = [...text.matchAll(/\bfrom\s+'([^'.][^']*)'|\bimport\(\s*'([^'.][^']*)'\s*\)/g)].map((match) => (match[1] ?? match[2])!);
  const needed = new Set<string>();
  for (const specifier of specifiers) {
    if (specifier.startsWith('node:')) continue;
    needed.add(packageOf(specifier));
    for (const peer of SUBPATH_PEERS[specifier] ?? []) needed.add(peer);
  }
  if (/\bvalidate: true\b|\bvalidateArgs\b/.test(text)) needed.add('ajv');
  if (/\bloadCoercedMcpTools\(/.test(text)) needed.add('@langchain/mcp-adapters');
  needed.delete('schema-coerce');
  return [...needed].sort();
}

/**
 * The packages the text before a block names, from the heading of its section down to it: each
 * package in backticks (`` `zod` ``), or on an `npm install` line. Other blocks' code is not
 * text: a package another snippet imports is not thereby named for this one.
 */
export function namedPackages(root: string, fence: Fence): Set<string> {
  const lines = readFileSync(join(root, fence.file), 'utf8').split('\n').slice(0, fence.line - 1);
  let start = lines.length;
  while (start > 0 && !/^#{1,6} /.test(lines[start - 1]!)) start--;
  const named = new Set<string>();
  let inFence = false;
  for (const line of lines.slice(start)) {
    if (OPEN.test(line)) inFence = !inFence;
    // `npm install a b@1.2.3` in the text, or on a line of an sh block.
    const install = /\bnpm (?:install|i) ([^`]+)/.exec(line);
    for (const word of install?.[1]!.trim().split(/\s+/) ?? []) {
      if (!word.startsWith('-')) named.add(packageOf(word.replace(/[),.;:]+$/, '').replace(/(.)@.*$/, '$1')));
    }
    if (inFence) continue;
    for (const [, name] of line.matchAll(/`(@?[a-z0-9][\w.-]*(?:\/[\w.-]+)?)`/g)) named.add(packageOf(name!));
  }
  return named;
}
