// The server (loaded by main.ts once the compile cache is on): reads the environment, opens the
// database, serves, and shuts down gracefully on SIGINT/SIGTERM (stops accepting, finishes requests in
// flight, closes the database).

import { fileURLToPath } from 'node:url';
import { openDb } from '@bourse/db';
import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';
import { shiftedClock, systemClock } from './platform/clock.ts';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const config = loadConfig(process.env, { webDist: `${root}apps/web/dist`, adminDist: `${root}apps/admin/dist` });
const db = await openDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
const clock = config.testClockStartMs !== null ? shiftedClock(config.testClockStartMs) : systemClock;
const app = await buildApp({ config, db, clock, marketPumpMs: 1000 });

let stopping = false;
const shutdown = async (signal: string) => {
  if (stopping) return;
  stopping = true;
  app.http.log.info({ signal }, 'shutting down');
  const force = setTimeout(() => process.exit(1), 10_000);
  force.unref();
  await app.http.close();
  await db.close();
  process.exit(0);
};
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));

await app.http.listen({ port: config.port, host: config.host });
app.http.log.info(
  { mode: config.mode, database: config.databaseUrl ? 'postgres' : `sqlite:${config.dataDir}` },
  `Bourse is serving on http://localhost:${config.port} (app /, staff console /admin, API /ipor-api)`,
);
