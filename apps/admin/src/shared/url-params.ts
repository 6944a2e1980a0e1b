// Page and filter state kept in the URL (so a view can be shared and survives a reload).

/** A whole number ≥ 1 from a URL parameter, capped at `max`; anything else gives `fallback`. */
export function positiveInt(value: string | null, fallback: number, max: number): number {
  const parsed = Number(value);
  return Number.isInteger(parsed) && parsed >= 1 ? Math.min(parsed, max) : fallback;
}

/** A copy of `params` with `changes` applied; an empty string removes the parameter. */
export function withParams(params: URLSearchParams, changes: Record<string, string | number>): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const [name, value] of Object.entries(changes)) {
    if (value === '') next.delete(name);
    else next.set(name, String(value));
  }
  return next;
}
