// Owns the V8 settings the server runs with: a larger inlining budget for V8's optimising compiler.
// Why: the engine's hot path is a few large functions (apply, placing and matching an order, settling a
// fill) that call many small ones with many arguments (the result log's writers take up to 22). With
// V8's defaults (460 bytecodes a callee, 920 in all per optimised function) most of those calls stayed
// calls. Measured on the engine bench (docs/decisions/0011-v8-inlining-budget.md): 7,815 → 6,476
// JavaScript instructions a command (callgrind, steady state), and in 8 of 8 pairs run side by side,
// one on each core, 4-28% more commands a second with the flags than without (four pairs 4-6%, four
// 15-28%).
// Must hold: called before the code it is for gets optimised (the first thing an entry does); V8 reads
// the flags when it compiles, and they are the process's, so worker threads have them too.
// Must not: change what any code computes (inlining changes how fast, not what).

import { setFlagsFromString } from 'node:v8';

/** The flags, as on V8's command line. */
export const V8_FLAGS: readonly string[] = [
  '--max-inlined-bytecode-size=1000',
  '--max-inlined-bytecode-size-cumulative=4000',
];

/**
 * Sets V8_FLAGS for this process unless BOURSE_V8_TUNING is `off` (to compare with V8's defaults, or
 * rule the setting out when something behaves oddly). Answers the flags it set.
 */
export function tuneV8(env: NodeJS.ProcessEnv = process.env): readonly string[] {
  if (env.BOURSE_V8_TUNING === 'off') return [];
  for (const flag of V8_FLAGS) setFlagsFromString(flag);
  return V8_FLAGS;
}
