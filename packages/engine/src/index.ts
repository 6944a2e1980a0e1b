// Public face of @bourse/engine: the deterministic trading core (ledger, books, matching, commands, events).
// Must hold: everything exported is pure given its inputs; time, ids and seeds come in as arguments.
// Must not: export internals that would let callers change state other than through Engine.apply().

export { ALLOTMENT_BATCH_MAX, type AllotmentEntry, allotmentLockId, type SettleAllotment } from './allotments.ts';
// A family's command types come with the Command union; name one with Extract<Command, { type: … }>.
export type { RegisterAsset } from './assets.ts';
export type { CommandFamily } from './command-family.ts';
export {
  type AmendOrder,
  type CancelOrder,
  COMMAND_TYPES,
  type Command,
  type CommandType,
  canonicalJson,
  decodeCommand,
  decodeParsedLine,
  encodeCommand,
  encodeJournalLine,
  JOURNAL_NEW,
  JOURNAL_PAGE_PARSER,
  JOURNAL_REPEAT,
  JOURNAL_UNMARKED,
  type JournalMark,
  journalMark,
  type ParsedJournalPage,
  type PlaceOrder,
  parseJournalPage,
  type SetTradingStatus,
  type TimeInForce,
  type TriggerSpec,
} from './commands.ts';
export { type Convert, convertTransferIds } from './convert.ts';
export {
  type BalanceView,
  Engine,
  type MarketView,
  type OrderView,
  type SettlementLockView,
} from './engine.ts';
export { type ApplyResult, DEFAULT_CONFIG, type EngineConfig } from './engine-state.ts';
export {
  type AssetRegistered,
  type AutoDeleveraged,
  type EngineEvent,
  eventToJson,
  type FundingApplied,
  type HoldPlaced,
  type HoldReleased,
  type InstrumentFeesSet,
  type InstrumentRegistered,
  type LeverageSet,
  type OrderPlaced,
  type OrderStatus,
  type OrderUpdated,
  type OrderUpdateReason,
  type PositionChanged,
  type PositionChangeReason,
  type PositionLiquidated,
  type PriceSet,
  type Trade,
  type TransferPosted,
} from './events.ts';
export type { Deposit, HoldFunds, PlatformTransfer, PostHold, VoidHold, WalletTransfer } from './funds.ts';
export {
  buyHoldFor,
  feeOf,
  type Instrument,
  type InstrumentKind,
  type InstrumentSpec,
  lotsToQuantity,
  parseInstrument,
  priceToTicks,
  quantityToLots,
  ticksToPrice,
  tradeNotional,
} from './instrument.ts';
export { fromJsonSafe, type JsonValue, toJsonSafe } from './json-codec.ts';
export {
  type Account,
  accountKey,
  assetOfAccountKey,
  type Hold,
  Ledger,
  ownerOfAccountKey,
  type PlatformAccountName,
  platformOwner,
  TRANSFER_CAUSES,
  type TransferCause,
  WALLETS,
  type Wallet,
} from './ledger.ts';
export type { LiquidationWatch } from './liquidation-watch.ts';
export {
  type BuyOption,
  type CloseOption,
  OPTION_SETTLEMENT_BATCH_MAX,
  OPTIONS_MAKER,
  type OptionPosition,
  type OptionSettlementEntry,
  type SettleOptions,
} from './options.ts';
export {
  BUY,
  FILL_STP_CANCEL,
  FILL_TRADE,
  NO_OWNER,
  OrderBook,
  SELL,
  type Side,
  STP_CANCEL_BOTH,
  STP_CANCEL_RESTING,
  STP_CANCEL_TAKER,
  type StpMode,
} from './order-book.ts';
export {
  bankruptcyPrice,
  fundingRate,
  initialMargin,
  liquidationPrice,
  maintenanceMargin,
  type PerpetualSpec,
  type PerpetualTerms,
  parsePerpetualTerms,
  type Tier,
  type TierSpec,
} from './perpetual-math.ts';
export type { AdjustMargin, ApplyFunding, Liquidate, PositionView, SetLeverage } from './positions.ts';
export type { RegisterInstrument, SetInstrumentFees, SetMarkPrice, SetReferencePrice } from './reference-data.ts';
export { ENGINE_REJECTIONS, type EngineRejection, isEngineRejection } from './rejections.ts';
export {
  EventReader,
  LoggedResult,
  MIN_RESULT_RETENTION,
  minorText,
  RECORD_EVENT,
  RECORD_FILL,
  RECORD_ORDER_PLACED,
  RECORD_ORDER_UPDATED,
  RECORD_TRADE,
  RECORD_TRANSFER,
} from './result-log.ts';
export type { SettleTrades } from './settlement-locks.ts';
export { type EngineSnapshot, SNAPSHOT_VERSION } from './snapshot.ts';
export { hashSnapshot, STATE_HASH_PREFIX } from './state-hash.ts';
export { isOutsideBand } from './trading.ts';
