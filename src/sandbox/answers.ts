// The bodies the sandbox answers with: each interface's envelope and its declared error body, from its descriptor; and
// the one way a status becomes the answer an operation declares for it (Prefer, fault rules).
import { type Api, type DeclaredAnswer, declaredAnswer, declaredStatusOf, type Operation } from "./contract.js";
import { challenge } from "./credentials.js";
import { newUuid } from "./ids.js";

export interface Answer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

/**
 * A success: the resource in the interface's envelope, which on the interface whose bodies carry a request id
 * (management) also says its status and that id: `{status, requestId, result}`, else `{data}`.
 */
export function success(api: Api, resource: unknown): Answer {
  const { envelope, requestIdField } = api;
  return { status: 200, body: requestIdField ? { status: 200, [requestIdField]: newUuid(), [envelope]: resource } : { [envelope]: resource } };
}

/** An error with the body the interface declares: `{status, error, requestId}` for management, `{message}` for alerting. */
export function failure(api: Api, status: number, message: string): Answer {
  const { errorKey, requestIdField } = api;
  return { status, body: requestIdField ? { status, [errorKey]: message, [requestIdField]: newUuid() } : { [errorKey]: message } };
}

/** The longest wait a test may ask a 429 for (`Prefer: retry-after=N`, a fault rule's `retryAfterSeconds`): an hour. */
export const maxRetryAfterSeconds = 3_600;

/** The headers that say how long to wait, in the order a client reads them: a 429 declares one or both. */
const waitHeaders = ["retry-after", "x-ratelimit-reset"];

/**
 * The answer `operation` declares for `code`, with the named example (the first by default) as its body: a range's
 * answer (503 under 5XX) carries the code itself, a 401 the challenge naming the interface's scheme, a body with a
 * request id a fresh one (the example's would name every answer alike), and a 429 one wait everywhere it names one:
 * `retryAfterSeconds`, or else its declared `Retry-After`, in each wait header it declares and in its message's
 * "retry after N seconds". `declared` is the declared status that covers the code. Undefined when the operation
 * declares no such status, or no such example.
 */
export function declaredAnswerFor(
  operation: Operation,
  code: number,
  { example, retryAfterSeconds }: { example?: string | undefined; retryAfterSeconds?: number | undefined } = {},
): (DeclaredAnswer & { declared: string }) | undefined {
  const declared = declaredStatusOf(operation, code);
  const answer = declared === undefined ? undefined : declaredAnswer(operation, declared, example, code);
  if (answer === undefined || declared === undefined) return undefined;
  if (answer.status === 401) answer.headers["www-authenticate"] = challenge(operation.api);
  const { requestIdField, errorKey } = operation.api;
  const body = answer.body as Record<string, unknown> | undefined;
  const fields = typeof body === "object" && body !== null ? body : {};
  if (requestIdField && requestIdField in fields) fields[requestIdField] = newUuid();
  const waits = waitHeaders.filter((name) => name in answer.headers);
  const seconds = retryAfterSeconds ?? Number(answer.headers["retry-after"]);
  if (waits.length > 0 && Number.isFinite(seconds)) {
    for (const name of waits) answer.headers[name] = String(seconds);
    const message = fields[errorKey];
    if (typeof message === "string") fields[errorKey] = message.replace(/retry after \d+ seconds/, `retry after ${seconds} seconds`);
  }
  return { ...answer, declared };
}

/** Whether the answer `operation` declares for `code` says how long to wait (a 429): what `retry-after` may change. */
export function declaresWait(operation: Operation, code: number): boolean {
  const answer = declaredAnswerFor(operation, code);
  return answer !== undefined && waitHeaders.some((name) => name in answer.headers);
}
