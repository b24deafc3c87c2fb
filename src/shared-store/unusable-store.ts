// The failure of a shared store that waiting does not mend (a Redis too old for the scripts): the fail-open store
// says so once and counts in memory for good, asking the shared store nothing more.
export class UnusableStoreError extends Error {}
