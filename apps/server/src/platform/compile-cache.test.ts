import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_COMPILE_CACHE } from './compile-cache.ts';

const MODULE = new URL('./compile-cache.ts', import.meta.url).href;

/**
 * In a fresh process: turns the cache on (PROBE_DEFAULT standing in for the default directory), then
 * asks a worker thread started afterwards where its cache is (getCompileCacheDir: the directory's
 * subdirectory for this Node version).
 */
const PROBE = `
import { getCompileCacheDir } from 'node:module';
import { Worker } from 'node:worker_threads';
import { enableCompileCacheForThreads, persistCompileCache } from ${JSON.stringify(MODULE)};
const directory = enableCompileCacheForThreads(process.env.PROBE_DEFAULT);
const worker = new Worker(
  "import { getCompileCacheDir } from 'node:module'; import { parentPort } from 'node:worker_threads'; parentPort.postMessage(getCompileCacheDir() ?? null);",
  { eval: true },
);
const inWorker = await new Promise((resolve) => worker.once('message', resolve));
await worker.terminate();
persistCompileCache();
console.log(JSON.stringify({ directory: directory ?? null, here: getCompileCacheDir() ?? null, inWorker }));
`;

type Probe = { directory: string | null; here: string | null; inWorker: string | null };

function withoutCacheSettings(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { NODE_COMPILE_CACHE: _dir, NODE_DISABLE_COMPILE_CACHE: _off, ...rest } = env;
  return rest;
}

function probe(env: Record<string, string>): Probe {
  const run = spawnSync(
    process.execPath,
    ['--disable-warning=ExperimentalWarning', '--input-type=module', '-e', PROBE],
    {
      env: { ...withoutCacheSettings(process.env), ...env },
      encoding: 'utf8',
      timeout: 15_000,
    },
  );
  if (run.status !== 0) throw new Error(`probe ended with ${run.status ?? run.signal}: ${run.stderr}`);
  return JSON.parse(run.stdout.trim().split('\n').at(-1) as string);
}

describe('compile cache', () => {
  const dirs: string[] = [];
  const scratch = () => {
    const dir = mkdtempSync(join(tmpdir(), 'compile-cache-'));
    dirs.push(dir);
    return dir;
  };
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('is on in this thread and, through the environment, in worker threads started afterwards', () => {
    const dir = join(scratch(), 'cache');
    const { directory, here, inWorker } = probe({ PROBE_DEFAULT: dir });
    expect(directory).toBe(dir);
    expect(here?.startsWith(`${dir}/`)).toBe(true);
    expect(inWorker).toBe(here);
    // The directory is made, and what was compiled is in it once persisted.
    expect(readdirSync(here as string).length).toBeGreaterThan(0);
  });

  it('uses the directory NODE_COMPILE_CACHE names instead of the default, and takes an empty one as unset', () => {
    const chosen = scratch();
    const fallback = scratch();
    const named = probe({ NODE_COMPILE_CACHE: chosen, PROBE_DEFAULT: fallback });
    expect(named.here?.startsWith(`${chosen}/`)).toBe(true);
    expect(named.inWorker).toBe(named.here);
    const empty = probe({ NODE_COMPILE_CACHE: '', PROBE_DEFAULT: fallback });
    expect(empty.here?.startsWith(`${fallback}/`)).toBe(true);
    expect(empty.inWorker).toBe(empty.here);
  });

  it('stays off, in the worker too, where NODE_DISABLE_COMPILE_CACHE=1 turns it off', () => {
    expect(probe({ NODE_DISABLE_COMPILE_CACHE: '1', PROBE_DEFAULT: scratch() })).toEqual({
      directory: null,
      here: null,
      inWorker: null,
    });
  });

  it('keeps its default inside the installation, not in the shared temporary directory', () => {
    const root = fileURLToPath(new URL('../../../../', import.meta.url));
    expect(DEFAULT_COMPILE_CACHE).toBe(join(root, 'node_modules', '.cache', 'node-compile-cache'));
  });
});
