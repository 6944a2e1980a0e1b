import { defineConfig } from 'vitest/config';

// Browser tests: the real server and Debian's Chromium, three files at a time. A browser test spends most
// of its time waiting (for the server, the page, a timer): one file at a time used ~0.3 of one core
// (35 s of CPU in 110 s for four files, decision 0026), two at a time ~0.7 of a core (314 s of CPU in
// 456 s wall for 27 files), and three at a time took 502 s wall for the 36 files' 1,173 s (clean-clone
// CI, session 21, green). Four at a time was tried: no faster and an IPO page test failed waiting, so
// three it is. Each file starts its own server on a free port with its own data directory; nothing else
// is shared.
export default defineConfig({
  test: {
    include: ['e2e/**/*.e2e.test.ts'],
    pool: 'forks',
    maxWorkers: 3,
    fileParallelism: true,
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // expect.poll's own default (1 s) is shorter than a page takes to react on a loaded machine (a poll
    // of the spot page's trade list failed at 1 s in a clean-clone run); the tests' own timeouts still bound it.
    expect: { poll: { timeout: 10_000 } },
  },
});
