// Durable means durable: on the embedded database every acknowledged commit is fsynced before the
// caller hears back. Shown by tracing the system calls of a process that commits N batches one by one:
// each commit must be followed by an fsync/fdatasync of the database's write-ahead log.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';

const hasStrace = spawnSync('strace', ['-V']).status === 0;
if (!hasStrace)
  console.warn('\n*** strace is not installed: the fsync durability test is SKIPPED (apt-get install strace). ***\n');

it.skipIf(!hasStrace)('fsyncs the write-ahead log once per acknowledged commit', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bourse-fsync-'));
  const trace = join(dir, 'trace.txt');
  const commits = 25;
  try {
    const run = spawnSync(
      'strace',
      [
        '-f',
        '-e',
        'trace=fsync,fdatasync',
        '-y',
        '-o',
        trace,
        process.execPath,
        '--disable-warning=ExperimentalWarning',
        join(import.meta.dirname, 'durability-child.ts'),
        join(dir, 'db'),
        String(commits),
      ],
      { encoding: 'utf8', timeout: 60_000 },
    );
    expect(run.status, run.stderr).toBe(0);
    const walSyncs = readFileSync(trace, 'utf8')
      .split('\n')
      .filter((line) => /f(data)?sync\(\d+<[^>]*bourse\.sqlite-wal>\)\s+=\s+0/.test(line));
    // Migrations and host start-up commit a few times too; the commands alone need `commits` syncs.
    expect(walSyncs.length).toBeGreaterThanOrEqual(commits);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
