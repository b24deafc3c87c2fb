// The per-attempt hooks a client takes (`onQueued`, `onRequest`, `onResponse`): what they see, and how a request
// hook's changes are taken back. All run for every attempt of typed calls and `raw` alike, from sendCall (send-call.ts).
import { type CallName, IngestionError } from "./errors.js";

/** What a hook knows about the attempt it sees. */
export interface AttemptContext {
  /** The operation (`getPipeSettings`); undefined for a `raw` call to a path the contract does not have. */
  operationId: string | undefined;
  /** 1 for the first attempt, 2 for the first retry, and so on. */
  attempt: number;
}

/** What `onResponse` knows: the attempt, and whether and when the client will send it again after this answer. */
export interface ResponseContext extends AttemptContext {
  willRetry: boolean;
  /**
   * When `willRetry`, the milliseconds until the next attempt may go: its backoff, the wait a `Retry-After` asked
   * for, or the pause a 429 set (its wait, and up to a tenth more, 1 s at most, so that processes sharing the
   * credential do not all come back at once), after which the retry takes its turn in the rate-limit queue
   * (`onQueued` says if it waits longer). Undefined when the client will not retry.
   */
  retryInMs: number | undefined;
}

/**
 * What `onQueued` knows: an attempt that waits for the limit in its credential's rate-limit queue (the store refused
 * its turn, or it queues behind calls the store refused; not one that waits only for a shared store's answer).
 */
export interface QueuedContext extends AttemptContext {
  /**
   * Its place in the credential's line in this process, which every client of the credential shares: the calls
   * ahead of it, and itself.
   */
  waiting: number;
  /**
   * About how long until its turn, at the limit the client was told (`rateLimit`) and if nothing else of the
   * credential sends meanwhile; undefined without a limit (the wait is then a 429's pause).
   */
  aboutMs: number | undefined;
  /**
   * The most this call still waits because of 429s (what is left of `maxRateLimitWaitMs`): past it the call ends
   * with a RateLimitError, unsent. Waiting for the limit's own pace is not bounded by it.
   */
  maxRateLimitWaitMs: number;
}

export interface Hooks {
  /**
   * Runs when an attempt, retries included, has to wait for the limit in the rate-limit queue (most go at once and
   * never call it): for a page or a log that shows the wait. A hook that throws, or whose promise rejects before
   * the turn comes, fails the call when its turn comes, before anything is sent.
   */
  onQueued?: (context: QueuedContext) => unknown;
  /**
   * Runs before each attempt is sent, retries included. It may set or delete headers on `request.headers`, or
   * return a new `Request` for the same method and URL whose headers are then sent; the method, URL and body
   * are not its to change. `Authorization` is the client's: it is put back after the hook, whatever it did.
   * A hook that throws fails the call, without a retry.
   */
  // biome-ignore lint/suspicious/noConfusingVoidType: a hook that only sets headers returns nothing, which TypeScript types as void.
  onRequest?: (request: Request, context: AttemptContext) => Request | void | Promise<Request | void>;
  /**
   * Runs after each attempt's answer was read (`response.text()` and `json()` give the body again), before the
   * client retries it or returns it. A hook that throws fails the call, without a retry.
   */
  onResponse?: (response: Response, context: ResponseContext) => unknown;
}

/** The headers to send after `onRequest` saw the attempt: its changes, with `Authorization` put back. */
export async function hookedHeaders(
  onRequest: NonNullable<Hooks["onRequest"]>,
  { label, operationId }: CallName,
  attempt: { method: string; url: string; headers: Record<string, string>; body: string | undefined },
  context: AttemptContext,
): Promise<Record<string, string>> {
  const request = new Request(attempt.url, { method: attempt.method, headers: attempt.headers, body: attempt.body ?? null });
  // biome-ignore lint/suspicious/noConfusingVoidType: what onRequest returns (see Hooks).
  let returned: Request | void;
  try {
    returned = await onRequest(request, context);
  } catch (error) {
    throw new IngestionError(`${label}: the onRequest hook failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error, operationId });
  }
  const final = returned ?? request;
  if (!(final instanceof Request)) throw new IngestionError(`${label}: onRequest must return a Request or nothing`, { operationId });
  if (final.method !== request.method || final.url !== request.url) {
    throw new IngestionError(`${label}: onRequest may change headers only; it returned a request for ${final.method} ${new URL(final.url).pathname}`, {
      operationId,
    });
  }
  const headers = Object.fromEntries(final.headers);
  headers.authorization = attempt.headers.authorization as string;
  return headers;
}

/**
 * Runs `onQueued`; what it throws, or what a promise it returns rejects with, goes to `failed` as the call's
 * IngestionError, to be thrown when the turn comes (a rejection never goes unhandled).
 */
export function runQueuedHook(
  onQueued: NonNullable<Hooks["onQueued"]>,
  { label, operationId }: CallName,
  context: QueuedContext,
  failed: (error: IngestionError) => void,
): void {
  const failure = (error: unknown) =>
    failed(new IngestionError(`${label}: the onQueued hook failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error, operationId }));
  try {
    const returned: unknown = onQueued(context);
    if (returned instanceof Promise) returned.catch(failure);
  } catch (error) {
    failure(error);
  }
}

/** Runs `onResponse`, turning what it throws into the call's IngestionError. */
export async function runResponseHook(
  onResponse: NonNullable<Hooks["onResponse"]>,
  { label, operationId }: CallName,
  response: Response,
  context: ResponseContext,
): Promise<void> {
  try {
    await onResponse(response, context);
  } catch (error) {
    throw new IngestionError(`${label}: the onResponse hook failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error, operationId });
  }
}
