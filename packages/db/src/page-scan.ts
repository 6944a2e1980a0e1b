// Reading a long run of (key, text) rows — the engine journal at start-up — on a worker thread with its
// own connection, a couple of pages ahead of the caller. On this thread a page then costs one message
// (~40 ns a row to copy the texts in): no SQLite step loop, no PostgreSQL row parsing (together ~0.3 s
// of a 1,000,000-command replay on SQLite, more on PostgreSQL), and the reading overlaps the caller's
// work. The texts arrive as strings of their own: slices of one joined page string would be cheaper
// still, but every id the engine keeps (a resting order's command id) would then hold its whole page.

import { Worker } from 'node:worker_threads';
import type { PageParser, TextPage } from './types.ts';

/** Where the worker opens its own connection. */
export type ScanSource = { dialect: 'sqlite'; path: string } | { dialect: 'postgres'; url: string; schema?: string };

/** A page as the worker posts it (`keys` transferred). */
export type PageMessage =
  | { keys: Float64Array; texts: string[]; parsed: unknown; last: boolean; error?: undefined }
  | { error: string };

/** Pages read ahead of the one being used: one on its way, one waiting. */
const READ_AHEAD = 2;

const WORKER = new URL('./page-scan-worker.ts', import.meta.url);

/**
 * The pages of `text` (already in the dialect's parameter style: `$1`/`?1` the key to read after,
 * `$2`/`?2` the page size), in order, the last one short (possibly empty), each with what `parser` made
 * of its texts on the worker. Breaking out of the loop stops the worker.
 */
export async function* scanPagesOffThread(
  source: ScanSource,
  text: string,
  after: number,
  pageSize: number,
  parser?: PageParser,
): AsyncGenerator<TextPage> {
  const worker = new Worker(WORKER, { workerData: { source, text, after, pageSize, parser } });
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
    // A worker may throw anything, not only an Error (@types/node 26 types it unknown).
    failure = error instanceof Error ? error : new Error(String(error));
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
      yield parser === undefined
        ? { keys: message.keys, texts: message.texts }
        : { keys: message.keys, texts: message.texts, parsed: message.parsed };
      if (message.last) return;
    }
  } finally {
    worker.removeAllListeners('exit');
    await worker.terminate();
  }
}

/**
 * The pages read on this thread, one `readPage(after)` each: where no second connection can reach the
 * data (SQLite in memory, as tests use it), and on a reader's own thread (reader.ts). A `parser` runs
 * here too.
 */
export async function* scanPagesHere(
  readPage: (after: number) => Promise<TextPage>,
  after: number,
  pageSize: number,
  parser?: PageParser,
): AsyncGenerator<TextPage> {
  const parse = await loadParser(parser);
  for (;;) {
    const page = await readPage(after);
    const parsed = parse(page.texts);
    if (parsed !== undefined) page.parsed = parsed;
    yield page;
    if (page.texts.length < pageSize) return;
    after = page.keys[page.keys.length - 1] as number;
  }
}

/** A page from rows of (key, text). */
export function pageOf(rows: readonly unknown[][]): TextPage {
  const keys = new Float64Array(rows.length);
  const texts: string[] = new Array(rows.length);
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i] as [unknown, unknown];
    keys[i] = Number(row[0]);
    const value = row[1];
    if (typeof value !== 'string') throw new Error(`scanPages: row ${row[0]} has no text in its second column`);
    texts[i] = value;
  }
  return { keys, texts };
}

/**
 * The function a PageParser names, made safe to run on every page: a parser that cannot be loaded or
 * that throws gives no result (undefined) for the pages, with one warning, so the caller reads their
 * texts itself (a parser only saves the caller work, it never decides an outcome).
 */
export async function loadParser(parser: PageParser | undefined): Promise<(texts: string[]) => unknown> {
  if (parser === undefined) return () => undefined;
  let warned = false;
  const failed = (error: unknown) => {
    if (!warned) console.warn(`page parser ${parser.exportName} failed; pages go unparsed:`, error);
    warned = true;
    return undefined;
  };
  let parse: unknown;
  try {
    parse = ((await import(parser.module)) as Record<string, unknown>)[parser.exportName];
    if (typeof parse !== 'function') throw new Error(`${parser.module} exports no function ${parser.exportName}`);
  } catch (error) {
    failed(error);
    return () => undefined;
  }
  const run = parse as (texts: string[]) => unknown;
  return (texts) => {
    try {
      return run(texts);
    } catch (error) {
      return failed(error);
    }
  };
}

/**
 * The buffers of the typed arrays among `parsed`'s own values that span their whole buffer, each once:
 * what goes by transfer. A view of part of a buffer (a pooled Node Buffer, a scratch area's subarray)
 * is copied instead, so the parser's own memory is never detached.
 */
export function buffersOf(parsed: unknown): ArrayBuffer[] {
  const buffers: ArrayBuffer[] = [];
  if (typeof parsed !== 'object' || parsed === null) return buffers;
  for (const value of Object.values(parsed)) {
    if (
      ArrayBuffer.isView(value) &&
      value.buffer instanceof ArrayBuffer &&
      value.byteOffset === 0 &&
      value.byteLength === value.buffer.byteLength &&
      !buffers.includes(value.buffer)
    )
      buffers.push(value.buffer);
  }
  return buffers;
}
