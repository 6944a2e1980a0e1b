// The worker thread behind scanPages (page-scan.ts): its own read connection, reading keyset pages of
// (key, text) rows and posting each (keys transferred, texts copied), so the caller's thread neither
// reads nor parses rows; with a PageParser, also what it makes of the texts (its typed arrays
// transferred). It reads a page per credit the caller gives (see page-scan.ts) and stops after a
// short page.

import { parentPort, workerData } from 'node:worker_threads';
import { buffersOf, loadParser, type PageMessage, type ScanSource } from './page-scan.ts';
import { openReader } from './reader.ts';
import type { PageParser, TextPage } from './types.ts';

const { source, text, after, pageSize, parser } = workerData as {
  source: ScanSource;
  text: string;
  after: number;
  pageSize: number;
  parser: PageParser | undefined;
};
const port = parentPort;
if (!port) throw new Error('page-scan-worker runs as a worker thread');

type ReadPage = (after: number) => Promise<TextPage>;

async function connect(): Promise<{ read: ReadPage; close: () => Promise<void> }> {
  const reader = await openReader(source);
  return { read: (key) => reader.readPage(text, key, pageSize), close: () => reader.close() };
}

async function main() {
  const parse = await loadParser(parser);
  const connection = await connect();
  let credits = 0;
  let wake: (() => void) | null = null;
  port!.on('message', () => {
    credits += 1;
    wake?.();
  });
  try {
    let key = after;
    for (;;) {
      while (credits === 0) await new Promise<void>((resolve) => (wake = resolve));
      wake = null;
      credits -= 1;
      const { keys, texts } = await connection.read(key);
      const last = texts.length < pageSize;
      if (!last) key = keys[keys.length - 1] as number; // read before the transfer empties `keys`
      const parsed = parse(texts);
      const message: PageMessage = { keys, texts, parsed, last };
      // The page's own buffers.
      port!.postMessage(message, [keys.buffer as ArrayBuffer, ...buffersOf(parsed)]);
      if (last) break;
    }
  } finally {
    await connection.close();
  }
}

main().catch((error: unknown) => {
  const message: PageMessage = { error: error instanceof Error ? error.message : String(error) };
  port.postMessage(message);
});
