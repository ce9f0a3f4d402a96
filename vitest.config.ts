import { availableParallelism } from 'node:os';
import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';

/**
 * Every test suite, as a project of this one config (docs/TESTING.md has the split, the reasons
 * and the timings):
 *
 * - `unit` and `unit-isolated`, `npm test`: the core, the adapters run in this process (the
 *   proxy over streams, the gateway on loopback, the MCP and AI SDK adapters), a short
 *   proxy fuzz. No build, nothing from the full install; a child process only as a peer of code
 *   running in the test's own process. `unit` shares one module graph per worker (`isolate:
 *   false`, half the time); the two files that mock a module get their own (`unit-isolated`).
 * - `integration`: the built package in child processes (CLI, proxy, gateway, hostile inputs),
 *   real third-party servers and clients, the frameworks of the full install (LangChain,
 *   OpenAI Agents, Mastra), the examples, every documentation snippet, 100,000 levels of nesting.
 * - `package` (`npm run test:package`): the packed tarball in throwaway consumers, publint, attw.
 * - `runtimes` (`npm run test:runtimes`, `test:browser`…): Chromium, Deno, Bun, workerd, the playground.
 * - `load` (`npm run test:load`): the gateway under load behind HAProxy, after everything else.
 *
 * `npm run test:all` (and CI) runs them all, after the full install (`npm run setup:full`).
 * Under Stryker (which sets STRYKER_MUTATOR_WORKER in its workers) the config is the one project
 * `mutation` instead: every test that runs the library in its own process, 30 property runs and
 * 300 fuzz lines per mutant; each stryker*.config.json names the test files of its run (`testFiles`).
 */

/** Tests that need the build, the full install, child processes of the package, or minutes. */
const INTEGRATION = [
  'test/cli.test.ts',
  'test/depth.test.ts',
  'test/examples.test.ts',
  'test/gateway-auth-process.test.ts',
  'test/gateway-clients.test.ts',
  'test/gateway-observe-process.test.ts',
  'test/gateway-config.test.ts',
  'test/gateway-lockout.test.ts',
  'test/gateway-npx-drain.test.ts',
  'test/gateway-redirect.test.ts',
  'test/gateway-trace.test.ts',
  'test/gateway.test.ts',
  'test/hostile.test.ts',
  'test/langchain.test.ts',
  'test/lenient-entrypoints.test.ts',
  'test/mastra.test.ts',
  'test/mcp.test.ts',
  'test/modern.test.ts',
  'test/openai-agents.test.ts',
  'test/proxy-batch.test.ts',
  'test/proxy-http.test.ts',
  'test/proxy-memory.test.ts',
  'test/proxy-process.test.ts',
  'test/proxy-results-clients.test.ts',
  'test/proxy-servers.test.ts',
  'test/proxy.test.ts',
  'test/readme.test.ts',
  'test/repair-adapters.test.ts',
  'test/report-cli.test.ts',
  'test/schema-shapes.test.ts',
  'test/snippets.test.ts',
  'test/wild-entrypoints.test.ts',
];
/** Unit tests that replace a module with `vi.mock`, which a shared module graph would leak. */
const ISOLATED = ['test/mutants-coerce.test.ts', 'test/mutants-reader-check.test.ts'];
const PACKAGE = ['test/packaging.test.ts'];
/** The built dist/ JavaScript, for the tests that run it (declarations: `npm run build`). */
const BUILD = ['test/_helpers/build.ts'];
/**
 * Workers for `npm test`. Its files mostly wait (child servers starting, timeouts and idle times
 * running out), so it runs more files at once than there are cores: vitest's default (cores - 1)
 * is one worker on 2 cores, which ran the 118 files one after another. `VITEST_MAX_WORKERS`
 * decides when set. The other projects keep vitest's default.
 */
const UNIT_WORKERS = Number(process.env['VITEST_MAX_WORKERS'] ?? Math.max(3, availableParallelism() - 1));
/** The unit projects run first, as their own group: a group's projects share one worker count. */
const UNIT = { maxWorkers: UNIT_WORKERS, sequence: { groupOrder: 0 } };
const LATER = { sequence: { groupOrder: 1 } };

const projects: TestProjectInlineConfiguration[] = [
  { extends: true, test: { name: 'unit', include: ['test/*.test.ts'], exclude: [...INTEGRATION, ...ISOLATED, ...PACKAGE], isolate: false, ...UNIT } },
  { extends: true, test: { name: 'unit-isolated', include: ISOLATED, ...UNIT } },
  { extends: true, test: { name: 'integration', include: INTEGRATION, globalSetup: BUILD, ...LATER } },
  { extends: true, test: { name: 'package', include: PACKAGE, testTimeout: 120_000, ...LATER } },
  { extends: true, test: { name: 'runtimes', include: ['test/runtimes/**/*.test.ts'], globalSetup: BUILD, testTimeout: 120_000, hookTimeout: 120_000, ...LATER } },
  {
    extends: true,
    // One file at a time, after every other project: its figures are loads and latencies.
    test: { name: 'load', include: ['test/load/**/*.load.ts'], globalSetup: BUILD, fileParallelism: false, sequence: { groupOrder: 2 }, testTimeout: 180_000, hookTimeout: 60_000 },
  },
];

/**
 * Stryker's run: the tests that reach a mutant held in memory. Left out are the tests that only
 * run the built package or other processes (a mutant never reaches them), the bench helpers and
 * the snippets.
 */
const mutation: TestProjectInlineConfiguration = {
  extends: true,
  test: {
    name: 'mutation',
    include: ['test/*.test.ts'],
    exclude: [...PACKAGE, 'test/proxy.test.ts', 'test/cli.test.ts', 'test/examples.test.ts', 'test/hostile.test.ts', 'test/bench-helpers.test.ts', 'test/snippets.test.ts', 'test/schema-shapes.test.ts'],
    // Instrumented code runs several times slower: fewer generated cases per mutant.
    env: { FC_RUNS: process.env['FC_RUNS'] ?? '30', FUZZ_LINES: process.env['FUZZ_LINES'] ?? '300' },
  },
};

export default defineConfig({
  test: {
    pool: 'forks',
    // Nothing here is timed: the limit only catches a hang. The property suites were seen at 44 s
    // on a 2-core machine running other jobs, so the limit leaves room for that.
    testTimeout: 60_000,
    projects: process.env['STRYKER_MUTATOR_WORKER'] === undefined ? projects : [mutation],
  },
});
