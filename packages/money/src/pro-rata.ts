// Owns proportionate allocation of a whole number of units (shares, coin minor units, lots) among
// requests: what a pro-rata allotment (NII IPO bids, block trades, coin offerings) gives each applicant.
// Must hold: nobody gets more than they asked; the total given is min(supply, total asked) rounded down to
// whole `unit`s; the result depends only on the inputs and their order (ties go to the earlier request).
// Must not: use floating point.

/**
 * Splits `supply` among `requests` in proportion to each request, in multiples of `unit` (a lot).
 * Largest-remainder method: everyone first gets floor(request × supply ÷ total) rounded down to a
 * multiple of `unit`; the units left over go one `unit` at a time to the largest remainders (earlier
 * request first on a tie) among those still short of their request. When supply covers every request,
 * everyone gets exactly what they asked.
 */
export function allocateProRata(requests: readonly bigint[], supply: bigint, unit = 1n): bigint[] {
  if (unit <= 0n) throw new RangeError('unit must be positive');
  if (supply < 0n) throw new RangeError('supply must not be negative');
  for (const request of requests) {
    if (request < 0n || request % unit !== 0n)
      throw new RangeError('each request must be a non-negative multiple of unit');
  }
  const total = requests.reduce((sum, request) => sum + request, 0n);
  if (total <= supply) return [...requests];
  const available = supply - (supply % unit);
  const given = requests.map((request) => {
    const exact = (request * available) / total;
    return exact - (exact % unit);
  });
  // Remainders compared exactly: request × available − given × total (the part of a unit lost to rounding, × total).
  const order = requests
    .map((request, index) => ({ index, remainder: request * available - (given[index] as bigint) * total }))
    .filter(({ index }) => (given[index] as bigint) < (requests[index] as bigint))
    .sort((a, b) => (a.remainder === b.remainder ? a.index - b.index : a.remainder > b.remainder ? -1 : 1));
  let left = available - given.reduce((sum, value) => sum + value, 0n);
  for (const { index } of order) {
    if (left < unit) break;
    given[index] = (given[index] as bigint) + unit;
    left -= unit;
  }
  return given;
}
