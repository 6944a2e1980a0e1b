// Owns the Brazilian catalogue: B3 stocks and the Ibovespa, in BRL at realistic late-2025 levels.
// Must hold: prices on the 0.01 tick; no static band (B3's "túnel de negociação" is dynamic and not modelled).
// Must not: contain logic beyond row constructors.

import type { Instrument } from '../instrument.ts';

const IBOV = 'B3:IBOV';

/** A B3 stock. B3's standard lot is 100 shares, but the fractional market trades single shares: lot 1. */
function stock(symbol: string, name: string, price: string, vol: number, beta: number, adv = 3e8): Instrument {
  return {
    id: `B3:${symbol}`,
    symbol,
    name,
    exchange: 'B3',
    country: 'BR',
    currency: 'BRL',
    kind: 'stock',
    tickSize: '0.01',
    lotSize: '1',
    priceBandPct: null,
    listed: true,
    indices: [IBOV],
    factor: { id: IBOV, beta },
    startPrice: price,
    annualVol: vol,
    avgDailyValue: adv,
    baseAsset: null,
  };
}

export const B3_INSTRUMENTS: readonly Instrument[] = [
  {
    id: IBOV,
    symbol: 'IBOV',
    name: 'Ibovespa',
    exchange: 'B3',
    country: 'BR',
    currency: 'BRL',
    kind: 'index',
    tickSize: '0.01',
    lotSize: '1',
    priceBandPct: null,
    listed: true,
    indices: [],
    factor: null,
    startPrice: '155000.00',
    annualVol: 0.2,
    avgDailyValue: 0,
    baseAsset: null,
  },
  stock('PETR4', 'Petróleo Brasileiro S.A. – Petrobras PN', '32.10', 0.32, 1.2, 2e9),
  stock('PETR3', 'Petróleo Brasileiro S.A. – Petrobras ON', '34.50', 0.32, 1.2, 5e8),
  stock('VALE3', 'Vale S.A. ON', '62.40', 0.3, 1.1, 2e9),
  stock('ITUB4', 'Itaú Unibanco Holding S.A. PN', '39.80', 0.22, 0.9, 1e9),
  stock('BBDC4', 'Banco Bradesco S.A. PN', '18.20', 0.28, 1.0, 6e8),
  stock('BBAS3', 'Banco do Brasil S.A. ON', '22.10', 0.3, 1.0, 6e8),
  stock('ABEV3', 'Ambev S.A. ON', '13.10', 0.22, 0.6),
  stock('WEGE3', 'WEG S.A. ON', '43.50', 0.3, 0.6),
  stock('B3SA3', 'B3 S.A. – Brasil, Bolsa, Balcão ON', '13.60', 0.32, 1.2, 5e8),
  stock('RENT3', 'Localiza Rent a Car S.A. ON', '45.20', 0.42, 1.4),
  stock('SUZB3', 'Suzano S.A. ON', '50.80', 0.3, 0.4),
  stock('ITSA4', 'Itaúsa S.A. PN', '11.40', 0.2, 0.8),
  stock('PRIO3', 'PRIO S.A. ON', '41.00', 0.38, 1.0),
  stock('RADL3', 'Raia Drogasil S.A. ON', '26.50', 0.3, 0.7),
  stock('EQTL3', 'Equatorial S.A. ON', '37.20', 0.26, 0.8),
  stock('GGBR4', 'Gerdau S.A. PN', '18.60', 0.3, 0.9),
  stock('LREN3', 'Lojas Renner S.A. ON', '15.40', 0.38, 1.3),
  stock('RAIL3', 'Rumo S.A. ON', '16.10', 0.3, 1.0),
  stock('VIVT3', 'Telefônica Brasil S.A. ON', '33.80', 0.2, 0.5),
  stock('SBSP3', 'Companhia de Saneamento Básico do Estado de São Paulo – Sabesp ON', '130.50', 0.3, 0.9),
  stock('EMBR3', 'Embraer S.A. ON', '78.00', 0.38, 0.8),
  stock('CMIG4', 'Companhia Energética de Minas Gerais – Cemig PN', '11.20', 0.28, 0.8),
  stock('BBSE3', 'BB Seguridade Participações S.A. ON', '36.00', 0.22, 0.6),
  stock('BPAC11', 'Banco BTG Pactual S.A. Units', '52.00', 0.32, 1.3),
  stock('CSAN3', 'Cosan S.A. ON', '7.20', 0.45, 1.4),
  stock('MGLU3', 'Magazine Luiza S.A. ON', '8.90', 0.6, 1.5),
];
