// What one attempt of a call is sent with: its own signal, fed by its timer and the caller's; a redirect refused;
// the name of its failure. sendCall (send-call.ts) sends the attempt itself, in its own frame: an async function
// per attempt would cost every call one more suspended frame and one more turn of the microtask queue.
import type { CallPolicy } from "./call-policy.js";
import { ConnectionError, IngestionError, RedirectError, TimeoutError } from "./errors.js";
import { noBody, type ReadBody, requestIdOf } from "./read-body.js";

/** An attempt the server answered: its response, and the body read within the attempt's time. */
export interface Answered {
  response: Response;
  body: ReadBody;
}

/**
 * An attempt's signal, from one controller fed by its timer (the policy's `timeoutMs`, for the response and its
 * whole body) and by the caller's signal. `end()` stops both once the attempt is over.
 */
export class AttemptSignal {
  readonly #controller = new AbortController();
  readonly #timer: ReturnType<typeof setTimeout>;
  readonly #caller: AbortSignal | undefined;
  // No closure is made unless the caller gave a signal.
  readonly #onCallerAbort: (() => void) | undefined;

  constructor(timeoutMs: number, caller: AbortSignal | undefined) {
    this.#timer = setTimeout(abortAttempt, timeoutMs, this.#controller);
    this.#caller = caller;
    if (caller) {
      const controller = this.#controller;
      this.#onCallerAbort = () => controller.abort(caller.reason);
      // Stryker disable next-line ObjectLiteral,BooleanLiteral: the listener is removed by end(), so `once` changes nothing.
      caller.addEventListener("abort", this.#onCallerAbort, { once: true });
    }
  }

  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** The attempt is over: its timer goes, and its listener leaves the caller's signal, so a long-lived signal does not collect one per call. */
  end(): void {
    clearTimeout(this.#timer);
    // Stryker disable next-line OptionalChaining: the listener exists only when there is a signal.
    if (this.#onCallerAbort) this.#caller?.removeEventListener("abort", this.#onCallerAbort);
  }
}

/**
 * Whether an answer is a redirect. The contract declares none: following one would resend the request,
 * credentials and body, elsewhere or again (a create twice). In a browser, "manual" gives an opaque answer with
 * status 0 (its type is read only then).
 */
export function isRedirect(response: Response): boolean {
  const { status } = response;
  return (status >= 300 && status < 400) || (status === 0 && response.type === "opaqueredirect");
}

/** A redirect's error, once its body is let go. */
export async function refusedRedirect(response: Response, policy: CallPolicy): Promise<RedirectError> {
  await response.body?.cancel();
  return new RedirectError(response.status, response.headers, requestIdOf(response.headers, noBody, undefined), policy);
}

/**
 * Why an attempt that the caller did not abort failed, as the error the caller gets: a policy error as it is (a
 * redirect, a body over `maxResponseBytes`), else a timeout or a connection failure.
 */
export function attemptFailure(error: unknown, signal: AbortSignal, { label, operationId, timeoutMs }: CallPolicy): IngestionError {
  if (error instanceof IngestionError) return error;
  // The controller aborts for the caller (handled before this) or for the timer.
  if (signal.aborted) return new TimeoutError(`${label} timed out after ${timeoutMs} ms`, { operationId });
  return new ConnectionError(`${label} got no complete response: ${describeFailure(error)}`, { cause: error, operationId });
}

function abortAttempt(controller: AbortController): void {
  controller.abort();
}

function describeFailure(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : "";
  return `${error.message}${cause}`;
}
