// One request path for both clients: each typed method is a call of the openapi-fetch client, typed by the
// generated `paths`, after validation; openapi-fetch sends through the policy fetch (policy-fetch.ts), and
// what comes back is mapped to the resource or to an error here, once. `raw` is the same client.

import type { Client } from "openapi-fetch";
import * as openapiFetch from "openapi-fetch";
import { ApiPromise, type Outcome, type WithResponse } from "./api-promise.js";
import { checkedCount, maxTimeoutMs, type RequestOptions } from "./client-options.js";
import { apiErrorFor, IngestionError, RequestValidationError, ResponseValidationError, type ValidationIssue } from "./errors.js";
import { bodyOf, type CallPolicy, callPolicy, createPolicyFetch, PlainRequest, type PolicyFetchConfig, requestIdOf } from "./policy-fetch.js";
import { requestedWaitMs } from "./retry-policy.js";
import { issuesOf, type OperationValidators } from "./validation.js";

// In the CommonJS build esbuild applies Node's interop, so the default import is openapi-fetch's whole
// exports object, whose own `default` is the function; in the ES module build it is the function itself.
const createClient: typeof openapiFetch.default =
  (openapiFetch.default as unknown as { default?: typeof openapiFetch.default }).default ?? openapiFetch.default;

/** What the policy fetch needs, and what the typed calls add on top of it. */
export interface TransportConfig extends PolicyFetchConfig {
  validateRequests: boolean;
  validateResponses: boolean;
  /** Build-time validators by `METHOD /path/{template}`. */
  validators: Record<string, OperationValidators>;
  /** The envelope field that holds the resource: `result` (management) or `data` (alerting). */
  envelope: "result" | "data";
}

/** The methods the contracts use; a typed call is one of these on the openapi-fetch client. */
type Method = "get" | "put" | "post";

/** The paths that have an operation for `M`. */
type PathsWith<Paths, M extends Method> = {
  [Path in keyof Paths]: Paths[Path] extends Record<M, infer Operation> ? ([Operation] extends [never | undefined] ? never : Path) : never;
}[keyof Paths];
type OperationOf<Paths, M extends Method, Path extends keyof Paths> = Paths[Path] extends Record<M, infer Operation> ? Operation : never;

/** An operation's JSON request body, as the generated types state it. */
type RequestBodyOf<Operation> = Operation extends { requestBody: { content: { "application/json": infer Body } } } ? Body : never;
/** An operation's 200 JSON body, as the generated types state it. */
type SuccessBodyOf<Operation> = Operation extends { responses: { 200: { content: { "application/json": infer Body } } } } ? Body : never;

/**
 * What a typed call sends: openapi-fetch's `params` (path and query) and `body`, typed by the generated
 * operation. Stated from the generated types rather than openapi-fetch's, whose `Writable` drops a property
 * typed `null` alone (the contract's "a field of the other branch, only as null").
 */
export type CallInit<Operation> = ParamsInit<Operation extends { parameters: infer Params } ? Params : never> &
  ([RequestBodyOf<Operation>] extends [never] ? { body?: never } : { body: RequestBodyOf<Operation> });

/** `params`, optional when no parameter is required. */
type ParamsInit<Params> = Record<string, never> extends Params ? { params?: Params } : { params: Params };

/** The resource inside a success envelope: `result` (management) or `data` (alerting). */
export type Unwrapped<Envelope> = Envelope extends { result: infer Resource } ? Resource : Envelope extends { data: infer Resource } ? Resource : never;

/** A typed call: a path of `paths` and its params and body, resolving to the unwrapped resource of its 200 answer. */
export type TypedCall<Paths extends {}, M extends Method> = <Path extends PathsWith<Paths, M>>(
  path: Path,
  init: CallInit<OperationOf<Paths, M, Path>>,
  options?: RequestOptions,
) => ApiPromise<Unwrapped<SuccessBodyOf<OperationOf<Paths, M, Path>>>>;

export interface Transport<Paths extends {}> {
  GET: TypedCall<Paths, "get">;
  PUT: TypedCall<Paths, "put">;
  POST: TypedCall<Paths, "post">;
  /** The openapi-fetch client every call goes through: the clients' `raw`. */
  client: Client<Paths>;
}

interface Route {
  label: string;
  validators: OperationValidators;
  /** The policy of a call that overrides nothing and sends no body: one object for all such calls. */
  policy: CallPolicy;
}

