// Realistic fixture data for the customer app's browser tests (e2e/web-markets*.e2e.test.ts and
// e2e/web-trading*.e2e.test.ts). Never imported by the app. Shapes follow @bourse/contract.
import type { HoldingView, QuoteView, StockOrderView } from '@bourse/contract';

const hour = 3_600_000;
export const NOW = Date.UTC(2026, 4, 27, 8, 30); // 27 May 2026, 2:00 PM in India

export const ads = {
  items: [
    {
      id: 1,
      title: 'Paper trading: practise with virtual money',
      image:
        'data:image/svg+xml;utf8,' +
        encodeURIComponent(
          '<svg xmlns="http://www.w3.org/2000/svg" width="716" height="240"><defs><linearGradient id="g" x1="0" x2="1"><stop offset="0" stop-color="#0f3d37"/><stop offset="1" stop-color="#1cd7c0"/></linearGradient></defs><rect width="716" height="240" fill="url(#g)"/><text x="40" y="110" font-family="sans-serif" font-size="44" font-weight="700" fill="#fff">Practise with virtual money</text><text x="40" y="170" font-family="sans-serif" font-size="28" fill="#e3faf6">Simulated markets, real order books</text></svg>',
        ),
      link: '/pages/tabbar/markets',
    },
  ],
};

export const notices = {
  items: [
    { id: 1, title: 'NSE and BSE are closed on 15 August (Independence Day).', summary: '', at: NOW - 24 * hour },
    { id: 2, title: 'New: real-time order book on every stock page.', summary: '', at: NOW - 48 * hour },
  ],
};

export const news = {
  total: 3,
  items: [
    {
      id: 11,
      title: 'Nifty ends higher as IT stocks extend gains',
      summary: 'Infosys and TCS led the advance while metals lagged; breadth was positive.',
      source: 'Bourse Markets Desk',
      at: NOW - 2 * hour,
    },
    {
      id: 12,
      title: 'Reliance Industries to announce quarterly results next week',
      summary: 'Analysts expect retail and telecom to drive growth.',
      source: 'Bourse Markets Desk',
      at: NOW - 26 * hour,
    },
    {
      id: 13,
      title: 'What T+1 settlement means for your shares',
      summary: 'Shares you buy today become sellable on the next trading day.',
      source: 'Bourse Learn',
      at: NOW - 5 * 24 * hour,
    },
  ],
};

export const newsInfo = {
  id: 11,
  title: 'Nifty ends higher as IT stocks extend gains',
  body: 'The NIFTY 50 closed higher on Wednesday as information-technology stocks extended their gains.\n\nInfosys and TCS led the advance while metal stocks lagged.',
  source: 'Bourse Markets Desk',
  at: NOW - 2 * hour,
};

export const loginInfo = {
  user: {
    id: 100234,
    account: '9876543210',
    status: 1,
    idStatus: 'succ',
    hasTradePassword: true,
    hasWithdrawPassword: true,
  },
  openAutoApply: 0,
};

export const assets = {
  items: [
    { wallet: 'stock', asset: 'INR', balance: '987654.30', held: '29451.00', available: '958203.30' },
    { wallet: 'stock', asset: 'USD', balance: '10000.00', held: '0.00', available: '10000.00' },
  ],
};

export function holding(overrides: Partial<HoldingView> = {}): HoldingView {
  return {
    symbol: 'NSE:RELIANCE',
    name: 'Reliance Industries Ltd',
    currency: 'INR',
    quantity: '25',
    sellable: '15',
    locked: '10',
    avgPrice: '2890.40',
    lastPrice: '2945.10',
    marketValue: '73627.50',
    floatingPnl: '1367.50',
    floatingPnlPct: '1.89',
    todayPnl: '312.25',
    realizedPnl: '845.00',
    unlocksAt: NOW + 20 * hour,
    listed: true,
    ...overrides,
  };
}

export const holdings = {
  items: [
    holding(),
    holding({
      symbol: 'NSE:TCS',
      name: 'Tata Consultancy Services Ltd',
      quantity: '8',
      sellable: '8',
      locked: '0',
      avgPrice: '4120.00',
      lastPrice: '4015.55',
      marketValue: '32124.40',
      floatingPnl: '-835.60',
      floatingPnlPct: '-2.54',
      todayPnl: '-96.00',
      realizedPnl: '-120.50',
      unlocksAt: null,
    }),
  ],
};

