// Durable means durable: on the embedded database every acknowledged commit is on disk before the
// caller hears back. Shown by tracing the system calls of a process that commits N batches one by one
// and writes `ack i` as each is answered: before every acknowledgement, the write-ahead log must have
// been fdatasynced by a sync that started after the log's last write (decision 0001: SQLite runs with
// synchronous=NORMAL and the adapter syncs the log itself, off the event loop).

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';

const hasStrace = spawnSync('strace', ['-V']).status === 0;
if (!hasStrace)
  console.warn('\n*** strace is not installed: the fsync durability test is SKIPPED (apt-get install strace). ***\n');

type Step = { kind: 'wal-write' | 'sync-start' | 'sync-done' | 'ack'; id?: number };

/** Reads an `strace -f -y` log into the ordered steps that matter (a call may be split in two lines). */
export function stepsOf(trace: string): Step[] {
  const steps: Step[] = [];
  const open = new Map<string, boolean>(); // pid → an unfinished WAL sync
  for (const line of trace.split('\n')) {
    const pid = line.split(' ', 1)[0]!;
    if (/pwrite64\(\d+<[^>]*\.sqlite-wal>/.test(line)) steps.push({ kind: 'wal-write' });
    else if (/f(data)?sync\(\d+<[^>]*\.sqlite-wal>/.test(line)) {
      steps.push({ kind: 'sync-start' });
      if (/<unfinished \.\.\.>/.test(line)) open.set(pid, true);
      else if (/=\s+0\s*$/.test(line)) steps.push({ kind: 'sync-done' });
    } else if (/<\.\.\. f(data)?sync resumed>/.test(line) && open.get(pid)) {
      open.delete(pid);
      if (/=\s+0\s*$/.test(line)) steps.push({ kind: 'sync-done' });
    } else {
      const ack = /write\(1<[^>]*>, "ack (\d+)\\n"/.exec(line);
      if (ack) steps.push({ kind: 'ack', id: Number(ack[1]) });
    }
  }
  return steps;
}

/** The acknowledgements not covered by a WAL sync that started after the log's last write. */
export function unsyncedAcks(steps: readonly Step[]): number[] {
  const bad: number[] = [];
  let dirty = false; // a WAL write not yet covered by a started sync
  let pending = 0; // syncs started after the last write and not yet done
  let covered = false; // such a sync has completed
  for (const step of steps) {
    if (step.kind === 'wal-write') {
      dirty = true;
      covered = false;
      pending = 0;
    } else if (step.kind === 'sync-start') {
      if (dirty) {
        dirty = false;
        pending = 0;
      }
      pending++;
    } else if (step.kind === 'sync-done') {
      if (!dirty && pending > 0) {
        pending--;
        covered = true;
      }
    } else if (!covered || dirty) bad.push(step.id!);
  }
  return bad;
}

it('a trace with an acknowledgement before its sync is caught', () => {
  const steps: Step[] = [
    { kind: 'wal-write' },
    { kind: 'sync-start' },
    { kind: 'sync-done' },
    { kind: 'ack', id: 0 },
    { kind: 'sync-start' },
    { kind: 'wal-write' },
    { kind: 'sync-done' }, // started before the write: does not cover it
    { kind: 'ack', id: 1 },
    { kind: 'wal-write' },
    { kind: 'ack', id: 2 },
  ];
  expect(unsyncedAcks(steps)).toEqual([1, 2]);
});

it.skipIf(!hasStrace)(
  'fsyncs the write-ahead log after the last write of every commit, before it is acknowledged',
  () => {
    const dir = mkdtempSync(join(tmpdir(), 'bourse-fsync-'));
    const trace = join(dir, 'trace.txt');
    const commits = 25;
    try {
      const run = spawnSync(
        'strace',
        [
          '-f',
          '-e',
          'trace=pwrite64,write,fsync,fdatasync',
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
      const steps = stepsOf(readFileSync(trace, 'utf8'));
      expect(steps.filter((s) => s.kind === 'ack').map((s) => s.id)).toEqual([...Array(commits).keys()]);
      expect(steps.filter((s) => s.kind === 'wal-write').length).toBeGreaterThanOrEqual(commits);
      expect(unsyncedAcks(steps)).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
);
