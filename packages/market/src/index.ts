// Public face of @bourse/market: instrument catalogue, exchange calendars, the PriceFeed port with its
// simulator and JSON-polling adapters, candles and history. Must hold: everything is deterministic given its
// arguments (time and seeds come in). Must not: touch the clock, randomness, network, file system or env.

export {
  addTradingDays,
  calendarOf,
  currentOrNextSession,
  hasHolidayData,
  isNewYorkOnDaylightTime,
  isOpen,
  isTradingDay,
  nextClose,
  nextOpen,
  type Session,
  type SessionPhase,
  sessionAt,
  sessionOn,
  sessionsBetween,
  settlementDayOf,
  tradingDayOf,
} from './calendar.ts';
export { CALENDARS, EXCHANGE_IDS, type ExchangeCalendar, type ExchangeId } from './calendar-data.ts';
export {
  aggregateCandles,
  aggregateTicks,
  applyTick,
  bucketEndMs,
  bucketStartMs,
  type Candle,
  INTERVALS,
  type Interval,
  intervalMs,
  isInterval,
} from './candles.ts';
export {
  type FeedProblem,
  type FeedProblemCode,
  type FeedUpdate,
  type PriceFeed,
  type Quote,
  simulatorFeed,
  type Tick,
} from './feed.ts';
export {
  generateHistories,
  generateHistory,
  HISTORY_SPAN_DAYS,
  type HistoryRequest,
  type HistoryWindow,
} from './history.ts';
export {
  addInstrument,
  type BandPct,
  type Country,
  factorChain,
  findBySymbol,
  findInstrument,
  forgetInstrumentsAddedAtRunTime,
  INSTRUMENTS,
  type Instrument,
  type InstrumentFilter,
  type InstrumentKind,
  indexMembers,
  instrumentById,
  isAddedAtRunTime,
  listInstruments,
  type QuoteCurrency,
} from './instrument.ts';
export {
  createJsonPollingFeed,
  type InstrumentLookup,
  type JsonPollingFeedOptions,
  type ParsedTrades,
  parseTradesResponse,
  TRADES_FORMAT,
} from './json-polling-feed.ts';
export { lastSessionIfClosed, lastSessionQuotes } from './last-session.ts';
export { magnitudeOf, type NewCoin, type NewStock, newCoinInstrument, newStockInstrument } from './listing.ts';
export { MODEL } from './model.ts';
export {
  isExpiryDay,
  isLastTradingDayOfMonth,
  OPTION_UNDERLYINGS,
  type OptionExpiry,
  type OptionSeries,
  type OptionUnderlying,
  optionExpiries,
  parseSeriesCode,
  seriesCode,
  strikeStepMinor,
  strikesAround,
} from './options-chain.ts';
export {
  type BlackScholesInput,
  blackScholesPrice,
  breakeven,
  DAYS_PER_YEAR,
  type Greeks,
  greeks,
  intrinsicValue,
  normalCdf,
  type OptionRight,
  quoteMinor,
  YEAR_MS,
} from './options-pricing.ts';
export {
  decimalToSteps,
  decimalToTicks,
  type PriceBand,
  priceBand,
  stepsToDecimal,
  ticksToDecimal,
} from './price.ts';
export {
  createSimulator,
  type MarketSimulator,
  type QuoteState,
  restoreSimulator,
  type SimulatorOptions,
  type SimulatorSnapshot,
  timeZoneOf,
} from './simulator.ts';
export { addDays, localDateOf, offsetMs, zonedParts, zonedTimeToMs } from './time-zone.ts';
