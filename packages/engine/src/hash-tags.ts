// Owns the tags of the state hash's canonical encodings (v2 in 16-bit units, state-hash.ts; v5's orders
// in 32-bit words, order-words.ts) and the fields of an order's record in them: one list, so that the
// two encodings cannot drift apart.

export const NULL = 1;
export const FALSE = 2;
export const TRUE = 3;
export const INT = 4;
export const NUM = 5;
export const STR = 6;
export const ARR = 7;
export const OBJ = 8;
export const KEY = 9;
export const END = 10;
export const ABSENT = 11;
export const OK_RESULT = 12;
export const ORDER = 13;
export const ORDER_PLACED = 14;
export const ORDER_UPDATED = 15;
export const TRADE = 16;
export const TRANSFER_POSTED = 17;

/** The fields of an order in the snapshot's `orders`, in record order (snapshot.ts, OrderSnapshot). */
export const ORDER_FIELDS: readonly string[] = [
  'id',
  'commandId',
  'userId',
  'instrumentId',
  'side',
  'orderType',
  'timeInForce',
  'postOnly',
  'stp',
  'trigger',
  'priceTicks',
  'qtyLots',
  'filledLots',
  'status',
  'holdRemaining',
  'createdMs',
  'where',
  'makerFeeBps',
  'takerFeeBps',
];

/** The fields of an order in the v5 record: v2's, then the after-market mark (which came with v4). */
export const ORDER_FIELDS_V5: readonly string[] = [...ORDER_FIELDS, 'afterMarket'];
