import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { tuneV8, V8_FLAGS } from './v8-tuning.ts';

const MODULE = new URL('./v8-tuning.ts', import.meta.url).href;

/**
 * In a fresh process with V8's inlining trace on: tuneV8(), then a hot loop calling a function whose
 * bytecode (~25 statements) is over V8's default limit for one inlined callee (460 bytes) and under ours.
 */
const PROBE = `
import { tuneV8 } from ${JSON.stringify(MODULE)};
tuneV8();
const body = Array.from({ length: 25 }, (_, i) => \`x = (x * \${i + 3} + y) | 0; if (x === \${i}) y += 1;\`).join('\\n');
const callee = new Function('x', 'y', \`\${body}\\nreturn x;\`);
function caller(n) { let s = 0; for (let i = 0; i < n; i++) s = (s + callee(i, s)) | 0; return s; }
for (let k = 0; k < 200; k++) caller(10_000);
`;

function inliningTrace(tuning: string | undefined): string {
  const run = spawnSync(process.execPath, ['--trace-turbo-inlining', '--input-type=module', '-e', PROBE], {
    encoding: 'utf8',
    env: { ...process.env, BOURSE_V8_TUNING: tuning },
    timeout: 15_000,
  });
  expect(run.status, run.stderr).toBe(0);
  return run.stdout;
}

describe('V8 tuning', () => {
  it('makes V8 inline a callee its default budget refuses, unless turned off', () => {
    expect(inliningTrace(undefined)).toMatch(/^Inlining .* into .*caller/m);
    const off = inliningTrace('off');
    // Without it the callee is considered and refused: the probe does reach the inliner.
    expect(off).toMatch(/Cannot consider .* for inlining/);
    expect(off).not.toMatch(/^Inlining /m);
  });

  it('names flags this V8 knows (setFlagsFromString ignores unknown ones silently; the command line does not)', () => {
    for (const flag of V8_FLAGS) {
      const run = spawnSync(process.execPath, [flag, '-e', '0'], { encoding: 'utf8', timeout: 15_000 });
      expect(run.status, `${flag}: ${run.stderr}`).toBe(0);
    }
    const unknown = spawnSync(process.execPath, ['--no-such-v8-flag-at-all=1', '-e', '0'], { encoding: 'utf8' });
    expect(unknown.status).not.toBe(0);
  });

  it('sets nothing when BOURSE_V8_TUNING is off', () => {
    // (Turned on, it changes this test process's V8: the first test checks that in a child.)
    expect(tuneV8({ BOURSE_V8_TUNING: 'off' })).toEqual([]);
  });
});
