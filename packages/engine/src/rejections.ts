// Owns the closed list of named outcomes the engine answers instead of throwing for expected failures.
// Must hold: codes are stable snake_case strings; the contract package mirrors this list for translation.
// Must not: grow silently: a new code is a contract change (add it here, then to the catalogue).

export const ENGINE_REJECTIONS = [
  'invalid_command',
  'command_id_reused',
  'transfer_id_reused',
  'invalid_user',
  'invalid_amount',
  'unknown_asset',
  'invalid_asset',
  'asset_exists',
  'insufficient_balance',
  'hold_not_found',
  'hold_amount_exceeded',
  'same_account',
  'instrument_exists',
  'invalid_instrument',
  'unknown_instrument',
  'instrument_halted',
  'invalid_price',
  'invalid_quantity',
  'price_not_on_tick',
  'quantity_not_on_lot',
  'quantity_below_minimum',
  'quantity_above_maximum',
  'price_outside_band',
  'post_only_would_take',
  'fok_not_fillable',
  'no_liquidity',
  'invalid_trigger_price',
  'open_order_limit',
  'order_not_found',
  'order_not_amendable',
  'amend_no_change',
] as const;

export type EngineRejection = (typeof ENGINE_REJECTIONS)[number];

const REJECTION_SET: ReadonlySet<string> = new Set(ENGINE_REJECTIONS);

export function isEngineRejection(code: string): code is EngineRejection {
  return REJECTION_SET.has(code);
}