type Init = { params?: { path?: Record<string, unknown>; query?: Record<string, unknown> }; body?: unknown };
const noInit: Init = {};
const noOptions: RequestOptions = {};

export function createTransport<Paths extends {}>(config: TransportConfig): Transport<Paths> {
  const client = createClient<Paths>({
    baseUrl: config.baseUrl,
    fetch: createPolicyFetch(config) as unknown as (request: Request) => Promise<Response>,
    Request: PlainRequest as unknown as typeof Request,
    pathSerializer: fillPath,
    // Made once here: left out, openapi-fetch makes the same serializer anew on every call.
    querySerializer: openapiFetch.createQuerySerializer(),
  });
  // By method, then path template: two lookups of strings the caller already has, no key built per call.
  const routes: Record<Uppercase<Method>, Map<string, Route>> = { GET: new Map(), PUT: new Map(), POST: new Map() };

  function routeFor(method: Uppercase<Method>, path: string): Route {
    let route = routes[method].get(path);
    if (!route) {
      const key = `${method} ${path}`;
      const validators = config.validators[key];
      if (!validators) throw new IngestionError(`unknown operation ${key}`);
      // Errors and log lines name the operation and its path template (never a value that may be private).
      const label = `${validators.operationId} ${key}`;
      route = { label, validators, policy: { label, timeoutMs: config.timeoutMs, maxRetries: config.maxRetries } };
      routes[method].set(path, route);
    }
    return route;
  }

  /** Validates the call and says how openapi-fetch is to send it: its params, and the policy beside them. */
  function callInitOf(route: Route, init: Init, options: RequestOptions): Record<string | symbol, unknown> {
    const { label, validators } = route;
    if (config.validateRequests) {
      const { path: pathParams, query } = init.params ?? {};
      const params = query ? { ...pathParams, ...query } : (pathParams ?? {});
      const paramIssues = validators.params ? issuesOf(validators.params, params) : [];
      const bodyIssues = validators.body ? issuesOf(validators.body, init.body) : [];
      if (paramIssues.length + bodyIssues.length > 0) throw new RequestValidationError(label, [...paramIssues, ...bodyIssues]);
    }
    // The body is serialized here, once, and the caller's headers checked; both go to the policy fetch with the
    // policy rather than through openapi-fetch, which would copy them into a Headers object only to be read back.
    const policy: CallPolicy =
      options.timeoutMs === undefined && options.maxRetries === undefined && options.headers === undefined && init.body === undefined
        ? route.policy
        : {
            label,
            timeoutMs: options.timeoutMs === undefined ? config.timeoutMs : checkedCount(label, "timeoutMs", options.timeoutMs, 1, maxTimeoutMs),
            maxRetries: options.maxRetries === undefined ? config.maxRetries : checkedCount(label, "maxRetries", options.maxRetries, 0, 100),
            body: init.body === undefined ? undefined : JSON.stringify(init.body),
            headers: options.headers === undefined ? undefined : checkedHeaders(label, options.headers),
          };
    // The policy fetch has read and parsed the body already: openapi-fetch need not parse it again.
    // Built field by field: a spread followed by a symbol key makes a slower, larger object on every call.
    const callInit: Record<string | symbol, unknown> = { params: init.params, parseAs: "stream" };
    callInit[callPolicy] = policy;
    if (options.signal) callInit.signal = options.signal;
    return callInit;
  }

  /** A response the policy fetch returned, as the call's result or its error. */
  function resultOf({ label, validators }: Route, response: Response): WithResponse<unknown> {
    const body = bodyOf(response);
    const requestId = requestIdOf(response, body);
    if (!response.ok) {
      throw apiErrorFor(
        response.status,
        body.isJson ? body.json : body.text || undefined,
        response.headers,
        requestId,
        label,
        requestedWaitMs(response.headers),
      );
    }
    if (config.validateResponses) {
      const issues = issuesOf(validators.response, body.json);
      if (issues.length > 0) throw new ResponseValidationError(label, issues, requestId);
    }
    const envelope = body.json;
    if (!envelope || typeof envelope !== "object" || !(config.envelope in envelope)) {
      const seen = body.text === "" ? "the body is empty" : "is required";
      throw new ResponseValidationError(label, [{ path: `/${config.envelope}`, message: seen }], requestId);
    }
    return { data: (envelope as Record<string, unknown>)[config.envelope], response, requestId };
  }

  /** One call, to its outcome: it never rejects (see ApiPromise). */
  async function run(method: Uppercase<Method>, path: string, init: Init, options: RequestOptions): Promise<Outcome<unknown>> {
    try {
      const route = routeFor(method, path);
      const send = client[method] as (path: string, init: unknown) => Promise<{ response: Response }>;
      const { response } = await send(path, callInitOf(route, init, options));
      return resultOf(route, response);
    } catch (error) {
      // A caller's abort rejects with the caller's own reason, as fetch does.
      return { failure: options.signal?.aborted && error === options.signal.reason ? error : asIngestionError(error) };
    }
  }

  const typed =
    (method: Uppercase<Method>) =>
    (path: string, init: Init | undefined, options: RequestOptions | undefined): ApiPromise<unknown> =>
      new ApiPromise(run(method, path, init ?? noInit, options ?? noOptions));

  return { GET: typed("GET"), PUT: typed("PUT"), POST: typed("POST"), client } as unknown as Transport<Paths>;
}

