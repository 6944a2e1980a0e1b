// The rule both adapters keep for Db.transactionEarly: once one has failed (its statements, its COMMIT
// or its sync), every later one fails too, naming the first failure. A single writer builds each
// transaction on the ones before it; committing one after a gap would write on a state that never was.

/** Why an early transaction was not committed: `first`, an earlier one, failed. Only a new Db writes early again. */
export function failedBefore(first: unknown): Error {
  const what = first instanceof Error ? first.message : String(first);
  return new Error(`an earlier transactionEarly failed, so this one was not committed: ${what}`, { cause: first });
}
