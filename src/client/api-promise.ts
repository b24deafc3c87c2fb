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

export class ApiPromise<T> implements PromiseLike<T> {
  readonly #outcome: Promise<Outcome<T>>;

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

  // biome-ignore lint/suspicious/noThenProperty: an ApiPromise is awaited like a promise; `then` is what makes it so.
  then<R1 = T, R2 = never>(
    onfulfilled?: ((value: T) => R1 | PromiseLike<R1>) | null,
    onrejected?: ((reason: unknown) => R2 | PromiseLike<R2>) | null,
  ): Promise<R1 | R2> {
    // Straight from the outcome, as `await` asks for it, and as a promise's then does: a handler that is no function
    // is passed over, and the failure rejects the promise returned unless `onrejected` takes it.
    return this.#outcome.then((outcome) => {
      if (!("failure" in outcome)) return typeof onfulfilled === "function" ? onfulfilled(outcome.data) : (outcome.data as unknown as R1);
      if (typeof onrejected === "function") return onrejected(outcome.failure);
      throw outcome.failure;
    });
  }

  catch<R = never>(onrejected?: ((reason: unknown) => R | PromiseLike<R>) | null): Promise<T | R> {
    return this.then(undefined, onrejected);
  }

  /** As a promise's finally: the callback runs either way, and the outcome passes on unless the callback fails. */
  finally(onfinally?: (() => void) | null): Promise<T> {
    if (typeof onfinally !== "function") return this.then();
    return this.then(
      (value) => Promise.resolve(onfinally()).then(() => value),
      (reason: unknown) =>
        Promise.resolve(onfinally()).then(() => {
          throw reason;
        }),
    );
  }

  get [Symbol.toStringTag](): string {
    return "ApiPromise";
  }
}
