// Owns the price model shared by the live simulator and history generation: per-instrument parameters and one
// step of log-price (factor × beta + own GARCH diffusion + jumps + overnight gap), clamped to the price band.
// Must hold: a step depends only on its inputs and the instrument's own seeded stream; prices are log(ticks).
// Must not: read users' orders or positions, the clock, Math.random or anything outside its arguments.

import { calendarOf } from './calendar.ts';
import type { ExchangeId } from './calendar-data.ts';
import { type Instrument, instrumentById } from './instrument.ts';
import { decimalToTicks } from './price.ts';
import { nextNormal, nextUniform, type RngState, rngFor } from './prng.ts';

/** The model's constants (decision 0004 explains each). */
export const MODEL = {
  /** GARCH(1,1) runs on fixed 5-minute bars of wall-clock time, so it does not depend on the step size. */
  barMs: 300_000,
  /** Per-bar GARCH weights: persistence 0.998 per bar ≈ a half-life of about 4.6 trading days. */
  garchAlpha: 0.015,
  garchBeta: 0.983,
  /** The variance stays within [1/16, 16] × its long-run level; one bar's input is capped at 50×. */
  varianceFloor: 1 / 16,
  varianceCap: 16,
  barInputCap: 50,
  /** Share of a day's own variance that arrives overnight (first step of a session after a gap). */
  overnightShare: 0.15,
  /** Jumps per year during sessions (half as many more at the open after a gap), and their size in log terms. */
  jumps: {
    stock: { perYear: 4, mean: 0, std: 0.035 },
    index: { perYear: 1.5, mean: -0.01, std: 0.02 },
    crypto: { perYear: 10, mean: 0, std: 0.04 },
    fx: { perYear: 2, mean: 0, std: 0.01 },
  },
  /** Log drift per year, for instruments without a factor (stocks and alts inherit beta × their factor's). */
  rootDriftPerYear: { stock: 0, index: 0.06, crypto: 0, fx: 0 },
  /** Lognormal noise of each step's volume (sigma of log volume). */
  volumeNoise: 0.6,
  /** Amplitude of the 24-hour activity cycle of crypto and FX (peak at 15:00 UTC). */
  diurnalAmplitude: 0.35,
} as const;

export type ModelParams = {
  readonly id: string;
  readonly exchange: ExchangeId;
  readonly factorId: string | null;
  readonly beta: number;
  /** Long-run annual variance of the own diffusion part (total minus factor minus jumps); 0 for a mirror. */
  readonly ownVariance: number;
  readonly driftPerYear: number;
  readonly jumpPerYear: number;
  readonly jumpMean: number;
  readonly jumpStd: number;
  readonly overnightShare: number;
  readonly bandPct: number | null;
  readonly sessionsPerYear: number;
  readonly profile: 'u_shape' | 'diurnal';
  /** Typical lots per session; 0 for indices and FX (they print no volume). */
  readonly avgDailyLots: number;
  readonly startTicks: number;
};

export type ModelState = {
  /** Natural log of the price in ticks. */
  logPrice: number;
  /** Current annual variance of the own diffusion part. */
  variance: number;
  barStartMs: number;
  barReturn: number;
  barUnits: number;
  tradingDay: string | null;
  prevCloseLog: number;
  /** The last step: its time, realised log return and variance (dependents read these). */
  lastStepMs: number;
  lastReturn: number;
  lastStepVariance: number;
  /** The part of the last return that happened before the open (overnight gap), 0 inside a session. */
  lastGap: number;
  rng: RngState;
};

export type StepSession = { readonly tradingDay: string; readonly openMs: number; readonly closeMs: number };

const U_SHAPE_MEAN = 0.45 + 1.6 / 7 + 2 / 7;

