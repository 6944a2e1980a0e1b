// Owns the closed list of named outcomes the engine answers instead of throwing for expected failures.
// Must hold: codes are stable snake_case strings; the contract package mirrors this list for translation.
// Must not: grow silently: a new code is a contract change (add it here or in its family, then to the
// catalogue in contract/src/errors.ts).

import { FAMILIES, type FamilyRejection } from './families.ts';

/** The rejections of the core commands; each family adds its own (families.ts). */
const CORE_REJECTIONS = [
  'invalid_command',
  'command_id_reused',
  'transfer_id_reused',
  'invalid_user',
  'invalid_amount',
  'unknown_asset',
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
  'reduce_only_rejected',
] as const;

export type EngineRejection = (typeof CORE_REJECTIONS)[number] | FamilyRejection;

export const ENGINE_REJECTIONS: readonly EngineRejection[] = [
  ...CORE_REJECTIONS,
  ...FAMILIES.flatMap((family): readonly FamilyRejection[] => family.rejections),
];

const REJECTION_SET: ReadonlySet<string> = new Set(ENGINE_REJECTIONS);

export function isEngineRejection(code: string): code is EngineRejection {
  return REJECTION_SET.has(code);
}
