// What a client can be configured with, and how options, the environment and defaults combine.

import type { InterfaceDescriptor } from "../contract/interfaces.js";
import { credentialQueue } from "./credential-queue.js";
import { IngestionError } from "./errors.js";
import { checkedDefaultHeaders, ownHeaders } from "./headers.js";
import type { Hooks } from "./hooks.js";
import { createLog, type Logger, type LogLevel } from "./logging.js";
import { processRateLimitStore } from "./memory-store.js";
import { credentialKey, declaredLimit, type RateLimit, type RateLimitStore } from "./rate-limit.js";

/** Options shared by both clients. */
export interface CommonClientOptions extends Hooks {
  /** Scheme, host and port of the interface, without a path (`https://api.example.com`). */
  baseUrl?: string;
  /**
   * Time allowed for each attempt, headers and body, in milliseconds; it starts when the attempt leaves the
   * rate-limit queue, so time spent waiting for a turn does not count. Default 60 000.
   */
  timeoutMs?: number;
  /** Retries after the first attempt, for failures that are safe to retry. Default 2. */
  maxRetries?: number;
  /**
   * The most bytes a response body may have, decoded (after gzip or brotli). Reading stops there with
   * ResponseTooLargeError, not retried. Default 16 MiB: about 16,000 services with every field, far above
   * the largest real answer (a services list), while a hostile endless or compressed body stays bounded.
   */
  maxResponseBytes?: number;
  /** The `fetch` to send requests with. Default `globalThis.fetch`. */
  fetch?: typeof fetch;
  /** Check path, query and body against the contract before sending. Default true. */
  validateRequests?: boolean;
  /** Check each successful response body against the contract. Default false. */
  validateResponses?: boolean;
  /** Where log lines go. Default `console`. */
  logger?: Logger;
  /** Default `off`. `info` logs every attempt, `warn` retried ones, `error` failed calls. */
  logLevel?: LogLevel;
  /** Allow `http://` to a host other than loopback. Credentials then travel in clear text. Default false. */
  allowInsecureHttp?: boolean;
  /**
   * Headers sent with every request (a tracing or tenant header). A call's own `headers` replace them by name;
   * `Authorization`, `Accept` and the JSON `Content-Type` stay the client's. A `User-Agent` here goes before the
   * client's own `ingestion-api/<version> <runtime>/<version>`.
   */
  defaultHeaders?: Record<string, string>;
  /**
   * How fast this credential's calls may leave: at most `requests` in any `intervalMs`, in turn, shared by every
   * client of the same credential and server in this process (typed calls and `raw`). Default: the limit the
   * contract declares (management 10 per 10 s per key, alerting 100 per 60 s per token). Raise it when your
   * organization was granted a higher limit; `false` sends at once (a test suite against a local mock). Either
   * way a 429 stops every call of the credential for the wait it names, and lowers the pace to what the server
   * accepted until windows pass without another (RATE-LIMITS.md).
   */
  rateLimit?: { requests: number; intervalMs: number } | false;
  /**
   * The longest a call may wait because of 429s, over all its attempts: the pauses, and what a lowered pace adds to
   * its own limit's. Past it the call fails with RateLimitError, sending nothing more; waiting for its own pace is
   * never cut short. Also the longest Retry-After of a 503 that is waited for. Default 120 000.
   */
  maxRateLimitWaitMs?: number;
  /** Where the credential's sends are counted. Default: this process; `ingestion-api/redis` shares them between processes. */
  rateLimitStore?: RateLimitStore;
}

export interface ManagementClientOptions extends CommonClientOptions {
  /** API key ID. Default: `INGESTION_API_KEY_ID`. */
  keyId?: string;
  /** API key secret. Default: `INGESTION_API_KEY_SECRET`. */
  keySecret?: string;
  /** Organization used when a call names none. Default: `INGESTION_ORGANIZATION_ID`. */
  organizationId?: string;
}

export interface AlertsClientOptions extends CommonClientOptions {
  /** Bearer token. Default: `INGESTION_ALERTS_TOKEN`. */
  token?: string;
}

