// Owns the US catalogue: large caps on NYSE and Nasdaq and the S&P 500, Nasdaq-100 and Dow indices, in USD
// at realistic late-2025 levels. Must hold: prices on the 0.01 tick; no static band (decision 0004: LULD and
// market-wide breakers are not modelled). Must not: contain logic beyond row constructors.

import type { Instrument } from '../instrument.ts';

const SPX = 'NYSE:SPX';
const NDX = 'NASDAQ:NDX';
const DJI = 'NYSE:DJI';

function index(
  exchange: 'NYSE' | 'NASDAQ',
  symbol: string,
  name: string,
  price: string,
  vol: number,
  factor: Instrument['factor'],
): Instrument {
  return {
    id: `${exchange}:${symbol}`,
    symbol,
    name,
    exchange,
    country: 'US',
    currency: 'USD',
    kind: 'index',
    tickSize: '0.01',
    lotSize: '1',
    priceBandPct: null,
    listed: true,
    indices: [],
    factor,
    startPrice: price,
    annualVol: vol,
    avgDailyValue: 0,
    baseAsset: null,
  };
}

/** A US stock; Nasdaq-100 members follow the Nasdaq-100, the others the S&P 500. */
function stock(
  exchange: 'NYSE' | 'NASDAQ',
  symbol: string,
  name: string,
  price: string,
  vol: number,
  beta: number,
  options: { dow?: boolean; adv?: number } = {},
): Instrument {
  const indices = [SPX];
  if (exchange === 'NASDAQ') indices.push(NDX);
  if (options.dow) indices.push(DJI);
  return {
    id: `${exchange}:${symbol}`,
    symbol,
    name,
    exchange,
    country: 'US',
    currency: 'USD',
    kind: 'stock',
    tickSize: '0.01',
    lotSize: '1',
    priceBandPct: null,
    listed: true,
    indices,
    factor: { id: exchange === 'NASDAQ' ? NDX : SPX, beta },
    startPrice: price,
    annualVol: vol,
    avgDailyValue: options.adv ?? 3e9,
    baseAsset: null,
  };
}

const dow = { dow: true };

