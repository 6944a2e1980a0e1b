// Time as a port: the server asks a Clock, so tests can move time (sessions expiring, T+1 settlement).

export type Clock = { now(): number };

export const systemClock: Clock = { now: () => Date.now() };

/**
 * Real time shifted to start at `startMs`, which tests can push forward (browser tests against a
 * running server: "open the market", "move to T+1"). Only with BOURSE_TEST_HOOKS in paper mode.
 */
export function shiftedClock(startMs: number, realNow: () => number = Date.now): Clock & { advance(ms: number): void } {
  let offset = startMs - realNow();
  return {
    now: () => realNow() + offset,
    advance: (ms) => {
      offset += ms;
    },
  };
}

/** A clock tests set and advance by hand. */
export function manualClock(
  startMs = Date.UTC(2026, 0, 5, 4, 0),
): Clock & { advance(ms: number): void; set(ms: number): void } {
  let t = startMs;
  return {
    now: () => t,
    advance: (ms) => {
      t += ms;
    },
    set: (ms) => {
      t = ms;
    },
  };
}
