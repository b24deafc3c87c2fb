// One request path for both clients. A typed call is validated, its URL built from the generated `paths` by the
// serializers `raw` gives openapi-fetch (the path's below, openapi-fetch's own for the query), sent by the policy
// fetch (policy-fetch.ts), and its answer mapped to the resource or to an error here, once. `raw` is openapi-fetch's
// client over the same policy fetch.

import type { Client } from "openapi-fetch";
import * as openapiFetch from "openapi-fetch";
import type { HttpMethod, PathsWithMethod, RequestBodyJSON, SuccessResponseJSON } from "openapi-typescript-helpers";
import type { InterfaceDescriptor } from "../contract/interfaces.js";
import { ApiPromise, type Outcome, type WithResponse } from "./api-promise.js";
import { checkedCount, maxTimeoutMs, type RequestOptions } from "./client-options.js";
import { apiErrorFor, type CallName, IngestionError, RequestValidationError, ResponseValidationError } from "./errors.js";
import { checkedCallHeaders } from "./headers.js";
import {
  bodyOf,
  type CallPolicy,
  createPolicyFetch,
  errorBodyOf,
  type PolicyFetchConfig,
  pathOf,
  requestIdOf,
  rereadable,
  whyNotRetried,
} from "./policy-fetch.js";
import { requestedWaitMs } from "./retry-policy.js";
import { issuesOf, type OperationValidators, type Validator } from "./validation.js";

const createClient = openapiFetch.default;

/** What the policy fetch needs, and what the typed calls add on top of it. */
export interface TransportConfig extends Omit<PolicyFetchConfig, "requestIdField" | "errorKey"> {
  /** The interface: its envelope, error and request-id fields. */
  api: InterfaceDescriptor;
  baseUrl: string;
  timeoutMs: number;
  maxRetries: number;
  validateRequests: boolean;
  /**
   * The request validators' module (by `METHOD /path/{template}`, with each operation's id), loading since the
   * client was made: a module per interface, so the package's import parses none and a client loads only its own.
   */
  validators: Promise<{ validators: Record<string, OperationValidators> }>;
  /**
   * The 200 answers' validators by the same keys, loading, when `validateResponses` is on: a module of its own,
   * most of the validators' code, which a client that does not check answers never loads.
   */
  responseValidators: Promise<{ responseValidators: Record<string, Record<string, Validator>> }> | undefined;
}

/** The methods the contracts use; a typed call is one of these. */
type Method = Extract<HttpMethod, "get" | "put" | "post">;
type OperationOf<Paths, M extends Method, Path extends keyof Paths> = Paths[Path] extends Record<M, infer Operation> ? Operation : never;

/**
 * What a typed call sends: openapi-fetch's `params` (path and query) and `body`, typed by the generated
 * operation. `body` is the generated JSON body rather than openapi-fetch's, whose `Writable` drops a property
 * typed `null` alone (the contract's "a field of the other branch, only as null").
 */
export type CallInit<Operation> = ParamsInit<Operation extends { parameters: infer Params } ? Params : never> &
  ([RequestBodyJSON<Operation>] extends [never] ? { body?: never } : { body: RequestBodyJSON<Operation> });

/** `params`, optional when no parameter is required. */
type ParamsInit<Params> = Record<string, never> extends Params ? { params?: Params } : { params: Params };

/** The resource inside a success envelope: `result` (management) or `data` (alerting). */
export type Unwrapped<Envelope> = Envelope extends { result: infer Resource } ? Resource : Envelope extends { data: infer Resource } ? Resource : never;

/** A typed call: a path of `paths` and its params and body, resolving to the unwrapped resource of its 200 answer. */
export type TypedCall<Paths extends {}, M extends Method> = <Path extends PathsWithMethod<Paths, M>>(
  path: Path,
  init: CallInit<OperationOf<Paths, M, Path>>,
  options?: RequestOptions,
) => ApiPromise<Unwrapped<SuccessResponseJSON<OperationOf<Paths, M, Path> & Record<string | number, unknown>>>>;

