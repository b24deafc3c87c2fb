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

/**
 * The answer `operation` declares for `code`, with the named example (the first by default) as its body: a range's
 * answer (503 under 5XX) carries the code itself, and a 401 the challenge naming the interface's scheme. `declared` is
 * the declared status that covers the code. Undefined when the operation declares no such status, or no such example.
 */
export function declaredAnswerFor(operation: Operation, code: number, exampleName?: string): (DeclaredAnswer & { declared: string }) | undefined {
  const declared = declaredStatusOf(operation, code);
  const answer = declared === undefined ? undefined : declaredAnswer(operation, declared, exampleName, code);
  if (answer === undefined || declared === undefined) return undefined;
  if (answer.status === 401) answer.headers["www-authenticate"] = challenge(operation.api);
  return { ...answer, declared };
}
