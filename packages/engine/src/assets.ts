// Owns the assets the engine knows: the built-in definitions registered at genesis, and register_asset,
// which adds one at run time (a coin offering's new coin) without a code change.
// Must hold: a code, once registered, keeps its scale for good (accounts and books hold minor units of
// it); share assets (SHARE:EXCHANGE:SYMBOL, scale 0) are implied by their code and never registered.
// Must not: move money or open accounts.

import {
  type AssetDefinition,
  type AssetKind,
  BUILT_IN_ASSETS,
  parseAssetDefinition,
  shareAssetOf,
} from '@bourse/money';
import { CONST, type CommandBase, defineFamily, NUM } from './command-family.ts';
import type { ApplyResult, EngineState } from './engine-state.ts';

/**
 * Adds an asset at run time (a coin offering's new coin, a new currency): its code, scale (decimals of
 * one minor unit) and kind. A code is registered once (asset_exists); shares are implied by their code.
 */
export type RegisterAsset = CommandBase & { type: 'register_asset'; asset: string; scale: number; kind: AssetKind };

/** Registered assets by code, in registration order (the snapshot's order). */
export type AssetRegistry = Map<string, AssetDefinition>;

/** The registry of a new engine: the built-in assets (genesis needs no journal line: it is this code). */
export function genesisAssets(): AssetRegistry {
  return new Map(BUILT_IN_ASSETS.map((asset) => [asset.code, asset]));
}

/** The asset a code names in this state: a registered one, or a share implied by its code. */
export function assetOfCode(assets: AssetRegistry, code: string): AssetDefinition | undefined {
  return assets.get(code) ?? shareAssetOf(code);
}

export function registerAsset(state: EngineState, command: RegisterAsset): ApplyResult {
  const asset = parseAssetDefinition(command.asset, command.scale, command.kind);
  if (asset === undefined) return { ok: false, code: 'invalid_asset' };
  if (state.assets.has(asset.code)) return { ok: false, code: 'asset_exists' };
  state.assets.set(asset.code, asset);
  return {
    ok: true,
    events: [
      { type: 'asset_registered', asset: asset.code, scale: asset.scale, kind: asset.kind, timeMs: command.timeMs },
    ],
  };
}

/** The family (families.ts): register_asset, journaled as `~N`; `asset` is coded in commands.ts (shared). */
export const ASSETS_FAMILY = defineFamily<RegisterAsset, 'invalid_asset' | 'asset_exists'>({
  name: 'assets',
  commands: { register_asset: { code: 'N', keys: ['asset', 'scale', 'kind'], apply: registerAsset } },
  keys: { scale: ['z', NUM], kind: ['d', CONST, ['fiat', 'crypto', 'share', 'collateral']] },
  rejections: ['invalid_asset', 'asset_exists'],
});
