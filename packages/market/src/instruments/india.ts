// Owns the Indian catalogue: NSE stocks (all NIFTY 50 constituents and a few others), some BSE listings and
// the NIFTY 50, NIFTY BANK and SENSEX indices, with realistic late-2025 price levels in INR.
// Must hold: prices sit on the 0.05 tick; membership reflects the index after the September 2025 review
// (re-check before live use). Must not: contain logic beyond row constructors.

import type { BandPct, Instrument } from '../instrument.ts';

const NIFTY50 = 'NSE:NIFTY50';
const NIFTYBANK = 'NSE:NIFTYBANK';
const SENSEX = 'BSE:SENSEX';

function index(
  exchange: 'NSE' | 'BSE',
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
    country: 'IN',
    currency: 'INR',
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

type StockOptions = { band?: BandPct; listed?: boolean; factor?: string; indices?: string[]; adv?: number };

/**
 * An NSE stock. NIFTY 50 stocks are all in derivatives, where NSE applies a dynamic 10% operating range
 * instead of a static band: we model that as a static 10% band (decision 0004). Bands of the other stocks
 * are illustrative of NSE's 2/5/10/20% classes (NSE revises them weekly).
 */
function nse(
  symbol: string,
  name: string,
  price: string,
  vol: number,
  beta: number,
  options: StockOptions = {},
): Instrument {
  const indices = options.indices ?? [NIFTY50];
  return {
    id: `NSE:${symbol}`,
    symbol,
    name,
    exchange: 'NSE',
    country: 'IN',
    currency: 'INR',
    kind: 'stock',
    tickSize: '0.05',
    lotSize: '1',
    priceBandPct: options.band ?? 10,
    listed: options.listed ?? true,
    indices,
    factor: { id: options.factor ?? (indices.includes(NIFTYBANK) ? NIFTYBANK : NIFTY50), beta },
    startPrice: price,
    annualVol: vol,
    avgDailyValue: options.adv ?? 6e9,
    baseAsset: null,
  };
}

/** A BSE listing of an NSE stock: same company, same price (it mirrors the NSE listing: beta 1, no own part). */
function bse(nseRow: Instrument): Instrument {
  return {
    ...nseRow,
    id: `BSE:${nseRow.symbol}`,
    exchange: 'BSE',
    indices: [SENSEX],
    factor: { id: nseRow.id, beta: 1 },
    avgDailyValue: nseRow.avgDailyValue / 10,
  };
}

const NIFTY_INDEX = index('NSE', 'NIFTY50', 'NIFTY 50', '25900.00', 0.13, null);
const BANK_INDEX = index('NSE', 'NIFTYBANK', 'NIFTY BANK', '58100.00', 0.16, { id: NIFTY50, beta: 1.1 });

const bank = [NIFTY50, NIFTYBANK];

// NIFTY 50 after the September 2025 review (INDIGO and MAXHEALTH in, HEROMOTOCO and INDUSINDBK out).
// TMPV is Tata Motors Passenger Vehicles, the former TATAMOTORS symbol after the October 2025 demerger.
const NIFTY50_STOCKS: Instrument[] = [
  nse('ADANIENT', 'Adani Enterprises Ltd', '2405.00', 0.38, 1.4),
  nse('ADANIPORTS', 'Adani Ports and Special Economic Zone Ltd', '1460.00', 0.32, 1.3),
  nse('APOLLOHOSP', 'Apollo Hospitals Enterprise Ltd', '7480.00', 0.26, 0.7),
  nse('ASIANPAINT', 'Asian Paints Ltd', '2520.00', 0.24, 0.8),
  nse('AXISBANK', 'Axis Bank Ltd', '1255.00', 0.26, 1.1, { indices: bank }),
  nse('BAJAJ-AUTO', 'Bajaj Auto Ltd', '8950.00', 0.25, 0.8),
  nse('BAJFINANCE', 'Bajaj Finance Ltd', '1010.00', 0.32, 1.3),
  nse('BAJAJFINSV', 'Bajaj Finserv Ltd', '2060.00', 0.28, 1.1),
  nse('BEL', 'Bharat Electronics Ltd', '415.00', 0.33, 1.1),
  nse('BHARTIARTL', 'Bharti Airtel Ltd', '2080.00', 0.22, 0.8, { adv: 1e10 }),
  nse('CIPLA', 'Cipla Ltd', '1515.00', 0.23, 0.5),
  nse('COALINDIA', 'Coal India Ltd', '385.00', 0.27, 0.9),
  nse('DRREDDY', "Dr. Reddy's Laboratories Ltd", '1250.00', 0.24, 0.5),
  nse('EICHERMOT', 'Eicher Motors Ltd', '6950.00', 0.28, 0.9),
  nse('ETERNAL', 'Eternal Ltd', '305.00', 0.42, 1.3, { adv: 1.2e10 }),
  nse('GRASIM', 'Grasim Industries Ltd', '2780.00', 0.24, 0.9),
  nse('HCLTECH', 'HCL Technologies Ltd', '1560.00', 0.25, 0.7),
  nse('HDFCBANK', 'HDFC Bank Ltd', '995.00', 0.2, 0.95, { indices: bank, adv: 2e10 }),
  nse('HDFCLIFE', 'HDFC Life Insurance Company Ltd', '765.00', 0.25, 0.8),
  nse('HINDALCO', 'Hindalco Industries Ltd', '805.00', 0.3, 1.1),
  nse('HINDUNILVR', 'Hindustan Unilever Ltd', '2450.00', 0.2, 0.5),
  nse('ICICIBANK', 'ICICI Bank Ltd', '1385.00', 0.21, 0.95, { indices: bank, adv: 1.5e10 }),
  nse('INDIGO', 'InterGlobe Aviation Ltd', '5720.00', 0.3, 0.9),
  nse('INFY', 'Infosys Ltd', '1545.00', 0.25, 0.8, { adv: 1.5e10 }),
  nse('ITC', 'ITC Ltd', '405.00', 0.2, 0.6, { adv: 8e9 }),
  nse('JIOFIN', 'Jio Financial Services Ltd', '310.00', 0.35, 1.2),
  nse('JSWSTEEL', 'JSW Steel Ltd', '1150.00', 0.28, 1.1),
  nse('KOTAKBANK', 'Kotak Mahindra Bank Ltd', '2110.00', 0.22, 0.9, { indices: bank }),
  nse('LT', 'Larsen & Toubro Ltd', '4010.00', 0.23, 1.0, { adv: 1e10 }),
  nse('M&M', 'Mahindra & Mahindra Ltd', '3640.00', 0.28, 1.0),
  nse('MARUTI', 'Maruti Suzuki India Ltd', '16050.00', 0.24, 0.8),
  nse('MAXHEALTH', 'Max Healthcare Institute Ltd', '1150.00', 0.3, 0.8),
  nse('NESTLEIND', 'Nestle India Ltd', '1255.00', 0.19, 0.4),
  nse('NTPC', 'NTPC Ltd', '330.00', 0.25, 0.9),
  nse('ONGC', 'Oil and Natural Gas Corporation Ltd', '245.00', 0.27, 0.9),
  nse('POWERGRID', 'Power Grid Corporation of India Ltd', '285.00', 0.23, 0.8),
  nse('RELIANCE', 'Reliance Industries Ltd', '1510.00', 0.22, 1.0, { adv: 2e10 }),
  nse('SBILIFE', 'SBI Life Insurance Company Ltd', '1960.00', 0.24, 0.8),
  nse('SHRIRAMFIN', 'Shriram Finance Ltd', '755.00', 0.33, 1.2),
  nse('SBIN', 'State Bank of India', '955.00', 0.25, 1.1, { indices: bank, adv: 1.2e10 }),
  nse('SUNPHARMA', 'Sun Pharmaceutical Industries Ltd', '1705.00', 0.22, 0.5),
  nse('TATACONSUM', 'Tata Consumer Products Ltd', '1150.00', 0.24, 0.7),
  nse('TMPV', 'Tata Motors Passenger Vehicles Ltd', '405.00', 0.36, 1.3),
  nse('TATASTEEL', 'Tata Steel Ltd', '170.00', 0.3, 1.2, { adv: 8e9 }),
  nse('TCS', 'Tata Consultancy Services Ltd', '3120.00', 0.22, 0.7, { adv: 1.2e10 }),
  nse('TECHM', 'Tech Mahindra Ltd', '1450.00', 0.27, 0.8),
  nse('TITAN', 'Titan Company Ltd', '3790.00', 0.25, 0.9),
  nse('TRENT', 'Trent Ltd', '4620.00', 0.36, 1.1),
  nse('ULTRACEMCO', 'UltraTech Cement Ltd', '11800.00', 0.24, 0.9),
  nse('WIPRO', 'Wipro Ltd', '245.00', 0.26, 0.7),
];

const OTHER_NSE_STOCKS: Instrument[] = [
  nse('INDUSINDBK', 'IndusInd Bank Ltd', '860.00', 0.38, 1.2, { indices: [NIFTYBANK] }),
  nse('BANKBARODA', 'Bank of Baroda', '285.00', 0.32, 1.2, { indices: [NIFTYBANK] }),
  nse('PNB', 'Punjab National Bank', '120.00', 0.34, 1.2, { indices: [NIFTYBANK] }),
  nse('CANBK', 'Canara Bank', '145.00', 0.34, 1.2, { indices: [NIFTYBANK] }),
  nse('FEDERALBNK', 'The Federal Bank Ltd', '245.00', 0.28, 1.0, { indices: [NIFTYBANK] }),
  nse('IDFCFIRSTB', 'IDFC First Bank Ltd', '80.00', 0.32, 1.1, { indices: [NIFTYBANK] }),
  nse('AUBANK', 'AU Small Finance Bank Ltd', '900.00', 0.32, 1.0, { indices: [NIFTYBANK] }),
  nse('SUZLON', 'Suzlon Energy Ltd', '56.00', 0.5, 1.3, { indices: [], band: 5, adv: 3e9 }),
  nse('YESBANK', 'Yes Bank Ltd', '22.00', 0.42, 1.1, { indices: [], band: 20, adv: 2e9 }),
  nse('IDEA', 'Vodafone Idea Ltd', '10.50', 0.6, 1.0, { indices: [], band: 20, adv: 4e9 }),
  nse('RPOWER', 'Reliance Power Ltd', '40.00', 0.6, 1.2, { indices: [], band: 5, adv: 1e9 }),
  nse('GTLINFRA', 'GTL Infrastructure Ltd', '1.50', 0.5, 0.6, { indices: [], band: 2, adv: 5e7 }),
  // Suspended: kept in the catalogue (old holdings still show) but no prices are published for it.
  nse('JETAIRWAYS', 'Jet Airways (India) Ltd', '35.00', 0.5, 1.0, { indices: [], band: 5, listed: false, adv: 0 }),
];

const SENSEX_INDEX = index('BSE', 'SENSEX', 'S&P BSE SENSEX', '84500.00', 0.13, { id: NIFTY50, beta: 0.98 });

const BSE_MIRRORED = [
  'RELIANCE',
  'HDFCBANK',
  'ICICIBANK',
  'INFY',
  'TCS',
  'BHARTIARTL',
  'ITC',
  'LT',
  'SBIN',
  'TATASTEEL',
];
const BSE_STOCKS: Instrument[] = BSE_MIRRORED.map((symbol) => {
  const row = NIFTY50_STOCKS.find((s) => s.symbol === symbol);
  if (!row) throw new Error(`no NSE row for ${symbol}`);
  return bse(row);
});

export const INDIA_INSTRUMENTS: readonly Instrument[] = [
  NIFTY_INDEX,
  BANK_INDEX,
  ...NIFTY50_STOCKS,
  ...OTHER_NSE_STOCKS,
  SENSEX_INDEX,
  ...BSE_STOCKS,
];
