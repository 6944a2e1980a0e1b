import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

// `npm test` with every tool it calls replaced by a stub that answers at once (lint fails), to see
// what it prints at its end without running the suite. The architecture step is not stubbed: it runs
// the real dependency check (a few seconds).
const bin = mkdtempSync(join(tmpdir(), 'bourse-test-stubs-'));
for (const [tool, status] of [
  ['tsc', 0],
  ['biome', 1],
  ['vitest', 0],
  ['npm', 0],
] as const) {
  writeFileSync(join(bin, tool), `#!/bin/sh\necho "stub ${tool} $*"\nexit ${status}\n`);
  chmodSync(join(bin, tool), 0o755);
}
afterAll(() => rmSync(bin, { recursive: true, force: true }));

describe('npm test (scripts/test.ts)', () => {
  it("ends with the stage table, then the 'tests:' line as the very last line", () => {
    const run = spawnSync(process.execPath, [new URL('./test.ts', import.meta.url).pathname, '--no-browser'], {
      encoding: 'utf8',
      env: { ...process.env, PATH: `${bin}:${process.env.PATH}` },
      timeout: 30_000,
    });
    expect(run.status).toBe(1); // lint failed
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines.at(-1)).toMatch(/^tests: \d+ passed, \d+ failed$/);
    const header = lines.findIndex((line) => /^stage +seconds {2}result$/.test(line));
    expect(header).toBeGreaterThan(0);
    const rows = lines.slice(header + 2, lines.length - 4);
    expect(rows.map((row) => row.replace(/ +\d+\.\d {2}(passed|failed)$/, ' $1'))).toEqual([
      'typecheck (server and packages, web, admin) passed',
      'lint failed',
      'architecture (dependency rules) passed',
      'unit and API tests passed',
      'engine simulation (100,000 commands) passed',
    ]);
    expect(lines.at(-3)).toMatch(/^total +\d+\.\d {2}failed$/);
  });
});
