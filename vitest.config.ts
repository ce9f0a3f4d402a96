import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The tarball, installed into throwaway consumers: `npm run test:package` (vitest.package.config.ts);
    // other runtimes and the playground in a browser: `npm run test:browser` and the rest (vitest.runtimes.config.ts).
    exclude: ['test/packaging.test.ts', 'test/runtimes/**'],
    pool: 'forks',
    globalSetup: ['test/_helpers/build.ts'],
    // Nothing here is timed: the limit only catches a hang. The property suites take 12 s alone and
    // were seen at 44 s on a 2-core machine running other jobs, so the limit leaves room for that.
    testTimeout: 60_000,
  },
});
