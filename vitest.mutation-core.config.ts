import { defineConfig } from 'vitest/config';

/**
 * The core's own tests, for mutation runs of the core modules on a busy machine
 * (`npx stryker run stryker.core.config.json`): the fixture tables, the `mutants-*` tests, the
 * unit tests of the core. Left out: the adapter and proxy tests (real SDKs, servers and child
 * processes), the property tests and random-text oracles (hundreds of generated inputs per mutant),
 * the memory and depth tests, and the snippet tests. A mutant this suite lets live may still be
 * killed by the whole of `vitest.mutation.config.ts`; a mutant it kills is killed there too.
 */
export default defineConfig({
  test: {
    include: [
      'test/coerce.test.ts', 'test/dialects.test.ts', 'test/errors.test.ts', 'test/fail-closed.test.ts', 'test/format.test.ts',
      'test/integer-rule.test.ts', 'test/lenient-text-path.test.ts', 'test/lossless.test.ts', 'test/mutants-*.test.ts',
      'test/numbers.test.ts', 'test/optional-null-limits.test.ts', 'test/pipeline.test.ts', 'test/plain-numbers.test.ts', 'test/separators.test.ts', 'test/preserve.test.ts', 'test/public-api.test.ts', 'test/purity.test.ts', 'test/read-text-hostile.test.ts',
      'test/render.test.ts', 'test/rewrite.test.ts', 'test/tool-result.test.ts', 'test/top-level.test.ts', 'test/undeclared.test.ts', 'test/validate.test.ts', 'test/wild.test.ts',
    ],
    pool: 'forks',
    env: { FC_RUNS: process.env['FC_RUNS'] ?? '30' },
    testTimeout: 60_000,
  },
});
