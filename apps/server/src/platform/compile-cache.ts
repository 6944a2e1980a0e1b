// Owns turning on Node's on-disk compile cache for the server and the worker threads it starts (the
// journal's page scan at start-up, the snapshot worker). Why: every start compiled each TypeScript
// module again, in every thread. Measured with the cache warm: the server answered /health after
// ~620 ms instead of 840-1,050 ms, and a page-scan worker delivered its first page after ~30 ms instead
// of ~50-60 ms, which start-up replay waits for.
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
