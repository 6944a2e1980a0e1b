// The risk loop's index of the perpetuals' positions by liquidation price (the engine's LiquidationWatch,
// decision 0027), kept current command by command: every `position_changed` of a contract, as the command
// is applied (TradingEngine.onApplied), refreshes that customer's entry. So the desk finds the positions a
// mark makes due without viewing every position on every pump.
// Must hold: the index describes the engine the host runs now; if that engine is another object than the
// one it was built from (a restore), it is rebuilt from the live state before it answers.
// Must not: send commands (it runs on the writer's path) or decide a liquidation (the engine checks each).

import { type ApplyResult, type Engine, EventReader, type LiquidationWatch, RECORD_EVENT } from '@bourse/engine';
import type { CommandInput, TradingEngine } from '../../engine-host/trading-engine.ts';

export class RiskWatch {
  readonly #engine: TradingEngine;
  readonly #ids: ReadonlySet<string>;
  readonly #reader = new EventReader();
  #watches = new Map<string, LiquidationWatch>();
  /** The engine the watches were built from. */
  #builtFrom: Engine | undefined;

  constructor(engine: TradingEngine, contractIds: readonly string[]) {
    this.#engine = engine;
    this.#ids = new Set(contractIds);
    engine.onApplied((command, result) => this.#applied(command, result));
  }

  /** The customers whose positions on the contract are due for liquidation at `markTicks`, by the exact rule. */
  due(contractId: string, markTicks: number): string[] {
    return this.#watch(contractId)?.due(markTicks) ?? [];
  }

  #applied(command: CommandInput, result: ApplyResult): void {
    // A command naming another instrument cannot change a contract's position: not read.
    const instrumentId = (command as { instrumentId?: unknown }).instrumentId;
    if (typeof instrumentId === 'string' && !this.#ids.has(instrumentId)) return;
    const reader = this.#reader.read(result);
    while (reader.next()) {
      if (reader.kind !== RECORD_EVENT) continue;
      const e = reader.event;
      if (e?.type === 'position_changed') this.#watch(e.instrumentId)?.refresh(e.userId);
    }
  }

  /** A contract's watch, made when the contract is first seen registered (none for another instrument). */
  #watch(contractId: string): LiquidationWatch | undefined {
    const watches = this.#current();
    let watch = watches.get(contractId);
    if (watch === undefined && this.#ids.has(contractId) && this.#engine.state.instrument(contractId)?.perpetual) {
      watch = this.#engine.state.liquidationWatch(contractId);
      watches.set(contractId, watch);
    }
    return watch;
  }

  /** The watches of the engine running now: emptied (then made again from its positions) when it is another. */
  #current(): Map<string, LiquidationWatch> {
    const engine = this.#engine.state;
    if (engine !== this.#builtFrom) {
      this.#watches = new Map();
      this.#builtFrom = engine;
    }
    return this.#watches;
  }
}
