import { defineConfig } from 'vitest/config';

// Unit and API tests (everything named *.test.ts beside its module). Browser tests live in e2e/
// and run through vitest.e2e.config.ts after the front ends are built.
export default defineConfig({
  test: {
    include: ['packages/*/src/**/*.test.ts', 'apps/*/src/**/*.test.ts', 'bench/**/*.test.ts', 'scripts/**/*.test.ts'],
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 20_000,
  },
});
