// Owns turning on Node's on-disk compile cache for the server and the worker threads it starts (the
// journal's page scan at start-up, the snapshot worker). Why: every start compiled each TypeScript
// module again, in every thread. Measured, five alternated starts each: the server answered /health
// after 625-858 ms with the cache, 930-958 ms without (polled every 100 ms); a page-scan worker's first
// page came after ~30 ms instead of ~50-60 ms (too little to show in the start-up replay's time).
// Must hold: a quiet optimisation. If the cache cannot be turned on (NODE_DISABLE_COMPILE_CACHE=1, a
// directory that cannot be written) the server starts as before.
// Must not: use a directory other users can write. Node runs what an entry holds (for TypeScript, the
// stripped JavaScript itself) once two checksums match, and does not check who owns the directory, so
// Node's default under the shared temporary directory would let another local user plant code. The
// default is in the installation's own node_modules/.cache; NODE_COMPILE_CACHE, set by the operator,
// chooses another.

import { enableCompileCache, flushCompileCache } from 'node:module';
import { fileURLToPath } from 'node:url';

/** The cache directory unless NODE_COMPILE_CACHE names one: inside the installation, owned by whoever installed it. */
export const DEFAULT_COMPILE_CACHE = fileURLToPath(
  new URL('../../../../node_modules/.cache/node-compile-cache', import.meta.url),
);

/**
 * Turns the cache on in this thread, and in the worker threads started from now on (they inherit
 * NODE_COMPILE_CACHE from the environment). Returns the directory, or undefined if it is off.
 */
export function enableCompileCacheForThreads(defaultDirectory = DEFAULT_COMPILE_CACHE): string | undefined {
  // An empty NODE_COMPILE_CACHE counts as unset, as Node counts it.
  const chosen = process.env.NODE_COMPILE_CACHE || defaultDirectory;
  const { directory } = enableCompileCache(chosen);
  if (directory !== undefined) process.env.NODE_COMPILE_CACHE = chosen;
  return directory;
}

/**
 * Writes what this thread compiled so far (Node writes it at exit otherwise, which a killed process
 * never reaches). Worker threads write theirs when they end (terminated or at the process's exit).
 */
export function persistCompileCache(): void {
  flushCompileCache();
}
