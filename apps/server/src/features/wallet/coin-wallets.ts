// The crypto side of the wallet: POST /coin/assets (both coin wallets, each coin valued in USDT at the
// simulator's reference price, with totals) and POST /coin/transfer (between the customer's own spot and
// contract wallets: free, instant, one engine `wallet_transfer`, idempotent by the client's id).
// Must hold: amounts exact (bigint inside, decimal strings out); a refused transfer moves nothing.

import { randomUUID } from 'node:crypto';
import type { CoinAssetsView, CoinBalanceView, CoinTransferView, CoinWallet } from '@bourse/contract';
import { COIN_WALLETS } from '@bourse/contract';
import { formatDecimal, tryParseDecimal } from '@bourse/money';
import type { TradingEngine } from '../../engine-host/trading-engine.ts';
import { AppError } from '../../http/app-error.ts';
import { coins, isCoin, USDT, usdtPrice } from '../markets/reference-prices.ts';
import type { MarketData } from '../markets/service.ts';

/** USDT values are shown with two decimals (cents of a dollar), rounded down. */
const VALUE_DECIMALS = 2;

/** A transfer's engine id: the client's key makes a retry the same command (and the same ledger transfer). */
export function coinTransferId(userId: number, clientId: string | undefined): string {
  return `coin-transfer:${userId}:${clientId ?? randomUUID()}`;
}

export class CoinWallets {
  readonly #engine: TradingEngine;
  readonly #market: MarketData;
  readonly #virtual: boolean;
  constructor(deps: { engine: TradingEngine; market: MarketData; virtual: boolean }) {
    this.#engine = deps.engine;
    this.#market = deps.market;
    this.#virtual = deps.virtual;
  }

  #scale(asset: string): number {
    const scale = this.#engine.state.asset(asset)?.scale;
    if (scale === undefined) throw new AppError('unknown_asset');
    return scale;
  }

  /** `minor` of `asset` in USDT minor units at the reference price, rounded down (0 when not priced). */
  #valueUsdt(asset: string, minor: bigint, usdtScale: number): bigint {
    if (asset === USDT) return minor;
    const price = usdtPrice(this.#market, asset);
    const parsed = price && tryParseDecimal(price.price, usdtScale);
    if (!parsed?.ok) return 0n;
    return (minor * parsed.minor) / 10n ** BigInt(this.#scale(asset));
  }

  assets(userId: number): CoinAssetsView {
    const owner = String(userId);
    const usdtScale = this.#scale(USDT);
    const totals: Record<CoinWallet, bigint> = { spot: 0n, contract: 0n };
    const lists: Record<CoinWallet, CoinBalanceView[]> = { spot: [], contract: [] };
    const fmtValue = (minor: bigint) => formatDecimal(minor, usdtScale, { decimals: VALUE_DECIMALS, rounding: 'down' });
    for (const wallet of COIN_WALLETS) {
      for (const asset of coins()) {
        const b = this.#engine.state.balance(owner, wallet, asset);
        // USDT is always listed; another coin once the wallet has ever held some.
        if (asset !== USDT && b.balance === 0n && b.held === 0n) continue;
        const scale = this.#scale(asset);
        const value = this.#valueUsdt(asset, b.balance, usdtScale);
        totals[wallet] += value;
        lists[wallet].push({
          wallet,
          asset,
          balance: formatDecimal(b.balance, scale),
          held: formatDecimal(b.held, scale),
          available: formatDecimal(b.available, scale),
          valueUsdt: fmtValue(value),
        });
      }
    }
    return {
      spot: lists.spot,
      contract: lists.contract,
      spotUsdt: fmtValue(totals.spot),
      contractUsdt: fmtValue(totals.contract),
      totalUsdt: fmtValue(totals.spot + totals.contract),
      virtual: this.#virtual,
    };
  }

  async transfer(
    userId: number,
    body: { asset: string; amount: string; from: CoinWallet; to: CoinWallet; clientId?: string | undefined },
  ): Promise<CoinTransferView> {
    if (body.from === body.to) throw new AppError('same_account', { to: 'same_account' });
    if (!isCoin(body.asset)) throw new AppError('unknown_asset', { asset: 'unknown_asset' });
    const scale = this.#scale(body.asset);
    const parsed = tryParseDecimal(body.amount, scale);
    if (!parsed.ok || parsed.minor <= 0n) throw new AppError('invalid_amount', { amount: 'invalid_amount' });
    const id = coinTransferId(userId, body.clientId);
    const owner = String(userId);
    // Short funds are refused before the command (the engine would remember the refusal for this id),
    // unless this id already moved the money: then the engine answers the first transfer.
    const available = this.#engine.state.balance(owner, body.from, body.asset).available;
    if (available < parsed.minor && !this.#engine.state.transferPosted(id)) throw new AppError('insufficient_balance');
    const result = await this.#engine.submit({
      type: 'wallet_transfer',
      id,
      userId: owner,
      asset: body.asset,
      fromWallet: body.from,
      toWallet: body.to,
      amount: formatDecimal(parsed.minor, scale),
    });
    if (!result.ok) {
      const reused = result.code === 'transfer_id_reused' || result.code === 'command_id_reused';
      throw new AppError(reused ? 'idempotency_key_reused' : result.code);
    }
    const posted = result.events.find((e) => e.type === 'transfer_posted');
    return {
      id,
      asset: body.asset,
      amount: formatDecimal(parsed.minor, scale),
      from: body.from,
      to: body.to,
      fee: formatDecimal(0n, scale),
      at: posted?.timeMs ?? 0,
    };
  }
}
