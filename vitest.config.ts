import { configDefaults, defineConfig } from 'vitest/config';

// Unit and API tests (everything named *.test.ts beside its module). Browser tests live in e2e/
// and run through vitest.e2e.config.ts after the front ends are built.
//
// The server, the packages, the benches and the scripts run their files one after another in each
// worker process without a fresh process per file (isolate: false): loading the server's module graph
// again for every file cost ~1.5 s of CPU a file (decision 0026). Their tests share no mutable state
// across files (each builds its own app on its own database and restores any spy it makes; the catalogue's
// runtime listings are forgotten before each file: vitest.setup.ts). The front
// ends' tests stub globals and fake timers, so each of their files keeps a process of its own.
const front = ['apps/web/src/**/*.test.ts', 'apps/admin/src/**/*.test.ts'];

export default defineConfig({
  test: {
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 20_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'server and packages',
          include: [
            'packages/*/src/**/*.test.ts',
            'apps/*/src/**/*.test.ts',
            'bench/**/*.test.ts',
            'scripts/**/*.test.ts',
          ],
          exclude: [...configDefaults.exclude, ...front],
          isolate: false,
          setupFiles: ['vitest.setup.ts'],
        },
      },
      { extends: true, test: { name: 'front ends', include: front } },
    ],
  },
});
