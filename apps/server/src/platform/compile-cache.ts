// Owns turning on Node's on-disk compile cache for the server and the worker threads it starts (the
// journal's page scan at start-up, the snapshot worker). Why: every start compiled each TypeScript
// module again, in every thread. Measured, five alternated starts each: the server answered /health
// after 625-858 ms with the cache, 930-958 ms without (polled every 100 ms); a page-scan worker's first
// page came after ~30 ms instead of ~50-60 ms (too little to show in the start-up replay's time).
// Must hold: a quiet optimisation. If the cache cannot be turned on (NODE_DISABLE_COMPILE_CACHE=1, a
// directory that cannot be written) the server starts as before; NODE_COMPILE_CACHE chooses the
// directory (default: Node's, under the system's temporary directory).

import { enableCompileCache, flushCompileCache } from 'node:module';

/**
 * Turns the cache on in this thread, and in the worker threads started from now on (they inherit
 * NODE_COMPILE_CACHE from the environment). Returns the directory, or undefined if it is off.
 */
export function enableCompileCacheForThreads(): string | undefined {
  const { directory } = enableCompileCache();
  if (directory !== undefined) process.env.NODE_COMPILE_CACHE ??= directory;
  return directory;
}

/** Writes what was compiled so far (Node writes it at exit otherwise, which a killed process never reaches). */
export function persistCompileCache(): void {
  flushCompileCache();
}