export function order(overrides: Partial<StockOrderView> = {}): StockOrderView {
  return {
    id: 5001,
    symbol: 'NSE:INFY',
    name: 'Infosys Ltd',
    side: 'buy',
    orderType: 'limit',
    price: '1480.00',
    quantity: '20',
    filledQuantity: '0',
    avgFillPrice: null,
    amount: '29600.00',
    fee: '8.88',
    currency: 'INR',
    status: 'pending',
    afterMarket: false,
    createdAt: NOW - hour,
    updatedAt: NOW - hour,
    ...overrides,
  };
}

export const openOrders = {
  total: 2,
  items: [
    order(),
    order({
      id: 5002,
      symbol: 'NSE:HDFCBANK',
      name: 'HDFC Bank Ltd',
      side: 'sell',
      price: '1720.50',
      quantity: '30',
      filledQuantity: '10',
      avgFillPrice: '1720.50',
      status: 'partial',
      createdAt: NOW - 2 * hour,
    }),
  ],
};

export const historyOrders = {
  total: 4,
  items: [
    order({
      id: 4990,
      symbol: 'NSE:RELIANCE',
      name: 'Reliance Industries Ltd',
      orderType: 'market',
      price: '0',
      quantity: '10',
      filledQuantity: '10',
      avgFillPrice: '2931.20',
      status: 'completed',
      createdAt: NOW - 20 * hour,
    }),
    order({ id: 4980, symbol: 'NSE:ITC', name: 'ITC Ltd', status: 'cancelled', createdAt: NOW - 30 * hour }),
    order({
      id: 4970,
      symbol: 'NSE:SBIN',
      name: 'State Bank of India',
      side: 'sell',
      status: 'closed',
      createdAt: NOW - 50 * hour,
    }),
    order({
      id: 4960,
      symbol: 'NSE:TATAMOTORS',
      name: 'Tata Motors Ltd',
      status: 'system_closed',
      createdAt: NOW - 70 * hour,
    }),
  ],
};

export const statistics = { orders: 6, completed: 1, cancelled: 1, turnover: { INR: '29312.00' } };

export const ledger = {
  total: 5,
  items: [
    {
      id: 't5',
      at: NOW - hour,
      asset: 'INR',
      amount: '-8.79',
      wallet: 'stock',
      cause: 'fee',
      link: 'order 4990',
      counterparty: 'fees',
    },
    {
      id: 't4',
      at: NOW - hour,
      asset: 'INR',
      amount: '-29312.00',
      wallet: 'stock',
      cause: 'trade',
      link: 'order 4990',
      counterparty: 'venue',
    },
    {
      id: 't3',
      at: NOW - 26 * hour,
      asset: 'INR',
      amount: '31450.00',
      wallet: 'stock',
      cause: 'trade',
      link: 'order 4970',
      counterparty: 'venue',
    },
    {
      id: 't2',
      at: NOW - 26 * hour,
      asset: 'INR',
      amount: '-9.44',
      wallet: 'stock',
      cause: 'fee',
      link: 'order 4970',
      counterparty: 'fees',
    },
    {
      id: 't1',
      at: NOW - 72 * hour,
      asset: 'INR',
      amount: '1000000.00',
      wallet: 'stock',
      cause: 'paper_grant',
      link: '',
      counterparty: 'paper',
    },
  ],
};

export function preview(body: Record<string, string>, quote: Pick<QuoteView, 'price' | 'currency' | 'isOpen'>) {
  const price = body.orderType === 'limit' && body.price ? body.price : quote.price;
  const quantity = body.quantity ?? '0';
  const amount = (Number(price) * Number(quantity)).toFixed(2);
  const fee = Math.max(Number(amount) * 0.0003, 0).toFixed(2);
  const total =
    body.side === 'sell' ? (Number(amount) - Number(fee)).toFixed(2) : (Number(amount) + Number(fee)).toFixed(2);
  return {
    symbol: body.symbol ?? '',
    side: body.side ?? 'buy',
    price,
    quantity,
    amount,
    fee,
    total,
    currency: quote.currency,
    available: assets.items[0]?.available ?? '0',
    afterMarket: !quote.isOpen,
  };
}
