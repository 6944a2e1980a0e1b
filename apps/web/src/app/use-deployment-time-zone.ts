// The deployment's clock, apart from api.ts: api.ts is in the boot script, which must stay small
// (vite.config.ts refuses a large boot chunk), and the market formats are not.

import { marketFormats } from '../lib/format.ts';
import { usePlatformProps } from './api.ts';

/**
 * The deployment's clock (its stock market's time zone) for the times on money screens: lines of different
 * currencies made at one instant must not look hours apart, and crypto, trading around the clock, uses it too.
 */
export function useDeploymentTimeZone(): string {
  const props = usePlatformProps();
  return marketFormats[props.data?.stockCountry ?? 'IN'].timeZone;
}
