// `npm start`: builds the customer app and the staff console when their sources are newer than the
// build, then runs the server in paper mode on the embedded database (DATA_DIR, default .data) with
// demo data. PORT, DATA_DIR, DATABASE_URL and MODE are honoured.

import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('../', import.meta.url).pathname;

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

for (const app of ['web', 'admin']) {
  const dir = join(root, 'apps', app);
  const built = join(dir, 'dist', 'index.html');
  const stale = !existsSync(built) || newestMtime(join(dir, 'src')) > statSync(built).mtimeMs;
  if (stale) {
    console.log(`Building apps/${app}...`);
    const result = spawnSync('npm', ['run', 'build', '-w', `@bourse/${app}`], { cwd: root, stdio: 'inherit' });
    if (result.status !== 0) process.exit(result.status ?? 1);
  }
}

process.env.DATA_DIR ??= join(root, '.data');
process.env.MODE ??= 'paper';
await import('../apps/server/src/main.ts');
