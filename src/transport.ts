// The request pipeline every method of both clients goes through: validation, URL, authorization,
// retries, timeouts, errors, logging and envelope unwrapping. Policy lives here and nowhere else.

import type { Client } from "openapi-fetch";
import * as openapiFetch from "openapi-fetch";
import { ApiPromise, type WithResponse } from "./api-promise.js";
import { checkedCount, maxTimeoutMs, type RequestOptions } from "./client-options.js";
import { apiErrorFor, ConnectionError, IngestionError, RequestValidationError, ResponseValidationError, TimeoutError, type ValidationIssue } from "./errors.js";
import type { Log } from "./logging.js";
import { backoffMs, isRetryableFailure, isRetryableStatus, maxRetryAfterMs, requestedWaitMs } from "./retry-policy.js";
import { issuesOf, type OperationValidators } from "./validation.js";

// In the CommonJS build esbuild applies Node's interop, so the default import is openapi-fetch's whole
// exports object, whose own `default` is the function; in the ES module build it is the function itself.
const createClient: typeof openapiFetch.default =
  (openapiFetch.default as unknown as { default?: typeof openapiFetch.default }).default ?? openapiFetch.default;

export interface TransportConfig {
  baseUrl: string;
  /** The complete `Authorization` header value. */
  authorization: string;
  fetch: typeof fetch;
  timeoutMs: number;
  maxRetries: number;
  validateRequests: boolean;
  validateResponses: boolean;
  /** Undefined when logging is off, so no log line is even formatted. */
  log: Log | undefined;
  /** Build-time validators by `METHOD /path/{template}`. */
  validators: Record<string, OperationValidators>;
  /** The envelope field that holds the resource: `result` (management) or `data` (alerting). */
  envelope: "result" | "data";
}

export type HttpMethod = "GET" | "PUT" | "POST";

export interface CallInput {
  /** Path and query parameters by name, as the spec names them. */
  params?: Record<string, unknown>;
  body?: unknown;
}

export interface Transport<Paths extends {}> {
  /** Sends one operation and resolves to the resource inside the envelope. */
  call<T>(method: HttpMethod, path: keyof Paths & string, input: CallInput, options?: RequestOptions): ApiPromise<T>;
  /** An openapi-fetch client over the same base URL, authorization, retries and timeouts. */
  raw: Client<Paths>;
}

/** One attempt's complete answer: the response and its body, read within the attempt's time. */
interface Answer {
  response: Response;
  text: string;
  /** The parsed JSON, or the text when the body is not JSON, or undefined when empty. */
  body: unknown;
  json: boolean;
  requestId: string | undefined;
}

interface SendPolicy {
  label: string;
  idempotent: boolean;
  signal: AbortSignal | undefined;
  timeoutMs: number;
  maxRetries: number;
}

/** An operation's path template split once per client, not once per call. */
interface Route {
  label: string;
  validators: OperationValidators;
  /** The template split at its parameters: literal text at even indexes, parameter names at odd ones. */
  segments: string[];
  pathNames: Set<string>;
}

