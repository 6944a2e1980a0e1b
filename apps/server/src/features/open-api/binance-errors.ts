// The trading API's rejections in Binance's own shape, numbers and words ({"code":-1022,"msg":…}):
// clients (ccxt, bots) map them to their exception classes by code and message, so the text is
// Binance's, in English, whatever the request's language (docs/decisions/0023).

import type { ErrorCode } from '@bourse/contract';

export class BinanceError extends Error {
  readonly status: number;
  readonly binanceCode: number;
  readonly retryAfterSec: number | undefined;
  constructor(status: number, binanceCode: number, msg: string, retryAfterSec?: number) {
    super(msg);
    this.name = 'BinanceError';
    this.status = status;
    this.binanceCode = binanceCode;
    this.retryAfterSec = retryAfterSec;
  }
}

export const binanceErrors = {
  unknown: () => new BinanceError(500, -1000, 'An unknown error occurred while processing the request.'),
  pathNotFound: () => new BinanceError(404, -1000, 'Path not found.'),
  tooMuchWeight: (limit: number, retryAfterSec: number) =>
    new BinanceError(
      429,
      -1003,
      `Too much request weight used; current limit is ${limit} request weight per 1 MINUTE. Please use WebSocket Streams for live updates to avoid polling the API.`,
      retryAfterSec,
    ),
  timestampOutside: () => new BinanceError(400, -1021, 'Timestamp for this request is outside of the recvWindow.'),
  timestampAhead: () =>
    new BinanceError(400, -1021, "Timestamp for this request was 1000ms ahead of the server's time."),
  badSignature: () => new BinanceError(400, -1022, 'Signature for this request is not valid.'),
  illegalChars: (name: string, legal: string) =>
    new BinanceError(400, -1100, `Illegal characters found in parameter '${name}'; legal range is '${legal}'.`),
  mandatory: (name: string) =>
    new BinanceError(400, -1102, `Mandatory parameter '${name}' was not sent, was empty/null, or malformed.`),
  notRequired: (name: string) => new BinanceError(400, -1106, `Parameter '${name}' sent when not required.`),
  badPrecision: (name: string) => new BinanceError(400, -1111, `Parameter '${name}' has too much precision.`),
  badTimeInForce: () => new BinanceError(400, -1115, 'Invalid timeInForce.'),
  badOrderType: () => new BinanceError(400, -1116, 'Invalid orderType.'),
  badSide: () => new BinanceError(400, -1117, 'Invalid side.'),
  badInterval: () => new BinanceError(400, -1120, 'Invalid interval.'),
  badSymbol: () => new BinanceError(400, -1121, 'Invalid symbol.'),
  badRecvWindow: () => new BinanceError(400, -1131, 'recvWindow must be less than 60000'),
  newOrderRejected: (msg: string) => new BinanceError(400, -2010, msg),
  cancelRejected: () => new BinanceError(400, -2011, 'Unknown order sent.'),
  noSuchOrder: () => new BinanceError(400, -2013, 'Order does not exist.'),
  badApiKeyFormat: () => new BinanceError(401, -2014, 'API-key format invalid.'),
  rejectedKey: () => new BinanceError(401, -2015, 'Invalid API-key, IP, or permissions for action.'),
  filterFailure: (msg: string) => new BinanceError(400, -1013, msg),
  /** The order endpoints while the spot order service is not wired (no fake fills). */
  unsupported: () => new BinanceError(400, -1000, 'Spot orders are not available on this server yet.'),
} as const;

/** Binance's words for the rejections a new order can meet, where Binance has its own. */
const NEW_ORDER_WORDS: Partial<Record<ErrorCode, string>> = {
  insufficient_balance: 'Account has insufficient balance for requested action.',
};

/** A rule the platform applied to a new order, in Binance's shape (-2010, or -1013 for a filter). */
export function newOrderRefusal(code: ErrorCode, englishMessage: string): BinanceError {
  const words = NEW_ORDER_WORDS[code];
  if (words) return binanceErrors.newOrderRejected(words);
  if (/tick|lot|notional|quantity|price/.test(code))
    return binanceErrors.filterFailure(`Filter failure: ${englishMessage}`);
  return binanceErrors.newOrderRejected(englishMessage);
}
