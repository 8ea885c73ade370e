import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Tests start real loopback servers; two cores are plenty for a few forks.
    pool: 'forks',
    testTimeout: 20_000,
    hookTimeout: 20_000,
  },
});
