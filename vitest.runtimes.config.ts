import { defineConfig } from 'vitest/config';

/**
 * The library in other JavaScript runtimes (headless Chromium, Deno, Bun, workerd) and the
 * playground in a browser: `npm run test:browser`, `test:deno`, `test:bun`, `test:workers`,
 * `test:playground`. Heavy (a browser, other runtimes' binaries), so kept out of `npm test`,
 * which CI runs on three Node versions; `.ci/run` runs each of these once.
 */
export default defineConfig({
  test: {
    include: ['test/runtimes/**/*.test.ts'],
    pool: 'forks',
    globalSetup: ['test/_helpers/build.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
