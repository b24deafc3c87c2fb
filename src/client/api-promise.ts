// The promise every SDK method returns: awaits to the resource, and offers the raw Response beside it.

/** A successful call's resource together with the response it came from. */
export interface WithResponse<T> {
  data: T;
  /** The HTTP response. Its body has been read: the resource is `data` (its `text()` and `json()` are spent). */
  response: Response;
  /** The request's ID: the body's `requestId` (management) or the `x-request-id` header. */
  requestId: string | undefined;
}

/**
 * How a call ended: its result, or what it failed with. A call's promise resolves to this and never rejects, so
 * a failure before the caller awaits (say, while it awaits an earlier call) cannot crash the process as an
 * unhandled rejection, and no handler has to be attached to every call in case.
 */
export type Outcome<T> = WithResponse<T> | { failure: unknown };

// Module-level, so no closure is made per call.
function withResponseOf<T>(outcome: Outcome<T>): WithResponse<T> {
  if ("failure" in outcome) throw outcome.failure;
  return outcome;
}
function dataOf<T>(outcome: Outcome<T>): T {
  if ("failure" in outcome) throw outcome.failure;
  return outcome.data;
}

export class ApiPromise<T> implements PromiseLike<T> {
  readonly #outcome: Promise<Outcome<T>>;
  #data: Promise<T> | undefined;

  constructor(outcome: Promise<Outcome<T>>) {
    this.#outcome = outcome;
  }

  /** A call that failed before it started. */
  static failed<T>(failure: unknown): ApiPromise<T> {
    return new ApiPromise<T>(Promise.resolve({ failure }));
  }

  /** The resource with its `Response` and request ID. */
  withResponse(): Promise<WithResponse<T>> {
    return this.#outcome.then(withResponseOf);
  }

  // Derived on first use, so a caller who only uses withResponse() gets no second, unhandled rejection.
  #dataPromise(): Promise<T> {
    this.#data ??= this.#outcome.then(dataOf);
    return this.#data;
  }

  // biome-ignore lint/suspicious/noThenProperty: an ApiPromise is awaited like a promise; `then` is what makes it so.
  then<R1 = T, R2 = never>(
    onfulfilled?: ((value: T) => R1 | PromiseLike<R1>) | null,
    onrejected?: ((reason: unknown) => R2 | PromiseLike<R2>) | null,
  ): Promise<R1 | R2> {
    // Straight from the outcome, as `await` asks: a promise and a turn of the microtask queue fewer than through the
    // resource's promise. Its failure goes to `onrejected`, or rejects the promise returned, as a promise's does.
    return this.#outcome.then((outcome) => {
      if ("failure" in outcome) {
        if (onrejected) return onrejected(outcome.failure);
        throw outcome.failure;
      }
      return onfulfilled ? onfulfilled(outcome.data) : (outcome.data as unknown as R1);
    });
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
