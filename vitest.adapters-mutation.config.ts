import { defineConfig } from 'vitest/config';

/**
 * The in-process tests of the adapters, for their mutation testing (`npm run mutation:adapters`,
 * stryker.adapters.config.json): the proxy's parts and sessions, the proxy run in process over
 * streams, the MCP client and server wrappers, and the framework adapters. A test that runs the
 * built proxy in a child process never reaches a mutant in memory, so it is not listed here.
 */
export default defineConfig({
  test: {
    include: [
      'test/proxy-parts.test.ts',
      'test/proxy-hostile.test.ts',
      'test/proxy-session.test.ts',
      'test/proxy-results.test.ts',
      'test/modern-parts.test.ts',
      'test/proxy-bytes.test.ts',
      'test/proxy-inprocess.test.ts',
      'test/proxy-upstreams.test.ts',
      'test/proxy-flow.test.ts',
      'test/wild-entrypoints-proxy.test.ts',
      'test/http-upstream.test.ts',
      'test/http-target.test.ts',
      'test/adapters-call.test.ts',
      'test/fuzz-proxy.test.ts',
      'test/mcp.test.ts',
      'test/mcp-adapters.test.ts',
      'test/mcp-server-inprocess.test.ts',
      'test/mcp-v2.test.ts',
      'test/mcp-parts.test.ts',
      'test/openai-agents.test.ts',
      'test/langchain.test.ts',
      'test/mastra.test.ts',
    ],
    pool: 'forks',
    env: { FC_RUNS: process.env['FC_RUNS'] ?? '30', FUZZ_LINES: process.env['FUZZ_LINES'] ?? '300' },
    testTimeout: 60_000,
  },
});