export function modelParamsOf(instrument: Instrument): ModelParams {
  const calendar = calendarOf(instrument.exchange);
  const factor = instrument.factor ? instrumentById(instrument.factor.id) : null;
  const beta = instrument.factor?.beta ?? 0;
  const factorVariance = factor ? beta * beta * factor.annualVol * factor.annualVol : 0;
  const ownTotal = Math.max(0, instrument.annualVol * instrument.annualVol - factorVariance);
  const jumps = MODEL.jumps[instrument.kind];
  const hasOwnPart = ownTotal > 1e-12;
  const jumpVariance = hasOwnPart ? jumps.perYear * 1.5 * (jumps.mean * jumps.mean + jumps.std * jumps.std) : 0;
  const startTicks = decimalToTicks(instrument.startPrice, instrument.tickSize);
  if (startTicks === null || startTicks <= 0) throw new Error(`start price of ${instrument.id} is off its tick grid`);
  // Floats are fine here: this only sizes simulated volume, it is never a stored amount.
  const unitsPerLot = Number(instrument.lotSize);
  const price = Number(instrument.startPrice);
  return {
    id: instrument.id,
    exchange: instrument.exchange,
    factorId: factor?.id ?? null,
    beta,
    ownVariance: hasOwnPart ? Math.max(ownTotal * 0.2, ownTotal - jumpVariance) : 0,
    driftPerYear: factor ? 0 : MODEL.rootDriftPerYear[instrument.kind],
    jumpPerYear: hasOwnPart ? jumps.perYear : 0,
    jumpMean: jumps.mean,
    jumpStd: jumps.std,
    overnightShare: calendar.hasOvernightGap ? MODEL.overnightShare : 0,
    bandPct: instrument.priceBandPct,
    sessionsPerYear: calendar.sessionsPerYear,
    profile: calendar.timeZone === 'UTC' ? 'diurnal' : 'u_shape',
    avgDailyLots: instrument.avgDailyValue > 0 ? instrument.avgDailyValue / price / unitsPerLot : 0,
    startTicks,
  };
}

export function initialModelState(
  params: ModelParams,
  seed: string | number,
  startTicks = params.startTicks,
): ModelState {
  const logPrice = Math.log(startTicks);
  return {
    logPrice,
    variance: params.ownVariance,
    barStartMs: -1,
    barReturn: 0,
    barUnits: 0,
    tradingDay: null,
    prevCloseLog: logPrice,
    lastStepMs: -1,
    lastReturn: 0,
    lastStepVariance: 0,
    lastGap: 0,
    rng: rngFor(seed, params.id),
  };
}

/** Relative activity at `timeMs` (mean 1 over a session): U-shaped in a session, a 24-hour cycle otherwise. */
export function activityWeight(params: ModelParams, timeMs: number, session: StepSession): number {
  if (params.profile === 'diurnal') {
    const hour = (((timeMs % 86_400_000) + 86_400_000) % 86_400_000) / 3_600_000;
    return 1 + MODEL.diurnalAmplitude * Math.cos((2 * Math.PI * (hour - 15)) / 24);
  }
  const x = Math.min(1, Math.max(0, (timeMs - session.openMs) / (session.closeMs - session.openMs)));
  return (0.45 + 1.6 * (1 - x) ** 6 + 2 * x ** 6) / U_SHAPE_MEAN;
}

/**
 * Advances one instrument by one step of `stepMs` ending inside `session` at `timeMs`. `factor` is the
 * factor's state, already stepped at this time (or null). Updates `state` in place; returns nothing: the
 * realised return and step variance are left in state.lastReturn / state.lastStepVariance.
 */
