// How `ingestion-api verify` sends: through the SDK's own sending (its body cap, timeout, refusal of
// redirects) and its credential queue, so the checks keep the rate limit as a client does and pause for a 429 as
// a client does. It never retries anything else: the first answer is what is judged.

import { callPolicy } from "../client/call-policy.js";
import { credentialQueue } from "../client/credential-queue.js";
import type { OwnHeaders } from "../client/headers.js";
import { ownHeaders } from "../client/headers.js";
import { processRateLimitStore } from "../client/memory-store.js";
import { credentialKey, type RateLimit } from "../client/rate-limit.js";
import { type Answer, asAnswer, type Sender, sendCall } from "../client/send-call.js";
import type { Api } from "./contract.js";

/** Which `Authorization` a request carries: the given credentials, none, made-up ones, or the other interface's scheme. */
export type Credentials = "valid" | "none" | "wrong" | "other-scheme";

/** One request, as a check states it: the path with its parameters filled in, and the query without `?`. */
export interface Outgoing {
  operationId: string;
  method: string;
  path: string;
  query?: string | undefined;
  headers?: Record<string, string> | undefined;
  /** The JSON body, sent as `JSON.stringify` writes it. */
  body?: unknown;
  credentials?: Credentials;
}

/** What came back: the answer, its body as text (and parsed when it is JSON), or why there is none. */
export interface Exchange {
  request: Outgoing;
  status: number;
  headers: Headers;
  text: string;
  json: unknown;
  isJson: boolean;
  /** Why no answer could be judged: a connection failure, a timeout, a redirect, a body past the cap. */
  failure?: string;
  /** The 429s answered before this one, each waited for; they are answers to judge too. */
  limited: Exchange[];
}

export interface SenderOptions {
  api: Api;
  baseUrl: string;
  /** What follows the scheme in `Authorization`: `base64(id:secret)` or the token. */
  credentials: string;
  /** The credential's id for the queue (the key id, or the token). */
  credentialId: string;
  rateLimit: RateLimit | undefined;
  timeoutMs: number;
  /** Called once per request that leaves, 429s' re-sends included. */
  onSent?: () => void;
}

const maxResponseBytes = 16 * 1024 * 1024;
/** How many 429s one request may get before the check gives up on it. */
const maxLimited = 5;

/** The headers of a request without credentials: the SDK's own, less `Authorization`. */
function withoutAuthorization(headers: OwnHeaders): OwnHeaders {
  const drop = ({ authorization: _, ...rest }: Readonly<Record<string, string>>) => rest;
  return {
    withoutBody: drop(headers.withoutBody),
    withBody: drop(headers.withBody),
    fixedWithoutBody: drop(headers.fixedWithoutBody),
    fixedWithBody: drop(headers.fixedWithBody),
  };
}

/** Made-up credentials of a scheme: never a real secret, so a wrong-scheme check leaks nothing to the other service. */
const madeUp = (scheme: string) => (scheme === "Basic" ? `Basic ${btoa("verify-unknown-key:verify-wrong-secret")}` : "Bearer verify-unknown-token");

export function createSender(options: SenderOptions): (request: Outgoing) => Promise<Exchange> {
  const { api, baseUrl, rateLimit, timeoutMs, onSent } = options;
  const queue = credentialQueue(processRateLimitStore, credentialKey(`verify ${api.name}`, baseUrl, options.credentialId));
  const otherScheme = api.scheme === "Basic" ? "Bearer" : "Basic";
  const headersFor: Record<Credentials, OwnHeaders> = {
    valid: ownHeaders(`${api.scheme} ${options.credentials}`, {}),
    none: withoutAuthorization(ownHeaders("", {})),
    wrong: ownHeaders(madeUp(api.scheme), {}),
    "other-scheme": ownHeaders(madeUp(otherScheme), {}),
  };
  // Every kind of request goes through one queue: a server may count them all against the caller.
  const senders = Object.fromEntries(
    Object.entries(headersFor).map(([kind, headers]) => [
      kind,
      {
        onQueued: undefined,
        onRequest: undefined,
        onResponse: undefined,
        ownHeaders: headers,
        fetch: (input, init) => globalThis.fetch(input, init),
        maxResponseBytes,
        requestIdField: api.requestIdField,
        errorKey: api.errorKey,
        log: undefined,
        queue,
        rateLimit,
        maxRateLimitWaitMs: 120_000,
      } satisfies Sender,
    ]),
  ) as Record<Credentials, Sender>;

  return async function send(request) {
    const { method, path, query, headers, body, credentials = "valid", operationId } = request;
    const call = {
      method,
      url: `${baseUrl}${path}${query ? `?${query}` : ""}`,
      body: body === undefined ? undefined : JSON.stringify(body),
      headers,
      signal: undefined,
      // The first answer is what is judged: never retried.
      policy: callPolicy({ label: `${operationId} ${method} ${path}`, operationId }, { timeoutMs, maxRetries: 0 }),
    };
    const limited: Exchange[] = [];
    for (;;) {
      onSent?.();
      let answer: Answer;
      try {
        answer = await sendCall(senders[credentials], call, asAnswer);
      } catch (error) {
        const { name, message } = error as Error;
        return { request, status: 0, headers: new Headers(), text: "", json: undefined, isJson: false, failure: `${name}: ${message}`, limited };
      }
      const {
        response,
        body: { text, json, isJson },
      } = answer;
      const exchange: Exchange = { request, status: response.status, headers: response.headers, text, json, isJson, limited };
      // sendCall paused the credential's queue for the wait the 429 named: the next try waits its turn.
      if (response.status !== 429 || limited.length >= maxLimited) return exchange;
      limited.push({ ...exchange, limited: [] });
    }
  };
}
