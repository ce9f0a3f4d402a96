import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The tarball, installed into throwaway consumers: `npm run test:package` (vitest.package.config.ts).
    exclude: ['test/packaging.test.ts'],
    pool: 'forks',
    globalSetup: ['test/_helpers/build.ts'],
    testTimeout: 20_000,
  },
});
