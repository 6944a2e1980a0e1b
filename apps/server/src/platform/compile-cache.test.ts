import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const MODULE = new URL('./compile-cache.ts', import.meta.url).href;

/**
 * In a fresh process: turns the cache on, then asks a worker thread started afterwards where its cache
 * is (getCompileCacheDir: the directory's subdirectory for this Node version).
 */
const PROBE = `
import { getCompileCacheDir } from 'node:module';
import { Worker } from 'node:worker_threads';
import { enableCompileCacheForThreads, persistCompileCache } from ${JSON.stringify(MODULE)};
const directory = enableCompileCacheForThreads();
const worker = new Worker(
  "import { getCompileCacheDir } from 'node:module'; import { parentPort } from 'node:worker_threads'; parentPort.postMessage(getCompileCacheDir() ?? null);",
  { eval: true },
);
const inWorker = await new Promise((resolve) => worker.once('message', resolve));
await worker.terminate();
persistCompileCache();
console.log(JSON.stringify({ directory: directory ?? null, here: getCompileCacheDir() ?? null, inWorker }));
`;

function withoutCacheSettings(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { NODE_COMPILE_CACHE: _dir, NODE_DISABLE_COMPILE_CACHE: _off, ...rest } = env;
  return rest;
}

type Probe = { directory: string | null; here: string | null; inWorker: string | null };

function probe(env: Record<string, string>): Probe {
  const run = spawnSync(
    process.execPath,
    ['--disable-warning=ExperimentalWarning', '--input-type=module', '-e', PROBE],
    {
      env: { ...withoutCacheSettings(process.env), ...env },
      encoding: 'utf8',
    },
  );
  if (run.status !== 0) throw new Error(run.stderr);
  return JSON.parse(run.stdout.trim().split('\n').at(-1) as string);
}

describe('compile cache', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('is on in this thread and, through the environment, in worker threads started afterwards', () => {
    const dir = mkdtempSync(join(tmpdir(), 'compile-cache-'));
    dirs.push(dir);
    // No NODE_COMPILE_CACHE: Node's default directory, under the temporary directory.
    const { directory, here, inWorker } = probe({ TMPDIR: dir });
    expect(directory).toBe(join(dir, 'node-compile-cache'));
    expect(here?.startsWith(`${directory}/`)).toBe(true);
    expect(inWorker).toBe(here);
    // What was compiled is on disk once persisted.
    expect(readdirSync(here as string).length).toBeGreaterThan(0);
  });

  it('uses the directory NODE_COMPILE_CACHE names', () => {
    const dir = mkdtempSync(join(tmpdir(), 'compile-cache-'));
    dirs.push(dir);
    const { directory, here, inWorker } = probe({ NODE_COMPILE_CACHE: dir });
    // Node turned it on at start already, and answers with its subdirectory for this version.
    expect(directory?.startsWith(dir)).toBe(true);
    expect(here?.startsWith(`${dir}/`)).toBe(true);
    expect(inWorker).toBe(here);
  });

  it('stays off, in the worker too, where NODE_DISABLE_COMPILE_CACHE=1 turns it off', () => {
    expect(probe({ NODE_DISABLE_COMPILE_CACHE: '1' })).toEqual({ directory: null, here: null, inWorker: null });
  });
});