export function stepModel(
  params: ModelParams,
  state: ModelState,
  timeMs: number,
  stepMs: number,
  session: StepSession,
  factor: ModelState | null,
): void {
  let isSessionStart = false;
  if (state.tradingDay !== session.tradingDay) {
    isSessionStart = state.tradingDay !== null;
    state.tradingDay = session.tradingDay;
    state.prevCloseLog = state.logPrice;
  }
  const barStartMs = timeMs - (timeMs % MODEL.barMs);
  if (barStartMs !== state.barStartMs) {
    if (state.barUnits > 0) updateVariance(params, state);
    state.barStartMs = barStartMs;
    state.barReturn = 0;
    state.barUnits = 0;
  }

  const weight = activityWeight(params, timeMs, session);
  const dtYears = stepMs / ((session.closeMs - session.openMs) * params.sessionsPerYear);
  let own = 0;
  let gap = 0;
  let ownVariance = 0;
  if (params.ownVariance > 0) {
    const units = (1 - params.overnightShare) * dtYears * weight;
    const diffusion = Math.sqrt(state.variance * units) * nextNormal(state.rng);
    let jumpProbability = params.jumpPerYear * dtYears;
    state.barReturn += diffusion;
    state.barUnits += units;
    ownVariance = state.variance * units;
    own = diffusion + params.driftPerYear * dtYears;
    if (isSessionStart && params.overnightShare > 0) {
      const overnightUnits = params.overnightShare / params.sessionsPerYear;
      gap = Math.sqrt(state.variance * overnightUnits) * nextNormal(state.rng);
      state.barReturn += gap;
      state.barUnits += overnightUnits;
      own += gap;
      jumpProbability += (0.5 * params.jumpPerYear) / params.sessionsPerYear;
    }
    if (nextUniform(state.rng) < jumpProbability) own += params.jumpMean + params.jumpStd * nextNormal(state.rng);
  } else if (params.factorId === null) {
    own = params.driftPerYear * dtYears;
  }

  const factorStepped = factor !== null && factor.lastStepMs === timeMs;
  const fromFactor = factorStepped ? params.beta * factor.lastReturn : 0;
  const factorVariance = factorStepped ? params.beta * params.beta * factor.lastStepVariance : 0;
  if (factorStepped) gap += params.beta * factor.lastGap;
  let next = state.logPrice + fromFactor + own;
  if (params.bandPct !== null) {
    const lower = state.prevCloseLog + Math.log(1 - params.bandPct / 100);
    const upper = state.prevCloseLog + Math.log(1 + params.bandPct / 100);
    next = Math.min(upper, Math.max(lower, next));
  }
  state.lastReturn = next - state.logPrice;
  state.lastStepVariance = ownVariance + factorVariance;
  state.lastStepMs = timeMs;
  state.lastGap = gap;
  state.logPrice = next;
}

function updateVariance(params: ModelParams, state: ModelState): void {
  const longRun = params.ownVariance;
  const input = Math.min((state.barReturn * state.barReturn) / state.barUnits, MODEL.barInputCap * longRun);
  const next =
    (1 - MODEL.garchAlpha - MODEL.garchBeta) * longRun + MODEL.garchAlpha * input + MODEL.garchBeta * state.variance;
  state.variance = Math.min(MODEL.varianceCap * longRun, Math.max(MODEL.varianceFloor * longRun, next));
}

/**
 * Lots traded in one step: the session's typical volume × activity × how agitated the market is, with noise
 * drawn from `rng` (the simulator passes the instrument's stream, history a separate one).
 */
export function stepVolumeLots(
  params: ModelParams,
  state: ModelState,
  timeMs: number,
  stepMs: number,
  session: StepSession,
  rng: RngState,
): number {
  if (params.avgDailyLots === 0) return 0;
  const weight = activityWeight(params, timeMs, session);
  const agitation = params.ownVariance > 0 ? Math.sqrt(state.variance / params.ownVariance) : 1;
  const noise = Math.exp(MODEL.volumeNoise * nextNormal(rng) - (MODEL.volumeNoise * MODEL.volumeNoise) / 2);
  const expected = (params.avgDailyLots * stepMs) / (session.closeMs - session.openMs);
  return Math.max(1, Math.round(expected * weight * agitation * noise));
}