export function createTransport<Paths extends {}>(config: TransportConfig): Transport<Paths> {
  const { baseUrl, authorization, log, fetch: fetchImpl } = config;
  const routes = new Map<string, Route>();

  function routeFor(method: HttpMethod, path: string): Route {
    const key = `${method} ${path}`;
    let route = routes.get(key);
    if (!route) {
      const validators = config.validators[key];
      if (!validators) throw new IngestionError(`unknown operation ${key}`);
      const segments = path.split(/\{(\w+)\}/);
      const pathNames = new Set(segments.filter((_segment, index) => index % 2 === 1));
      route = { label: validators.operationId, validators, segments, pathNames };
      routes.set(key, route);
    }
    return route;
  }

  async function attempt(url: string, init: RequestInit, policy: SendPolicy): Promise<Answer> {
    // One controller per attempt, fed by the timer and the caller's signal; the listener is removed
    // afterwards, so a long-lived caller signal does not collect one entry per call.
    const controller = new AbortController();
    const onCallerAbort = () => controller.abort(policy.signal?.reason);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, policy.timeoutMs);
    policy.signal?.addEventListener("abort", onCallerAbort, { once: true });
    try {
      const response = await fetchImpl(url, { ...init, signal: controller.signal });
      return read(response, await response.text());
    } catch (error) {
      if (policy.signal?.aborted) throw policy.signal.reason;
      if (timedOut) throw new TimeoutError(`${policy.label} timed out after ${policy.timeoutMs} ms`);
      throw new ConnectionError(`${policy.label} got no complete response: ${describeFailure(error)}`, { cause: error });
    } finally {
      clearTimeout(timer);
      policy.signal?.removeEventListener("abort", onCallerAbort);
    }
  }

  async function send(url: string, init: RequestInit, policy: SendPolicy): Promise<Answer> {
    if (policy.signal?.aborted) throw policy.signal.reason;
    const path = url.slice(baseUrl.length);
    for (let retry = 0; ; retry++) {
      const started = Date.now();
      const attemptLabel = () => `${init.method} ${path} attempt ${retry + 1}/${policy.maxRetries + 1}`;
      let answer: Answer;
      try {
        answer = await attempt(url, init, policy);
      } catch (error) {
        const again = retry < policy.maxRetries && !policy.signal?.aborted && isRetryableFailure(error, policy.idempotent);
        const reason = error instanceof Error ? error.message : String(error);
        log?.(again ? "warn" : "error", `${attemptLabel()}: ${reason} after ${Date.now() - started} ms${again ? ", retrying" : ""}`);
        if (!again) throw error;
        await sleep(backoffMs(retry), policy.signal);
        continue;
      }
      const { response, requestId } = answer;
      if (response.ok) {
        log?.("info", `${attemptLabel()}: ${response.status} in ${Date.now() - started} ms${requestId ? ` request ${requestId}` : ""}`);
        return answer;
      }
      const retryAfterMs = requestedWaitMs(response.headers);
      const again =
        retry < policy.maxRetries && isRetryableStatus(response.status, policy.idempotent) && (retryAfterMs === undefined || retryAfterMs <= maxRetryAfterMs);
      const outcome = `${attemptLabel()}: ${response.status} in ${Date.now() - started} ms${requestId ? ` request ${requestId}` : ""}`;
      log?.(again ? "warn" : "error", again ? `${outcome}, retrying` : outcome);
      if (!again) return answer;
      await sleep(retryAfterMs ?? backoffMs(retry), policy.signal);
    }
  }

  async function execute<T>(method: HttpMethod, path: string, input: CallInput, options: RequestOptions): Promise<WithResponse<T>> {
    const route = routeFor(method, path);
    const { label, validators } = route;
    const params = input.params ?? {};
    if (config.validateRequests) {
      const issues = [...(validators.params ? issuesOf(validators.params, params) : []), ...(validators.body ? issuesOf(validators.body, input.body) : [])];
      if (issues.length > 0) throw new RequestValidationError(label, issues);
    }
    const url = baseUrl + expandPath(route, params) + queryString(params, route.pathNames);
    const init: RequestInit = { method, headers: requestHeaders(label, options.headers, input.body !== undefined) };
    if (input.body !== undefined) init.body = JSON.stringify(input.body);

    const answer = await send(url, init, {
      label,
      idempotent: method !== "POST",
      signal: options.signal,
      timeoutMs: options.timeoutMs === undefined ? config.timeoutMs : checkedTimeout(label, options.timeoutMs),
      maxRetries: options.maxRetries === undefined ? config.maxRetries : checkedRetries(label, options.maxRetries),
    });

    const { response, body, requestId } = answer;
    if (!response.ok) {
      throw apiErrorFor(response.status, body, response.headers, requestId, label, requestedWaitMs(response.headers));
    }
    if (!answer.json) throw notJson(label, answer);
    if (config.validateResponses) {
      const issues = issuesOf(validators.response, body);
      if (issues.length > 0) throw new ResponseValidationError(label, issues, requestId);
    }
    if (!body || typeof body !== "object" || !(config.envelope in body)) {
      throw new ResponseValidationError(label, [{ path: `/${config.envelope}`, message: "is required" }], requestId);
    }
    return { data: (body as Record<string, unknown>)[config.envelope] as T, response, requestId };
  }

  function requestHeaders(label: string, extra: Record<string, string> | undefined, hasBody: boolean): Record<string, string> {
    // JSON is what the contract answers; an error may still come as text (a 401 or a 429 from a proxy or a
    // rate limiter), which the client reads too, so it says it takes that rather than insist.
    const headers: Record<string, string> = { accept: "application/json, */*;q=0.1" };
    if (extra) {
      const issues: ValidationIssue[] = [];
      for (const [name, value] of Object.entries(extra)) {
        // Header names are case-insensitive: one lower-case key each, so ours replace a caller's.
        if (!headerName.test(name)) issues.push({ path: `/headers/${encodeURIComponent(name)}`, message: "is not a valid header name" });
        else if (!headerValue.test(value)) issues.push({ path: `/headers/${name}`, message: "must be visible ASCII, without line breaks" });
        else headers[name.toLowerCase()] = value;
      }
      if (issues.length > 0) throw new RequestValidationError(label, issues);
    }
    if (hasBody) headers["content-type"] = "application/json";
    headers.authorization = authorization;
    return headers;
  }

  // The openapi-fetch client for `raw`: same policy; HTTP errors stay openapi-fetch's `{ error }`.
  async function rawFetch(request: Request): Promise<Response> {
    const headers: Record<string, string> = {};
    request.headers.forEach((value, name) => {
      if (name !== "authorization") headers[name] = value;
    });
    headers.authorization = authorization;
    const init: RequestInit = { method: request.method, headers };
    if (request.body !== null) init.body = await request.arrayBuffer();
    const label = `${request.method} ${new URL(request.url).pathname}`;
    const answer = await send(request.url, init, {
      label,
      idempotent: request.method === "GET" || request.method === "PUT",
      signal: request.signal,
      timeoutMs: config.timeoutMs,
      maxRetries: config.maxRetries,
    });
    const { response, text } = answer;
    // openapi-fetch would throw a bare SyntaxError on a successful body that is not JSON.
    if (response.ok && text !== "" && !answer.json) throw notJson(label, answer);
    // The body is already decoded: its original length and encoding no longer describe it.
    const rawHeaders = new Headers(response.headers);
    rawHeaders.delete("content-encoding");
    rawHeaders.delete("content-length");
    return new Response(text === "" ? null : text, { status: response.status, statusText: response.statusText, headers: rawHeaders });
  }

  return {
    call: <T>(method: HttpMethod, path: keyof Paths & string, input: CallInput, options: RequestOptions = {}) =>
      new ApiPromise<T>(execute<T>(method, path, input, options)),
    raw: createClient<Paths>({ baseUrl, fetch: rawFetch }),
  };
}

