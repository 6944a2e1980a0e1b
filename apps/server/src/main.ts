// The server's entry: Node's compile cache first (platform/compile-cache.ts), then the server itself
// (serve.ts), loaded only once the cache is on so that its modules use it.

import { enableCompileCacheForThreads, persistCompileCache } from './platform/compile-cache.ts';

enableCompileCacheForThreads();
await import('./serve.ts');
persistCompileCache();