/**
 * openapi-fetch's client over the policy fetch. Its middleware (`use`, `eject`) is refused: it would see one call
 * and never a retry, and typed calls do not pass through it; the client options `onRequest` and `onResponse` see
 * every attempt of both.
 */
export type RawClient<Paths extends {}> = Omit<Client<Paths>, "use" | "eject">;

export interface Transport<Paths extends {}> {
  GET: TypedCall<Paths, "get">;
  PUT: TypedCall<Paths, "put">;
  POST: TypedCall<Paths, "post">;
  /** The clients' `raw`. */
  raw: RawClient<Paths>;
}

/** An operation as a client sends it: its template, validators and the policy of a call that overrides nothing. */
interface Route {
  /** `METHOD /path/{template}`, the validators' key. */
  key: string;
  template: string;
  /** The base URL and the template, split at its parameters (see fillPath): made once, filled on every call. */
  segments: string[];
  validators: OperationValidators;
  policy: CallPolicy;
  /** Matches a filled path of this operation, for `raw` calls. */
  pattern: RegExp;
}

type Init = { params?: { path?: Record<string, unknown>; query?: Record<string, unknown> }; body?: unknown };
const noInit: Init = {};
const noOptions: RequestOptions = {};

export function createTransport<Paths extends {}>(config: TransportConfig): Transport<Paths> {
  const { api, baseUrl } = config;
  const send = createPolicyFetch({ ...config, requestIdField: api.requestIdField, errorKey: api.errorKey });
  // Made once here: left out, openapi-fetch makes the same serializer anew on every call.
  const querySerializer = openapiFetch.createQuerySerializer();

  // A base URL may have a path of its own (a gateway's prefix), which every request path starts with.
  const basePath = new URL(baseUrl).pathname.replace(/\/$/, "");

  /** The routes by method, then path template: two lookups of strings the caller already has, no key built per call. */
  function routesOf(validatorsByKey: Record<string, OperationValidators>): Record<string, Map<string, Route>> {
    const routes: Record<string, Map<string, Route>> = {};
    for (const [key, validators] of Object.entries(validatorsByKey)) {
      // Stryker disable next-line StringLiteral: every key is `METHOD /template`, so the defaults are never used.
      const [method = "", template = ""] = key.split(" ");
      // Errors and log lines name the operation and its path template (never a value that may be private).
      const label = `${validators.operationId} ${key}`;
      const policy = { label, operationId: validators.operationId, timeoutMs: config.timeoutMs, maxRetries: config.maxRetries };
      const pattern = new RegExp(`^${escapeRegExp(basePath + template).replace(/\\\{[^}]+\\\}/g, "[^/]+")}$`);
      routes[method] ??= new Map();
      routes[method].set(template, { key, template, segments: segmentsOf(baseUrl + template), validators, policy, pattern });
    }
    return routes;
  }

  // Set once the modules have loaded: from then on a call finds them at once, without waiting on anything.
  let routes: Record<string, Map<string, Route>> | undefined;
  let responseValidators: Record<string, Record<string, Validator>> | undefined;
  // Each `then` goes inside loadedModule, so the promise kept here is the one whose failure loadedModule handles.
  const routesLoading = loadedModule(
    "request validators",
    config.validators.then((module) => {
      routes = routesOf(module.validators);
      return routes;
    }),
  );
  const responsesLoading = config.responseValidators
    ? loadedModule(
        "response validators",
        config.responseValidators.then((module) => {
          responseValidators = module.responseValidators;
          return responseValidators;
        }),
      )
    : undefined;

  /** The policy of a call: the route's own when the call overrides nothing, else one made for it. */
  function policyOf({ policy }: Route, options: RequestOptions): CallPolicy {
    if (options.timeoutMs === undefined && options.maxRetries === undefined) return policy;
    return {
      ...policy,
      timeoutMs: options.timeoutMs === undefined ? policy.timeoutMs : checkedCount(policy.label, "timeoutMs", options.timeoutMs, 1, maxTimeoutMs),
      maxRetries: options.maxRetries === undefined ? policy.maxRetries : checkedCount(policy.label, "maxRetries", options.maxRetries, 0, 100),
    };
  }

  function validate({ policy, validators }: Route, init: Init): void {
    const { path: pathParams, query } = init.params ?? {};
    const params = query ? { ...pathParams, ...query } : (pathParams ?? {});
    const paramIssues = validators.params ? issuesOf(validators.params, params) : [];
    const bodyIssues = validators.body ? issuesOf(validators.body, init.body) : [];
    if (paramIssues.length + bodyIssues.length > 0) throw new RequestValidationError(policy, [...paramIssues, ...bodyIssues]);
  }

  /** A response the policy fetch returned, as the call's result or its error; `validate` checks a 200's body. */
  function resultOf({ policy }: Route, response: Response, validate: Validator | undefined): WithResponse<unknown> {
    const body = bodyOf(response);
    const requestId = requestIdOf(response, api.requestIdField, body);
    if (!response.ok) {
      throw apiErrorFor(
        api,
        response.status,
        errorBodyOf(body),
        response.headers,
        requestId,
        policy,
        requestedWaitMs(response.headers),
        whyNotRetried(response),
      );
    }
    if (validate) {
      const issues = issuesOf(validate, body.json);
      if (issues.length > 0) throw new ResponseValidationError(policy, issues, requestId);
    }
    const envelope = body.json;
    if (!envelope || typeof envelope !== "object" || !(api.envelope in envelope)) {
      const seen = body.text === "" ? "the body is empty" : "is required";
      throw new ResponseValidationError(policy, [{ path: `/${api.envelope}`, message: seen }], requestId);
    }
    return { data: (envelope as Record<string, unknown>)[api.envelope], response, requestId };
  }

  /** One typed call, to its outcome: it never rejects (see ApiPromise). */
  async function run(method: string, template: string, init: Init, options: RequestOptions): Promise<Outcome<unknown>> {
    try {
      const route = (routes ?? (await routesLoading))[method]?.get(template);
      if (!route) throw new IngestionError(`unknown operation ${method} ${template}`);
      if (config.validateRequests) validate(route, init);
      const query = init.params?.query;
      // openapi-fetch's createFinalURL, without its work for a query that is not there (most calls have none).
      const path = fillSegments(route.segments, init.params?.path, route.policy);
      const search = query === undefined ? "" : querySerializer(query);
      const url = search === "" ? path : `${path}?${search}`;
      const response = await send({
        method,
        url,
        // Stryker disable next-line ConditionalExpression: JSON.stringify(undefined) is undefined too; the check only says so.
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
        headers: options.headers === undefined ? undefined : checkedCallHeaders(route.policy, options.headers),
        signal: options.signal,
        policy: policyOf(route, options),
      });
      const validateResponse = responsesLoading && (responseValidators ?? (await responsesLoading))[route.key]?.["200"];
      return resultOf(route, response, validateResponse);
    } catch (error) {
      // A caller's abort rejects with the caller's own reason, as fetch does.
      return { failure: options.signal?.aborted && error === options.signal.reason ? error : asIngestionError(error) };
    }
  }

  const typed =
    (method: string) =>
    (template: string, init: Init | undefined, options: RequestOptions | undefined): ApiPromise<unknown> =>
      new ApiPromise(run(method, template, init ?? noInit, options ?? noOptions));

  /** `raw`'s fetch: openapi-fetch's Request, read into a call of the operation its path matches, sent the same way. */
  async function rawFetch(request: Request): Promise<Response> {
    const path = pathOf(request.url);
    let route: Route | undefined;
    for (const candidate of (routes ?? (await routesLoading))[request.method]?.values() ?? []) if (candidate.pattern.test(path)) route = candidate;
    // openapi-fetch fills the template only when the call gives path parameters; without any, it is sent as it is.
    if (route && decodeURIComponent(path) === basePath + route.template) {
      throw new RequestValidationError(route.policy, [{ path: route.template, message: "has a path parameter without a value" }]);
    }
    const response = await send({
      method: request.method,
      url: request.url,
      body: request.body === null ? undefined : await request.text(),
      headers: Object.fromEntries(request.headers),
      signal: request.signal,
      policy: route?.policy ?? { label: `${request.method} ${path}`, operationId: undefined, timeoutMs: config.timeoutMs, maxRetries: config.maxRetries },
    });
    // openapi-fetch reads the body again, which the policy has read already.
    return rereadable(response);
  }

  const client = createClient<Paths>({ baseUrl, fetch: rawFetch, pathSerializer: fillPath, querySerializer });
  // openapi-fetch fills the path (fillPath) before it says the method: a value refused there is named here, where
  // both are known, by the operation they make. Only the contracts' methods have operations to name.
  const named = async (error: unknown, method: string, template: string): Promise<never> => {
    const route = error instanceof RequestValidationError && !error.operationId && (routes ?? (await routesLoading))[method]?.get(template);
    throw route ? new RequestValidationError(route.policy, (error as RequestValidationError).issues) : error;
  };
  const methods = client as unknown as Record<string, (...args: string[]) => Promise<unknown>>;
  for (const method of ["GET", "PUT", "POST", "request"]) {
    const call = methods[method] as (...args: string[]) => Promise<unknown>;
    methods[method] = (...args) =>
      call(...args).catch((error) =>
        method === "request" ? named(error, (args[0] as string).toUpperCase(), args[1] as string) : named(error, method, args[0] as string),
      );
  }
  const refuseMiddleware = () => {
    throw new IngestionError(
      "raw.use() and raw.eject() are not supported: openapi-fetch middleware sees one call, not each attempt, and typed calls do not pass through it; pass onRequest and onResponse to the client instead, which see every attempt of typed calls and raw alike",
    );
  };
  const raw: RawClient<Paths> = Object.assign(client, { use: refuseMiddleware, eject: refuseMiddleware });

  return { GET: typed("GET"), PUT: typed("PUT"), POST: typed("POST"), raw } as unknown as Transport<Paths>;
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

/**
 * A module the client loads on its own, whose failure (a browser that cannot fetch the chunk) reaches each call
 * that needs it as an IngestionError, and never the process as an unhandled rejection.
 */
function loadedModule<Module>(what: string, loading: Promise<Module>): Promise<Module> {
  const module = loading.catch((error: unknown) => {
    throw new IngestionError(`the client could not load its ${what}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  });
  module.catch(() => {});
  return module;
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

const segmentsOf = (template: string): string[] => template.split(/\{([^}]+)\}/);

/**
 * The path serializer of both paths (openapi-fetch's `pathSerializer` for `raw`): each value becomes exactly one
 * encoded segment. "." and ".." are refused, since URL parsing would collapse them into another path (with the
 * credentials), and so are a missing value and text that is not valid Unicode, before anything is sent.
 */
function fillPath(template: string, params: Record<string, unknown>): string {
  let segments = templates.get(template);
  // Stryker disable next-line ConditionalExpression: a cache; splitting the template again gives the same segments.
  if (!segments) {
    segments = segmentsOf(template);
    // Stryker disable next-line CallExpression: a cache; without it each call splits the template again, alike.
    templates.set(template, segments);
  }
  return fillSegments(segments, params, { label: pathOf(template), operationId: undefined });
}

/** Fills a template split by segmentsOf; `call` names the call in the error a missing or bad value gets. */
function fillSegments(segments: string[], params: Record<string, unknown> | undefined, call: CallName): string {
  let path = segments[0] as string;
  for (let index = 1; index < segments.length; index += 2) {
    const name = segments[index] as string;
    const value = params?.[name];
    if (value === undefined || value === null || value === "") throw pathIssue(call, name, "is required");
    const text = String(value);
    if (text === "." || text === "..") throw pathIssue(call, name, 'must not be "." or ".."');
    // An id is almost always made of characters encodeURIComponent keeps: then it would only copy the text.
    if (unreserved.test(text)) {
      path += text + segments[index + 1];
      continue;
    }
    try {
      path += encodeURIComponent(text) + segments[index + 1];
    } catch {
      throw pathIssue(call, name, "is not valid Unicode text (it has a lone surrogate)");
    }
  }
  return path;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

function pathIssue(call: CallName, name: string, message: string): RequestValidationError {
  return new RequestValidationError(call, [{ path: `/${name}`, message }]);
}