/** Per-call options; each overrides the client's setting for this call only. */
export interface RequestOptions {
  /** Aborts the call at once, with no retry; the call rejects with the signal's reason. */
  signal?: AbortSignal;
  timeoutMs?: number;
  maxRetries?: number;
  /** Extra request headers. `Authorization` is the client's and cannot be replaced here. */
  headers?: Record<string, string>;
}

// Read without importing `node:process`, so the client also runs in browsers, Deno and Bun
// (where reading the environment without permission throws: then there is none).
function environment(name: string): string | undefined | { refused: unknown } {
  try {
    const value = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.[name];
    return value === "" ? undefined : value;
  } catch (error) {
    // Deno without --allow-env throws on the read: the variable may well be set, so the error must say why it was not seen.
    return { refused: error };
  }
}

/** An option's value, else its environment variable's (as the interface names it); a missing one names both. */
export function fromOptionOrEnvironment(factory: string, api: InterfaceDescriptor, option: string, value: string | undefined): string {
  const variable = api.environment[option] as string;
  const resolved = value ?? environment(variable);
  if (typeof resolved === "object") {
    throw new IngestionError(`${factory}: missing ${option}; pass { ${option} }, or let the runtime read ${variable} (Deno: --allow-env=${variable})`, {
      cause: resolved.refused,
    });
  }
  if (resolved === undefined || resolved === "") {
    throw new IngestionError(`${factory}: missing ${option}; pass { ${option} } or set the environment variable ${variable}`);
  }
  return resolved;
}

export function optionalFromEnvironment(api: InterfaceDescriptor, option: string, value: string | undefined): string | undefined {
  const found = value ?? environment(api.environment[option] as string);
  return typeof found === "object" ? undefined : found;
}

/** Refuses credentials that could forge or split HTTP headers. The value itself is never echoed. */
export function assertHeaderSafe(factory: string, option: string, value: string): string {
  if (/[\r\n\0]/.test(value)) {
    throw new IngestionError(`${factory}: ${option} contains a line break or NUL character; refusing to send it in a header`);
  }
  return value;
}

/** A bearer token goes into the header as it is: visible ASCII only (fetch would refuse the rest mid-call). */
export function assertTokenCharacters(factory: string, option: string, value: string): string {
  assertHeaderSafe(factory, option, value);
  if (!/^[\x21-\x7e]+$/.test(value)) {
    throw new IngestionError(`${factory}: ${option} must be visible ASCII characters without spaces`);
  }
  return value;
}

const loopbackHosts = new Set(["localhost", "[::1]"]);

function isLoopback(hostname: string): boolean {
  return loopbackHosts.has(hostname) || /^127(\.\d{1,3}){3}$/.test(hostname);
}

/**
 * A usable base URL: http(s), no credentials, no trailing slash; plain http only to loopback unless allowed;
 * and not ending in the version prefix its paths already start with (`/v1`, `/api/v2`), which would make
 * every call a 404.
 */
export function checkedBaseUrl(factory: string, api: InterfaceDescriptor, baseUrl: string, allowInsecureHttp: boolean): string {
  const variable = api.environment.baseUrl;
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    // Echoed so the mistake can be seen, unless it may hold credentials ("user:secret@host").
    const shown = baseUrl.includes("@") ? "(not shown: it contains @, so it may carry credentials)" : JSON.stringify(baseUrl);
    throw new IngestionError(`${factory}: baseUrl (or ${variable}) is not a valid URL: ${shown}`);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new IngestionError(`${factory}: baseUrl must use https:// (or http:// to a loopback host), not ${url.protocol}`);
  }
  if (url.username || url.password) {
    throw new IngestionError(`${factory}: baseUrl must not carry credentials; pass them as options instead`);
  }
  if (url.search || url.hash) {
    throw new IngestionError(`${factory}: baseUrl must not have a query or a fragment`);
  }
  if (url.protocol === "http:" && !isLoopback(url.hostname) && !allowInsecureHttp) {
    throw new IngestionError(
      `${factory}: refusing plain http:// to ${url.hostname}: credentials would travel in clear text; use https:// or pass allowInsecureHttp: true`,
    );
  }
  const base = url.href.replace(/\/+$/, "");
  const prefixes = api.prefix.split("/").filter(Boolean);
  for (let count = prefixes.length; count > 0; count--) {
    const prefix = `/${prefixes.slice(0, count).join("/")}`;
    if (url.pathname.replace(/\/+$/, "").endsWith(prefix)) {
      throw new IngestionError(`${factory}: baseUrl ends with ${prefix}, which every path already starts with; pass ${base.slice(0, -prefix.length)} instead`);
    }
  }
  return base;
}

