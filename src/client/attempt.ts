// One attempt of a call: the request sent and its whole answer read within the attempt's time, a redirect refused.
import type { CallPolicy } from "./call-policy.js";
import { ConnectionError, IngestionError, RedirectError, TimeoutError } from "./errors.js";
import { noBody, parsedBody, type ReadBody, readText, requestIdOf } from "./read-body.js";

/** An attempt the server answered: its response, and the body read within the attempt's time. */
export interface Answered {
  response: Response;
  body: ReadBody;
}

/**
 * Sends one attempt: the response and its whole body within the policy's `timeoutMs`, from one controller fed by
 * the timer and the caller's signal. Resolves to the answer, or to the IngestionError the attempt failed with (a
 * timeout, no complete answer, a redirect, a body over `maxResponseBytes`) for the caller to retry or not; rejects
 * only with the caller's reason when the caller aborts.
 */
export async function sendAttempt(
  send: typeof fetch,
  url: string,
  init: RequestInit,
  caller: AbortSignal | undefined,
  policy: CallPolicy,
  maxResponseBytes: number,
): Promise<Answered | IngestionError> {
  const controller = new AbortController();
  const timer = setTimeout(abortAttempt, policy.timeoutMs, controller);
  // The caller's listener is removed after the attempt, so a long-lived signal does not collect one per call; no
  // closure is made unless the caller gave a signal.
  let onCallerAbort: (() => void) | undefined;
  if (caller) {
    onCallerAbort = () => controller.abort(caller.reason);
    // Stryker disable next-line ObjectLiteral,BooleanLiteral: the listener is removed after the attempt, so `once` changes nothing.
    caller.addEventListener("abort", onCallerAbort, { once: true });
  }
  init.signal = controller.signal;
  try {
    const response = await send(url, init);
    // The contract declares no redirect: following one would resend the request, credentials and body,
    // elsewhere or again (a create twice). In a browser, "manual" gives an opaque answer with status 0.
    // (An opaque redirect's status is 0: its type is read only then.)
    const { status } = response;
    if ((status >= 300 && status < 400) || (status === 0 && response.type === "opaqueredirect")) {
      await response.body?.cancel();
      throw new RedirectError(status, response.headers, requestIdOf(response.headers, noBody, undefined), policy);
    }
    return { response, body: parsedBody(await readText(response, maxResponseBytes, policy)) };
  } catch (error) {
    if (caller?.aborted) throw caller.reason;
    return attemptFailure(error, controller.signal, policy);
  } finally {
    clearTimeout(timer);
    // Stryker disable next-line OptionalChaining: the listener exists only when there is a signal.
    if (onCallerAbort) caller?.removeEventListener("abort", onCallerAbort);
  }
}

/** Why an attempt failed, as the error the caller gets: a policy error as it is, else a timeout or a connection failure. */
function attemptFailure(error: unknown, signal: AbortSignal, { label, operationId, timeoutMs }: CallPolicy): IngestionError {
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
