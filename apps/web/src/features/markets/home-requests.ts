// The calls behind Home's first screen and the stored stock country, without dependencies: both the
// queries (home-data.ts) and the boot script (src/boot.ts, which sends them before the app's code
// has loaded) use these, so the early answers match what the queries ask for.
import type { RequestData } from '../../app/request.ts';
import { readStorage, storageKeys } from '../../app/storage-keys.ts';
import type { MarketCode } from '../../lib/format.ts';

export interface ApiCall {
  path: string;
  data?: RequestData;
}

export const homeCalls = {
  props: { path: '/common/props' },
  ads: { path: '/index/ads' },
  notices: { path: '/index/notice' },
  news: { path: '/index/news', data: { page: 1, limit: 5 } },
  countries: { path: '/stock/index/country/list' },
  indices: (country: string): ApiCall => ({ path: '/stock/index/indices/list', data: { country } }),
  hot: (country: string): ApiCall => ({ path: '/stock/index/list/hot', data: { country } }),
} satisfies Record<string, ApiCall | ((country: string) => ApiCall)>;

export function isMarketCode(value: unknown): value is MarketCode {
  return value === 'IN' || value === 'US' || value === 'BR';
}

export function readStoredCountry(): MarketCode | null {
  const value = readStorage(storageKeys.stockCountry);
  return isMarketCode(value) ? value : null;
}

export function storeCountry(code: MarketCode): void {
  try {
    localStorage.setItem(storageKeys.stockCountry, code);
  } catch {
    // storage unavailable
  }
}
