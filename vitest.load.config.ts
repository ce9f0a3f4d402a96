import { defineConfig } from 'vitest/config';

/**
 * The gateway's load and fault tests (`npm run test:load`, run once by `.ci/run`, not by
 * `npm test`): thousands of calls on loopback, three replicas behind HAProxy (the Debian package
 * `haproxy` must be installed), an upstream and a replica killed mid-load.
 */
export default defineConfig({
  test: {
    include: ['test/load/**/*.load.ts'],
    pool: 'forks',
    fileParallelism: false,
    globalSetup: ['test/_helpers/build.ts'],
    testTimeout: 180_000,
    hookTimeout: 60_000,
  },
});
