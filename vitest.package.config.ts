import { defineConfig } from 'vitest/config';

/**
 * `npm run test:package`: the package as users get it (`npm pack`, which builds it through
 * `prepare`, then installs into throwaway consumers). Slow and network-shaped, so kept out of
 * `npm test`; CI (`.ci/run`) runs both.
 */
export default defineConfig({
  test: {
    include: ['test/packaging.test.ts'],
    pool: 'forks',
    testTimeout: 120_000,
  },
});