/**
 * A resource whose methods never throw: whatever goes wrong, even with arguments its types forbid (a `null`
 * from untyped code), the call returns a promise that rejects with an IngestionError.
 */
export function neverThrowing<Resource extends object>(resource: Resource): Resource {
  const guarded: Record<string, unknown> = {};
  for (const [name, method] of Object.entries(resource) as [string, (...args: unknown[]) => unknown][]) {
    // Three arguments at most (params, body, options): named, so no array is made per call.
    guarded[name] = (first: unknown, second: unknown, third: unknown) => {
      try {
        return method(first, second, third);
      } catch (error) {
        return ApiPromise.failed(asIngestionError(error));
      }
    };
  }
  return guarded as Resource;
}

/** Anything thrown on the way, as an IngestionError. */
function asIngestionError(error: unknown): IngestionError {
  if (error instanceof IngestionError) return error;
  return new IngestionError(`the call failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
}

// A URL template split once at its parameters: literal text at even indexes, parameter names at odd ones.
const templates = new Map<string, string[]>();
// The characters encodeURIComponent leaves as they are.
const unreserved = /^[A-Za-z0-9\-_.!~*'()]*$/;

/**
 * Fills a path template, typed methods and `raw` alike: each value becomes exactly one encoded segment.
 * "." and ".." are refused, since URL parsing would collapse them into another path (with the credentials),
 * and so are a missing value and text that is not valid Unicode, before anything is sent.
 */
function fillPath(template: string, params: Record<string, unknown>): string {
  let segments = templates.get(template);
  if (!segments) {
    segments = template.split(/\{([^}]+)\}/);
    templates.set(template, segments);
  }
  let path = segments[0] as string;
  for (let index = 1; index < segments.length; index += 2) {
    const name = segments[index] as string;
    const value = params?.[name];
    if (value === undefined || value === null || value === "") throw pathIssue(template, name, "is required");
    const text = String(value);
    if (text === "." || text === "..") throw pathIssue(template, name, 'must not be "." or ".."');
    // An id is almost always made of characters encodeURIComponent keeps: then it would only copy the text.
    if (unreserved.test(text)) {
      path += text + segments[index + 1];
      continue;
    }
    try {
      path += encodeURIComponent(text) + segments[index + 1];
    } catch {
      throw pathIssue(template, name, "is not valid Unicode text (it has a lone surrogate)");
    }
  }
  return path;
}

function pathIssue(template: string, name: string, message: string): RequestValidationError {
  return new RequestValidationError(`${template.slice(template.indexOf("/", template.indexOf("//") + 2))}`, [{ path: `/${name}`, message }]);
}

// RFC 9110 token characters for names; visible ASCII and spaces for values (fetch refuses the rest).
const headerName = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const headerValue = /^[\x20-\x7e\t]*$/;

/**
 * A caller's extra headers, with lowercase names (so the client's own replace them in any letter case), refused
 * before sending if fetch would refuse them mid-call or they could split a header.
 */
function checkedHeaders(label: string, headers: Record<string, string>): Record<string, string> {
  const issues: ValidationIssue[] = [];
  const checked: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (!headerName.test(name)) issues.push({ path: `/headers/${encodeURIComponent(name)}`, message: "is not a valid header name" });
    else if (!headerValue.test(value)) issues.push({ path: `/headers/${name}`, message: "must be visible ASCII, without line breaks" });
    else checked[name.toLowerCase()] = value;
  }
  if (issues.length > 0) throw new RequestValidationError(label, issues);
  return checked;
}
