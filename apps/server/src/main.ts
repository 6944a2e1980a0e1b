// The server's entry: V8's settings (platform/v8-tuning.ts) and Node's compile cache first
// (platform/compile-cache.ts), then the server itself (serve.ts), loaded only once both are in place so
// that its modules are compiled under them.

import { enableCompileCacheForThreads, persistCompileCache } from './platform/compile-cache.ts';
import { tuneV8 } from './platform/v8-tuning.ts';

tuneV8();
enableCompileCacheForThreads();
await import('./serve.ts');
persistCompileCache();
