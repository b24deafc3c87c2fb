// The promise every SDK method returns: awaits to the resource, and offers the raw Response beside it.

/** A successful call's resource together with the response it came from. */
export interface WithResponse<T> {
  data: T;
  /** The HTTP response (its body has already been read). */
  response: Response;
  /** The request's ID: the body's `requestId` (management) or the `x-request-id` header. */
  requestId: string | undefined;
}

// Module-level, so no closure is made per call.
function ignore(): void {}
function dataOf<T>(result: WithResponse<T>): T {
  return result.data;
}

export class ApiPromise<T> implements PromiseLike<T> {
  readonly #result: Promise<WithResponse<T>>;
  #data: Promise<T> | undefined;

  constructor(result: Promise<WithResponse<T>>) {
    this.#result = result;
    // The call starts at once; a failure before the caller awaits (say, while it awaits an earlier
    // call) must not crash the process as an unhandled rejection. Awaiting still throws it.
    result.catch(ignore);
  }

  /** The resource with its `Response` and request ID. */
  withResponse(): Promise<WithResponse<T>> {
    return this.#result;
  }

  // Derived on first use, so a caller who only uses withResponse() gets no second, unhandled rejection.
  #dataPromise(): Promise<T> {
    this.#data ??= this.#result.then(dataOf);
    return this.#data;
  }

  // biome-ignore lint/suspicious/noThenProperty: an ApiPromise is awaited like a promise; `then` is what makes it so.
  then<R1 = T, R2 = never>(
    onfulfilled?: ((value: T) => R1 | PromiseLike<R1>) | null,
    onrejected?: ((reason: unknown) => R2 | PromiseLike<R2>) | null,
  ): Promise<R1 | R2> {
    return this.#dataPromise().then(onfulfilled, onrejected);
  }

  catch<R = never>(onrejected?: ((reason: unknown) => R | PromiseLike<R>) | null): Promise<T | R> {
    return this.#dataPromise().catch(onrejected);
  }

  finally(onfinally?: (() => void) | null): Promise<T> {
    return this.#dataPromise().finally(onfinally);
  }

  get [Symbol.toStringTag](): string {
    return "ApiPromise";
  }
}
