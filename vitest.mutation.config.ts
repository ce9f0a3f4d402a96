import { defineConfig } from 'vitest/config';

/**
 * The fast, in-process part of the suite, for mutation testing (`npm run mutation`): no build of
 * `dist/`, no child processes (CLI, proxy, MCP servers, examples, hostile inputs), no packaging,
 * no snippets run against the built package, no other runtimes.
 * Each of those runs the built or separately started code, which a mutant in memory never reaches;
 * the bench helpers are the benchmark's own code, not the library's.
 */
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: [
      'test/packaging.test.ts',
      'test/proxy.test.ts',
      'test/mcp.test.ts',
      'test/cli.test.ts',
      'test/examples.test.ts',
      'test/hostile.test.ts',
      'test/bench-helpers.test.ts',
      'test/snippets.test.ts',
      // Its rows run through every entry point, the built CLI among them; coerce.test.ts runs the same fixtures in process.
      'test/schema-shapes.test.ts',
      'test/runtimes/**',
    ],
    pool: 'forks',
    // Instrumented code runs several times slower: fewer property runs per mutant, more time per test.
    env: { FC_RUNS: process.env['FC_RUNS'] ?? '30' },
    testTimeout: 60_000,
  },
});
