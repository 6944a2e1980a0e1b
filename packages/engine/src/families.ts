// Owns the list of command families the engine knows beyond its built-in trading commands: adding a
// family is one line here (its module declares its commands, journal codes, keys and rejections).
// Must hold: no two families share a command type, type code or key code (families.test.ts checks).
// Must not: import a family module that imports engine values at load time in a cycle back to here.

import { ALLOTMENTS_FAMILY } from './allotments.ts';
import { ASSETS_FAMILY } from './assets.ts';
import type { CommandOf, RejectionOf } from './command-family.ts';
import { CONVERT_FAMILY } from './convert.ts';
import type { ApplyResult, EngineState } from './engine-state.ts';
import { FUNDS_FAMILY } from './funds.ts';
import { OPTIONS_FAMILY } from './options.ts';
import { POSITIONS_FAMILY } from './positions.ts';
import { REFERENCE_DATA_FAMILY } from './reference-data.ts';
import { SETTLEMENT_FAMILY } from './settlement-locks.ts';

/** Every family, `as const` so that the Command union and the rejection codes derive from it exactly. */
export const FAMILIES = [
  ASSETS_FAMILY,
  REFERENCE_DATA_FAMILY,
  FUNDS_FAMILY,
  SETTLEMENT_FAMILY,
  CONVERT_FAMILY,
  POSITIONS_FAMILY,
  ALLOTMENTS_FAMILY,
  OPTIONS_FAMILY,
] as const;

type Family = (typeof FAMILIES)[number];
/** The union of every family's commands (part of commands.ts's Command). */
export type FamilyCommand = CommandOf<Family>;
/** The rejection codes the families add (part of rejections.ts's EngineRejection). */
export type FamilyRejection = RejectionOf<Family>;

/** Each family command's handler by type, for engine.ts's dispatch of what its switch does not name. */
export const FAMILY_HANDLERS: ReadonlyMap<string, (state: EngineState, command: FamilyCommand) => ApplyResult> =
  new Map(
    FAMILIES.flatMap((family) =>
      Object.entries(family.commands).map(
        ([type, spec]) => [type, spec.apply as (state: EngineState, command: FamilyCommand) => ApplyResult] as const,
      ),
    ),
  );