/** The default `maxResponseBytes`: 16 MiB. */
export const defaultMaxResponseBytes = 16 * 1024 * 1024;

/** Timers fire at once beyond a signed 32-bit number of milliseconds (about 24.8 days). */
export const maxTimeoutMs = 2_147_483_647;

export function checkedCount(where: string, option: string, value: number, minimum: number, maximum: number): number {
  if (!Number.isInteger(value) || value < minimum || value > maximum) {
    throw new IngestionError(`${where}: ${option} must be an integer from ${minimum} to ${maximum}, got ${value}`);
  }
  return value;
}

/**
 * The transport settings both clients resolve the same way, from the options, the environment and the interface;
 * `credentials` is what follows the interface's scheme in `Authorization`, and `credentialId` names the credential
 * whose calls share a rate-limit queue (the key ID, or the token).
 */
export function resolveCommonOptions(factory: string, api: InterfaceDescriptor, options: CommonClientOptions, credentials: string, credentialId: string) {
  const baseUrl = checkedBaseUrl(factory, api, fromOptionOrEnvironment(factory, api, "baseUrl", options.baseUrl), options.allowInsecureHttp ?? false);
  const store = options.rateLimitStore ?? processRateLimitStore;
  return {
    api,
    baseUrl,
    ownHeaders: ownHeaders(`${api.scheme} ${credentials}`, checkedDefaultHeaders(factory, options.defaultHeaders)),
    // Called detached: a browser's fetch throws "Illegal invocation" when called as a method of another object.
    fetch: options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => globalThis.fetch(input, init)),
    timeoutMs: checkedCount(factory, "timeoutMs", options.timeoutMs ?? 60_000, 1, maxTimeoutMs),
    maxRetries: checkedCount(factory, "maxRetries", options.maxRetries ?? 2, 0, 100),
    maxResponseBytes: checkedCount(factory, "maxResponseBytes", options.maxResponseBytes ?? defaultMaxResponseBytes, 1, 2 ** 30),
    validateRequests: options.validateRequests ?? true,
    validateResponses: options.validateResponses ?? false,
    // Stryker disable next-line StringLiteral: a level of "" logs nothing, as "off" does (no line's level ranks at or below it).
    log: createLog(options.logger ?? console, options.logLevel ?? "off"),
    onQueued: checkedHook(factory, "onQueued", options.onQueued),
    onRequest: checkedHook(factory, "onRequest", options.onRequest),
    onResponse: checkedHook(factory, "onResponse", options.onResponse),
    rateLimit: checkedRateLimit(factory, api, options.rateLimit),
    maxRateLimitWaitMs: checkedCount(factory, "maxRateLimitWaitMs", options.maxRateLimitWaitMs ?? 120_000, 0, maxTimeoutMs),
    // One queue per interface, server and credential: two keys are limited apart, two clients of one key together.
    queue: credentialQueue(store, credentialKey(api.name, baseUrl, credentialId)),
  };
}

/** The option as the queue takes it: the contract's declared limit by default, undefined for `false`. */
function checkedRateLimit(factory: string, api: InterfaceDescriptor, rateLimit: CommonClientOptions["rateLimit"]): RateLimit | undefined {
  if (rateLimit === false) return undefined;
  if (rateLimit === undefined) return declaredLimit(api);
  if (typeof rateLimit !== "object" || rateLimit === null) throw new IngestionError(`${factory}: rateLimit must be { requests, intervalMs } or false`);
  return {
    requests: checkedCount(factory, "rateLimit.requests", rateLimit.requests, 1, 1_000_000),
    intervalMs: checkedCount(factory, "rateLimit.intervalMs", rateLimit.intervalMs, 1, maxTimeoutMs),
  };
}

function checkedHook<Hook>(factory: string, option: string, hook: Hook | undefined): Hook | undefined {
  if (hook !== undefined && typeof hook !== "function") throw new IngestionError(`${factory}: ${option} must be a function`);
  return hook;
}
