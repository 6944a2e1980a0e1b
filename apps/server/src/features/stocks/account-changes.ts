// Which customers' accounts a batch of engine events touched: their orders, trades, transfers, holds
// or perpetual positions. Feeds the stream's `account:` channel; the market makers and platform accounts
// are left out.

import { type EngineEvent, ownerOfAccountKey } from '@bourse/engine';
import { isMarketMaker } from '../../adapters/venue/paper/paper-venue.ts';
import type { TradingEngine } from '../../engine-host/trading-engine.ts';
import type { Accounts } from '../accounts/service.ts';
import type { AccountChannels } from '../markets/stream.ts';

export function customersIn(events: readonly EngineEvent[]): Set<string> {
  const users = new Set<string>();
  const add = (id: string) => {
    if (!id.startsWith('platform:') && !isMarketMaker(id)) users.add(id);
  };
  for (const e of events) {
    if (e.type === 'order_placed' || e.type === 'order_updated') add(e.userId);
    else if (e.type === 'trade') {
      add(e.makerUserId);
      add(e.takerUserId);
    } else if (e.type === 'transfer_posted') {
      add(ownerOfAccountKey(e.debit));
      add(ownerOfAccountKey(e.credit));
    } else if (e.type === 'hold_placed' || e.type === 'hold_released') add(ownerOfAccountKey(e.account));
    else if (
      e.type === 'position_changed' ||
      e.type === 'leverage_set' ||
      e.type === 'position_liquidated' ||
      e.type === 'auto_deleveraged'
    )
      add(e.userId);
  }
  return users;
}

/** Account channels for the stream: sessions resolve to users; changes are batched per event-loop turn. */
export function accountChannels(engine: TradingEngine, accounts: Accounts): AccountChannels {
  return {
    userOf: async (token) => {
      const answer = await accounts.sessionUser(token);
      return 'userId' in answer ? { userId: String(answer.userId) } : answer;
    },
    onSessionsChanged: (listener) => accounts.onSessionsChanged((userId) => listener(String(userId))),
    onChange: (listener) => {
      let pending: Set<string> | null = null;
      return engine.onCommitted((events) => {
        const users = customersIn(events);
        if (users.size === 0) return;
        if (pending) {
          for (const u of users) pending.add(u);
          return;
        }
        pending = users;
        setImmediate(() => {
          const batch = pending as Set<string>;
          pending = null;
          listener(batch);
        });
      });
    },
  };
}
