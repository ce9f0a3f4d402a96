/**
 * README code examples, taken from the README itself: every ```ts block that states a result in a
 * comment after a statement (`expr; // value`, or `expr;` followed by `// → value` or by lines of
 * `//` text) becomes a runnable example, so an example and its promised output cannot drift apart.
 */
import { transformSync } from 'esbuild';

/** One statement whose value the README states. */
export interface Claim {
  /** 1-based README line of the statement. */
  readonly line: number;
  /** The statement's expression, as written. */
  readonly expression: string;
  /** The comment text, `→ ` and trailing prose (after three spaces) removed; lines joined by `\n`. */
  readonly expected: string;
}

/** A README code block with at least one claim. */
export interface Example {
  /** 1-based README line of the opening fence. */
  readonly line: number;
  readonly code: string;
  readonly claims: readonly Claim[];
}

const FENCE = /^```ts\n([\s\S]*?)^```$/gm;
const STATEMENT = /^(?!(?:if|else|for|while|return|await|const|let|var|import|export)\b)(\S.*?);\s*(?:\/\/ ?(.*))?$/;

/** Every ```ts block of `markdown` that states at least one result. */
export function extractExamples(markdown: string): Example[] {
  const examples: Example[] = [];
  for (const match of markdown.matchAll(FENCE)) {
    const fenceLine = markdown.slice(0, match.index).split('\n').length;
    const lines = match[1]!.replace(/\n$/, '').split('\n');
    const claims: Claim[] = [];
    lines.forEach((text, i) => {
      const statement = STATEMENT.exec(text);
      if (statement === null) return;
      const comments = statement[2] !== undefined ? [statement[2]] : [];
      for (let j = i + 1; statement[2] === undefined && j < lines.length && lines[j]!.startsWith('//'); j++) comments.push(lines[j]!.replace(/^\/\/ ?/, ''));
      if (comments.length === 0) return;
      const first = comments[0]!.replace(/^→ /, '').split(/\s{3,}/)[0]!;
      claims.push({ line: fenceLine + 1 + i, expression: statement[1]!, expected: [first, ...comments.slice(1)].join('\n') });
    });
    if (claims.length > 0) examples.push({ line: fenceLine, code: lines.join('\n'), claims });
  }
  return examples;
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

/**
 * Runs an example: its imports of `schema-coerce` entries come from `modules`, names it uses but
 * does not declare from `given`, and each claimed statement's value is returned, by README line.
 */
export function runExample(example: Example, modules: Record<string, Record<string, unknown>>, given: Record<string, unknown>): Map<number, unknown> {
  const claimed = new Map(example.claims.map((claim) => [claim.line, claim]));
  const body = example.code
    .split('\n')
    .map((text, i) => {
      const claim = claimed.get(example.line + 1 + i);
      if (claim !== undefined) return `__results.set(${claim.line}, (${claim.expression}));`;
      return text.replace(/^import \{([^}]*)\} from '([^']+)';$/, (_all, names: string, from: string) => {
        if (modules[from] === undefined) throw new Error(`README line ${example.line}: no module ${from} for the examples`);
        return `const {${names.replace(/\btype \w+,?/g, '')}} = __modules[${JSON.stringify(from)}];`;
      });
    })
    .join('\n');
  const declared = new Set([...body.matchAll(/\b(?:const|let|var)\s+(?:\{([^}]*)\}|(\w+))/g)].flatMap((m) => (m[1] ?? m[2]!).split(',').map((name) => name.trim().split(/\s*:\s*/).pop()!)));
  const free = Object.keys(given).filter((name) => !declared.has(name));
  const js = transformSync(body, { loader: 'ts' }).code;
  const results = new Map<number, unknown>();
  new Function('__modules', '__results', ...free, js)(modules, results, ...free.map((name) => given[name]));
  return results;
}
