import { readFileSync } from 'node:fs';
import { defineConfig } from 'tsup';

const { version } = JSON.parse(readFileSync('./package.json', 'utf8')) as { version: string };

export default defineConfig([
  {
    entry: { index: 'src/index.ts', validate: 'src/validate.ts', render: 'src/render.ts', mcp: 'src/mcp.ts', ai: 'src/ai.ts', 'openai-agents': 'src/openai-agents.ts', langchain: 'src/langchain.ts', mastra: 'src/mastra.ts' },
    format: ['esm', 'cjs'],
    dts: true,
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
