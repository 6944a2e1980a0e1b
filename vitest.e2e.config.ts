import { defineConfig } from 'vitest/config';

// Browser tests: the real server and Debian's Chromium, one file at a time (2 cores).
export default defineConfig({
  test: {
    include: ['e2e/**/*.e2e.test.ts'],
    pool: 'forks',
    maxWorkers: 1,
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
