// The worker thread a reconciliation reads the stored tables on, through a read connection of its own
// (Db.readSource): node:sqlite answers synchronously, so aggregates over big tables on the server's own
// connection would hold every request; here they hold only this thread. It answers one TablesWorkerAnswer.

import { parentPort, workerData } from 'node:worker_threads';
// From the package's index: that also sets the PostgreSQL type parsers the server's connection reads with
// (int8 as numbers), which the audit chain's hashes are computed over.
import { openReader, type ReadSource } from '@bourse/db';
import type { AuditTip } from '../staff/audit.ts';
import type { EngineFigures } from './engine-figures.ts';
import { checkTables, type TableFindings } from './tables.ts';

export type TablesWorkerData = { source: ReadSource; figures: EngineFigures; previousTip: AuditTip | null };
export type TablesWorkerAnswer = { findings: TableFindings } | { error: string };

const port = parentPort;
if (!port) throw new Error('tables-worker runs as a worker thread');
const { source, figures, previousTip } = workerData as TablesWorkerData;

async function main(): Promise<TableFindings> {
  const reader = await openReader(source);
  try {
    return await checkTables({ dialect: source.dialect, query: reader.query }, figures, previousTip, async () => {});
  } finally {
    await reader.close();
  }
}

main().then(
  (findings) => port.postMessage({ findings } satisfies TablesWorkerAnswer),
  (error: unknown) =>
    port.postMessage({
      error: error instanceof Error ? (error.stack ?? error.message) : String(error),
    } satisfies TablesWorkerAnswer),
);
