import { readFileSync } from 'node:fs';
import { defineConfig } from 'tsup';

const { version } = JSON.parse(readFileSync('./package.json', 'utf8')) as { version: string };

export default defineConfig([
  {
    entry: { index: 'src/index.ts', validate: 'src/validate.ts', render: 'src/render.ts', mcp: 'src/mcp.ts', ai: 'src/ai.ts', 'openai-agents': 'src/openai-agents.ts', langchain: 'src/langchain.ts', mastra: 'src/mastra.ts' },
    format: ['esm', 'cjs'],
    // The entries share the core in chunks, in both formats: without this, each CommonJS entry
    // would carry its own copy of it (esbuild splits ESM only; tsup splits CJS on request).
    splitting: true,
    // A CommonJS chunk may not mention `import.meta` (esbuild empties it only in unsplit CJS):
    // its one use, in the synchronous validator loader, is behind a `__filename` test CJS passes.
    esbuildOptions(options, { format }) {
      if (format === 'cjs') options.define = { ...options.define, 'import.meta.url': 'undefined' };
    },
    // Declarations are emitted without type checking (`npm run typecheck` checks): under
    // `isolatedDeclarations` each one is read off its own file, so dist/ is the same, byte for
    // byte, whether or not the full install (Mastra, the OpenAI Agents SDK) is there.
    dts: { compilerOptions: { noCheck: true } },
    clean: true,
    target: 'node18',
    sourcemap: false,
  },
  {
    entry: { cli: 'src/cli.ts' },
    format: ['esm'],
    target: 'node18',
    banner: { js: '#!/usr/bin/env node' },
    define: { __VERSION__: JSON.stringify(version) },
  },
]);
