// What one attempt of a call is checked and named by: a redirect refused, the name of its failure. sendCall
// (send-call.ts) sends the attempt itself, in its own frame: an async function per attempt would cost every call
// one more suspended frame and one more turn of the microtask queue.
import type { CallPolicy } from "./call-policy.js";
import { ConnectionError, IngestionError, RedirectError, TimeoutError } from "./errors.js";
import { noBody, type ReadBody, requestIdOf } from "./read-body.js";

/** An attempt the server answered: its response, and the body read within the attempt's time. */
export interface Answered {
  response: Response;
  body: ReadBody;
}

/**
 * A redirect's refusal: the contract declares none, and following one would resend the request, credentials and
 * body, elsewhere or again (a create twice). A promise that rejects with its RedirectError once its body is let go;
 * undefined for any other answer. In a browser, "manual" gives an opaque answer with status 0 (its type is read only
 * then).
 */
export function refusedRedirect(response: Response, policy: CallPolicy): Promise<never> | undefined {
  const { status, headers } = response;
  if (!((status >= 300 && status < 400) || (status === 0 && response.type === "opaqueredirect"))) return undefined;
  return Promise.resolve(response.body?.cancel()).then(() => {
    throw new RedirectError(status, headers, requestIdOf(headers, noBody, undefined), policy);
  });
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

/** What an attempt's timer does. */
export function abortAttempt(controller: AbortController): void {
  controller.abort();
}

function describeFailure(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : "";
  return `${error.message}${cause}`;
}
