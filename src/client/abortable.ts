// The waits of a call that its caller's signal ends at once: a promise the call no longer awaits, and a pause.

/**
 * A promise's outcome, or the signal's reason as soon as it aborts: what is awaited is not stopped, its outcome
 * no longer matters.
 */
export function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) {
    // What it waits on goes on without the caller; its failure is no longer anyone's.
    promise.catch(() => undefined);
    return Promise.reject(signal.reason);
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    // Stryker disable next-line ObjectLiteral,BooleanLiteral: the listener is removed when the promise settles, so `once` changes nothing.
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

/** Waits, unless the caller aborts first. */
export function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      // Stryker disable next-line OptionalChaining: the listener runs only on the signal.
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    // Stryker disable next-line ObjectLiteral,BooleanLiteral: a signal aborts once, and the timer removes the listener otherwise.
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
