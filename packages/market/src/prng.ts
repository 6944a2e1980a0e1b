// Owns the seeded pseudo-random numbers of the simulator: xoshiro128** streams keyed by (seed, name).
// Must hold: the same seed and key give the same sequence on every run; the state is four plain numbers.
// Must not: touch Math.random, the clock or any global state.

/** xoshiro128** state: four unsigned 32-bit words, never all zero. Plain data so it can be snapshotted. */
export type RngState = [number, number, number, number];

/** cyrb128: a 128-bit string hash, used only to spread a seed and a stream name over the state. */
function hash128(text: string): RngState {
  let h1 = 1779033703;
  let h2 = 3144134277;
  let h3 = 1013904242;
  let h4 = 2773480762;
  for (let i = 0; i < text.length; i++) {
    const k = text.charCodeAt(i);
    h1 = h2 ^ Math.imul(h1 ^ k, 597399067);
    h2 = h3 ^ Math.imul(h2 ^ k, 2869860233);
    h3 = h4 ^ Math.imul(h3 ^ k, 951274213);
    h4 = h1 ^ Math.imul(h4 ^ k, 2716044179);
  }
  h1 = Math.imul(h3 ^ (h1 >>> 18), 597399067);
  h2 = Math.imul(h4 ^ (h2 >>> 22), 2869860233);
  h3 = Math.imul(h1 ^ (h3 >>> 17), 951274213);
  h4 = Math.imul(h2 ^ (h4 >>> 19), 2716044179);
  h1 ^= h2 ^ h3 ^ h4;
  h2 ^= h1;
  h3 ^= h1;
  h4 ^= h1;
  return [h1 >>> 0, h2 >>> 0, h3 >>> 0, h4 >>> 0];
}

/** The state of the stream named `key` under `seed` (e.g. seed "demo-2026", key "NSE:RELIANCE"). */
export function rngFor(seed: string | number, key: string): RngState {
  const state = hash128(`${String(seed)}\u0000${key}`);
  if ((state[0] | state[1] | state[2] | state[3]) === 0) state[0] = 1;
  // A few rounds decorrelate streams whose names differ in one character.
  for (let i = 0; i < 8; i++) nextUint32(state);
  return state;
}

/** xoshiro128**: advances `s` in place and returns an unsigned 32-bit integer. */
export function nextUint32(s: RngState): number {
  const result = Math.imul(rotl(Math.imul(s[1], 5), 7), 9) >>> 0;
  const t = s[1] << 9;
  s[2] ^= s[0];
  s[3] ^= s[1];
  s[1] ^= s[2];
  s[0] ^= s[3];
  s[2] ^= t;
  s[3] = rotl(s[3], 11);
  s[0] >>>= 0;
  s[1] >>>= 0;
  s[2] >>>= 0;
  s[3] >>>= 0;
  return result;
}

function rotl(x: number, k: number): number {
  return ((x << k) | (x >>> (32 - k))) >>> 0;
}

/** Uniform in (0, 1): never 0, so log(u) is always finite. */
export function nextUniform(s: RngState): number {
  return (nextUint32(s) + 0.5) / 4294967296;
}

/** Standard normal by Box-Muller (the cosine half only, so the state stays four words). */
export function nextNormal(s: RngState): number {
  const u1 = nextUniform(s);
  const u2 = nextUniform(s);
  return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
}