export const US_INSTRUMENTS: readonly Instrument[] = [
  index('NYSE', 'SPX', 'S&P 500', '6800.00', 0.16, null),
  index('NASDAQ', 'NDX', 'Nasdaq-100', '25000.00', 0.21, { id: SPX, beta: 1.2 }),
  index('NYSE', 'DJI', 'Dow Jones Industrial Average', '47000.00', 0.15, { id: SPX, beta: 0.85 }),
  stock('NASDAQ', 'AAPL', 'Apple Inc.', '270.00', 0.27, 0.95, { dow: true, adv: 1.2e10 }),
  stock('NASDAQ', 'MSFT', 'Microsoft Corporation', '510.00', 0.25, 0.9, { dow: true, adv: 1e10 }),
  stock('NASDAQ', 'NVDA', 'NVIDIA Corporation', '185.00', 0.5, 1.5, { dow: true, adv: 3e10 }),
  stock('NASDAQ', 'AMZN', 'Amazon.com, Inc.', '230.00', 0.32, 1.1, { dow: true, adv: 1e10 }),
  stock('NASDAQ', 'GOOGL', 'Alphabet Inc. Class A', '280.00', 0.3, 1.0, { adv: 8e9 }),
  stock('NASDAQ', 'META', 'Meta Platforms, Inc.', '650.00', 0.38, 1.2, { adv: 1e10 }),
  stock('NASDAQ', 'TSLA', 'Tesla, Inc.', '430.00', 0.6, 1.6, { adv: 2.5e10 }),
  stock('NASDAQ', 'AVGO', 'Broadcom Inc.', '350.00', 0.45, 1.4, { adv: 8e9 }),
  stock('NASDAQ', 'COST', 'Costco Wholesale Corporation', '920.00', 0.22, 0.6),
  stock('NASDAQ', 'PEP', 'PepsiCo, Inc.', '150.00', 0.18, 0.3),
  stock('NASDAQ', 'CSCO', 'Cisco Systems, Inc.', '72.00', 0.24, 0.8, dow),
  stock('NASDAQ', 'ADBE', 'Adobe Inc.', '340.00', 0.35, 1.0),
  stock('NASDAQ', 'NFLX', 'Netflix, Inc.', '110.00', 0.38, 1.0, { adv: 5e9 }),
  stock('NASDAQ', 'AMD', 'Advanced Micro Devices, Inc.', '240.00', 0.55, 1.5, { adv: 8e9 }),
  stock('NASDAQ', 'INTC', 'Intel Corporation', '38.00', 0.5, 1.1, { adv: 4e9 }),
  stock('NYSE', 'BRK.B', 'Berkshire Hathaway Inc. Class B', '500.00', 0.17, 0.8),
  stock('NYSE', 'JPM', 'JPMorgan Chase & Co.', '300.00', 0.24, 1.1, { dow: true, adv: 4e9 }),
  stock('NYSE', 'V', 'Visa Inc.', '340.00', 0.2, 0.9, dow),
  stock('NYSE', 'MA', 'Mastercard Incorporated', '560.00', 0.21, 1.0),
  stock('NYSE', 'UNH', 'UnitedHealth Group Incorporated', '330.00', 0.35, 0.6, dow),
  stock('NYSE', 'XOM', 'Exxon Mobil Corporation', '115.00', 0.25, 0.8),
  stock('NYSE', 'JNJ', 'Johnson & Johnson', '190.00', 0.17, 0.4, dow),
  stock('NYSE', 'PG', 'The Procter & Gamble Company', '150.00', 0.17, 0.4, dow),
  stock('NYSE', 'HD', 'The Home Depot, Inc.', '380.00', 0.24, 1.0, dow),
  stock('NYSE', 'LLY', 'Eli Lilly and Company', '900.00', 0.35, 0.6, { adv: 5e9 }),
  stock('NYSE', 'WMT', 'Walmart Inc.', '103.00', 0.2, 0.6, dow),
  stock('NYSE', 'BAC', 'Bank of America Corporation', '52.00', 0.28, 1.2),
  stock('NYSE', 'KO', 'The Coca-Cola Company', '70.00', 0.16, 0.5, dow),
  stock('NYSE', 'CVX', 'Chevron Corporation', '155.00', 0.25, 0.9, dow),
  stock('NYSE', 'MRK', 'Merck & Co., Inc.', '90.00', 0.26, 0.4, dow),
  stock('NYSE', 'ABBV', 'AbbVie Inc.', '225.00', 0.25, 0.5),
  stock('NYSE', 'ORCL', 'Oracle Corporation', '240.00', 0.45, 1.3, { adv: 5e9 }),
  stock('NYSE', 'CRM', 'Salesforce, Inc.', '240.00', 0.32, 1.1, dow),
  stock('NYSE', 'DIS', 'The Walt Disney Company', '112.00', 0.28, 1.0, dow),
  stock('NYSE', 'NKE', 'NIKE, Inc.', '65.00', 0.35, 1.0, dow),
  stock('NYSE', 'MCD', "McDonald's Corporation", '300.00', 0.18, 0.6, dow),
  stock('NYSE', 'IBM', 'International Business Machines Corporation', '300.00', 0.27, 0.8, dow),
  stock('NYSE', 'GS', 'The Goldman Sachs Group, Inc.', '800.00', 0.3, 1.3, dow),
  stock('NYSE', 'CAT', 'Caterpillar Inc.', '550.00', 0.3, 1.2, dow),
  stock('NYSE', 'BA', 'The Boeing Company', '210.00', 0.38, 1.2, dow),
  stock('NYSE', 'PFE', 'Pfizer Inc.', '25.00', 0.24, 0.5),
];
