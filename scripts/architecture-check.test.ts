// The core's purity scan finds each kind of impure call in code and ignores it in comments.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { impureUses } from './architecture-check.ts';

test('clock, randomness, environment and timers are found in code, not in comments', () => {
  const file = join(mkdtempSync(join(tmpdir(), 'arch-')), 'core.ts');
  writeFileSync(
    file,
    [
      '// Must not: read the clock (no Date.now()).',
      'const at = new Date(ms);',
      'const now = Date.now();',
      'const r = Math.random();',
      'const e = process.env.X;',
      'setTimeout(() => 0, 1);',
      ' * also Math.random() in a doc comment',
    ].join('\n'),
  );
  expect(impureUses([file]).map((line) => line.replace(/^.*:(\d+): /, '$1 '))).toEqual([
    '3 reads the clock (Date.now)',
    '4 uses unseeded randomness (Math.random)',
    '5 reads the process (process.env, argv, hrtime, cwd)',
    '6 schedules work (timers)',
  ]);
});
