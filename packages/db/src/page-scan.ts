// Reading a long run of (key, text) rows — the engine journal at start-up — on a worker thread with its
// own connection, a couple of pages ahead of the caller. On this thread a page then costs one message
// (~40 ns a row to copy the texts in): no SQLite step loop, no PostgreSQL row parsing (together ~0.3 s
// of a 1,000,000-command replay on SQLite, more on PostgreSQL), and the reading overlaps the caller's
// work. The texts arrive as strings of their own: slices of one joined page string would be cheaper
// still, but every id the engine keeps (a resting order's command id) would then hold its whole page.

import { Worker } from 'node:worker_threads';
import type { Param, TextPage } from './types.ts';

/** Where the worker opens its own connection. */
export type ScanSource = { dialect: 'sqlite'; path: string } | { dialect: 'postgres'; url: string; schema?: string };

/** A page as the worker posts it (`keys` transferred). */
export type PageMessage = { keys: Float64Array; texts: string[]; last: boolean; error?: undefined } | { error: string };

/** Pages read ahead of the one being used: one on its way, one waiting. */
const READ_AHEAD = 2;

const WORKER = new URL('./page-scan-worker.ts', import.meta.url);

/**
 * The pages of `text` (already in the dialect's parameter style: `$1`/`?1` the key to read after,
 * `$2`/`?2` the page size), in order, the last one short (possibly empty). Breaking out of the loop
 * stops the worker.
 */
export async function* scanPagesOffThread(
  source: ScanSource,
  text: string,
  after: number,
  pageSize: number,
): AsyncGenerator<TextPage> {
  const worker = new Worker(WORKER, { workerData: { source, text, after, pageSize } });
  const arrived: PageMessage[] = [];
  let waiting: (() => void) | null = null;
  let failure: Error | null = null;
  const wake = () => {
    waiting?.();
    waiting = null;
  };
  worker.on('message', (message: PageMessage) => {
    arrived.push(message);
    wake();
  });
  worker.on('error', (error) => {
    failure = error;
    wake();
  });
  worker.on('exit', (code) => {
    failure ??= new Error(`page scan worker exited (${code}) before the last page`);
    wake();
  });
  try {
    for (let i = 0; i < READ_AHEAD; i++) worker.postMessage('more');
    for (;;) {
      while (arrived.length === 0) {
        if (failure) throw failure;
        await new Promise<void>((resolve) => (waiting = resolve));
      }
      const message = arrived.shift() as PageMessage;
      if (message.error !== undefined) throw new Error(`page scan failed: ${message.error}`);
      worker.postMessage('more');
      yield { keys: message.keys, texts: message.texts };
      if (message.last) return;
    }
  } finally {
    worker.removeAllListeners('exit');
    await worker.terminate();
  }
}

/**
 * The same pages read on this thread with `readArrays` (a database no second connection can reach:
 * SQLite in memory, as tests use it).
 */
export async function* scanPagesHere(
  readArrays: (text: string, params: readonly Param[]) => Promise<unknown[][]>,
  text: string,
  after: number,
  pageSize: number,
): AsyncGenerator<TextPage> {
  for (;;) {
    const rows = await readArrays(text, [after, pageSize]);
    const keys = Float64Array.from(rows, (row) => Number(row[0]));
    const texts = rows.map((row) => {
      if (typeof row[1] !== 'string') throw new Error(`scanPages: row ${row[0]} has no text in its second column`);
      return row[1];
    });
    yield { keys, texts };
    if (rows.length < pageSize) return;
    after = keys[keys.length - 1] as number;
  }
}
