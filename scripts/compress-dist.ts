// After a front-end build: writes .br and .gz beside every text asset of the given dist folders, so
// the server sends pre-compressed files (@fastify/static `preCompressed`) without compressing per
// request. Usage: node scripts/compress-dist.ts <dist>...

import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|webmanifest|txt|map)$/;
const MIN_BYTES = 1024;

function* files(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* files(path);
    else yield path;
  }
}

let written = 0;
for (const dist of process.argv.slice(2)) {
  for (const path of files(dist)) {
    if (!COMPRESSIBLE.test(path)) continue;
    const raw = readFileSync(path);
    if (raw.length < MIN_BYTES) continue;
    writeFileSync(`${path}.gz`, gzipSync(raw, { level: 9 }));
    writeFileSync(
      `${path}.br`,
      brotliCompressSync(raw, {
        params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: raw.length },
      }),
    );
    written += 1;
  }
}
console.log(`compressed ${written} files (.br and .gz)`);