// RFC 9110 token characters for names; visible ASCII and spaces for values (fetch refuses the rest).
const headerName = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const headerValue = /^[\x20-\x7e\t]*$/;

function notJson(label: string, { response, text, requestId }: Answer): ResponseValidationError {
  const kind = response.headers.get("content-type") ?? "no content type";
  const seen = text === "" ? "an empty body" : JSON.stringify(text.slice(0, 80));
  return new ResponseValidationError(label, [{ path: "", message: `is not JSON (${kind}): ${seen}` }], requestId);
}

function checkedTimeout(label: string, timeoutMs: number): number {
  return checkedCount(label, "timeoutMs", timeoutMs, 1, maxTimeoutMs);
}

function checkedRetries(label: string, maxRetries: number): number {
  return checkedCount(label, "maxRetries", maxRetries, 0, 100);
}

function read(response: Response, text: string): Answer {
  let body: unknown = text === "" ? undefined : text;
  let json = false;
  if (text !== "") {
    try {
      body = JSON.parse(text);
      json = true;
    } catch {
      // Not JSON (a plain-text 401, an HTML proxy page, a truncated body): keep the text.
    }
  }
  const bodyRequestId = json && body !== null && typeof body === "object" ? (body as { requestId?: unknown }).requestId : undefined;
  const requestId = typeof bodyRequestId === "string" ? bodyRequestId : (response.headers.get("x-request-id") ?? undefined);
  return { response, text, body, json, requestId };
}

/** Fills a route's path template; each value becomes exactly one encoded segment. */
function expandPath({ label, segments }: Route, params: Record<string, unknown>): string {
  let path = segments[0] as string;
  for (let index = 1; index < segments.length; index += 2) {
    const name = segments[index] as string;
    const value = params[name];
    if (value === undefined || value === null || value === "") {
      throw new RequestValidationError(label, [{ path: `/${name}`, message: "is required" }]);
    }
    const text = String(value);
    // URL parsing would collapse these (even percent-encoded) into a different path.
    if (text === "." || text === "..") {
      throw new RequestValidationError(label, [{ path: `/${name}`, message: 'must not be "." or ".."' }]);
    }
    path += encodeURIComponent(text) + segments[index + 1];
  }
  return path;
}

/** Query parameters are the ones not in the path; arrays repeat the name (`filter=a&filter=b`). */
function queryString(params: Record<string, unknown>, pathNames: Set<string>): string {
  // Created only when there is a query parameter: most calls have none, and it costs more than the rest.
  let search: URLSearchParams | undefined;
  for (const [name, value] of Object.entries(params)) {
    if (pathNames.has(name) || value === undefined || value === null) continue;
    search ??= new URLSearchParams();
    for (const item of Array.isArray(value) ? value : [value]) if (item !== undefined && item !== null) search.append(name, String(item));
  }
  const query = search?.toString();
  return query ? `?${query}` : "";
}

function describeFailure(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : "";
  return `${error.message}${cause}`;
}

/** Waits, unless the caller aborts first. */
function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
