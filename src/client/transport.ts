// One request path for both clients. A typed call is validated, its URL built from its route (routes.ts) with
// openapi-fetch's query serializer, sent by sendCall (send-call.ts), and its answer made the resource or an error
// here, once (typedEnding). `raw` is openapi-fetch's client over the same sending (raw-client.ts).

import * as openapiFetch from "openapi-fetch";
import type { HttpMethod, PathsWithMethod, RequestBodyJSON, SuccessResponseJSON } from "openapi-typescript-helpers";
import type { InterfaceDescriptor } from "../contract/interfaces.js";
import { ApiPromise, type Outcome, type WithResponse } from "./api-promise.js";
import { type CallPolicy, policyForCall } from "./call-policy.js";
import type { RequestOptions } from "./client-options.js";
import { apiErrorFor, IngestionError, RequestValidationError, ResponseValidationError } from "./errors.js";
import { checkedCallHeaders } from "./headers.js";
import { createRawClient, type RawClient } from "./raw-client.js";
import { errorBodyOf, requestIdOf } from "./read-body.js";
import { requestedWaitMs } from "./retry-policy.js";
import { basePathOf, fillSegments, type Route, type Routes, routesOf } from "./routes.js";
import { type Answer, type Ending, type OutgoingCall, type Sender, sendCall } from "./send-call.js";
import { issuesOf, type OperationValidators, type Validator } from "./validation.js";

export type { RawClient } from "./raw-client.js";

/** What the sending needs, and what the typed calls add on top of it. */
export interface TransportConfig extends Omit<Sender, "requestIdField" | "errorKey"> {
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

export interface Transport<Paths extends {}> {
  GET: TypedCall<Paths, "get">;
  PUT: TypedCall<Paths, "put">;
  POST: TypedCall<Paths, "post">;
  /** The clients' `raw`. */
  raw: RawClient<Paths>;
}

/** What a client's typed calls share: how they are sent, and the routes and answer checks once their modules load. */
interface TypedCalls {
  api: InterfaceDescriptor;
  sender: Sender;
  validateRequests: boolean;
  querySerializer: (query: Record<string, unknown>) => string;
  // Set once the modules have loaded: from then on a call finds them at once, without waiting on anything.
  routes: Routes | undefined;
  routesLoading: Promise<Routes>;
  responseValidators: Record<string, Record<string, Validator>> | undefined;
  responsesLoading: Promise<Record<string, Record<string, Validator>>> | undefined;
}

type Init = { params?: { path?: Record<string, unknown>; query?: Record<string, unknown> }; body?: unknown };
const noInit: Init = {};
const noOptions: RequestOptions = {};

export function createTransport<Paths extends {}>(config: TransportConfig): Transport<Paths> {
  const { api, baseUrl } = config;
  const calls: TypedCalls = {
    api,
    sender: { ...config, requestIdField: api.requestIdField, errorKey: api.errorKey },
    validateRequests: config.validateRequests,
    // Made once here: left out, openapi-fetch makes the same serializer anew on every call.
    querySerializer: openapiFetch.createQuerySerializer(),
    routes: undefined,
    // Each `then` goes inside loadedModule, so the promise kept here is the one whose failure loadedModule handles.
    routesLoading: loadedModule(
      "request validators",
      config.validators.then((module) => {
        calls.routes = routesOf(module.validators, baseUrl, config);
        return calls.routes;
      }),
    ),
    responseValidators: undefined,
    responsesLoading:
      config.responseValidators &&
      loadedModule(
        "response validators",
        config.responseValidators.then((module) => {
          calls.responseValidators = module.responseValidators;
          return module.responseValidators;
        }),
      ),
  };
  const typed =
    (method: string) =>
    (template: string, init: Init | undefined, options: RequestOptions | undefined): ApiPromise<unknown> =>
      new ApiPromise(runCall(calls, method, template, init ?? noInit, options ?? noOptions));
  const raw = createRawClient<Paths>({
    sender: calls.sender,
    defaults: config,
    baseUrl,
    basePath: basePathOf(baseUrl),
    querySerializer: calls.querySerializer,
    routes: () => calls.routes ?? calls.routesLoading,
  });
  return { GET: typed("GET"), PUT: typed("PUT"), POST: typed("POST"), raw } as unknown as Transport<Paths>;
}

/**
 * One typed call, to its outcome: it never rejects (see ApiPromise). Not an async function: what it does before
 * sending is done at once, and the call's one suspended frame is sendCall's, which makes the outcome (typedEnding).
 */
function runCall(calls: TypedCalls, method: string, template: string, init: Init, options: RequestOptions): Promise<Outcome<unknown>> {
  const { routes } = calls;
  // A client's first calls wait for its routes to load.
  if (!routes)
    return calls.routesLoading.then(
      () => runCall(calls, method, template, init, options),
      (error: unknown) => failureOf(error, options.signal),
    );
  try {
    const route = routes[method]?.get(template);
    if (!route) throw new IngestionError(`unknown operation ${method} ${template}`);
    if (calls.validateRequests) validate(route, init);
    const call: TypedOutgoingCall = {
      method,
      url: urlOf(route, init, calls.querySerializer),
      // Stryker disable next-line ConditionalExpression: JSON.stringify(undefined) is undefined too; the check only says so.
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      headers: options.headers === undefined ? undefined : checkedCallHeaders(route.policy, options.headers),
      signal: options.signal,
      policy: policyForCall(route.policy, options),
      calls,
      route,
    };
    return sendCall(calls.sender, call, typedEnding);
  } catch (error) {
    return Promise.resolve(failureOf(error, options.signal));
  }
}

/** A typed call as it is sent, with what its ending reads: the client's typed calls, and the operation's route. */
interface TypedOutgoingCall extends OutgoingCall {
  calls: TypedCalls;
  route: Route;
}

/** How a typed call ends: its last answer made its result or its error, as an outcome. One for every call. */
const typedEnding: Ending<Outcome<unknown>, TypedOutgoingCall> = {
  answered(answer, call) {
    const { api, responsesLoading, responseValidators } = call.calls;
    const { policy, key } = call.route;
    if (!responsesLoading) return resultOf(api, policy, answer, undefined);
    // Until the response validators have loaded, the answer waits for them; what fails then is the outcome too.
    if (!responseValidators) return responsesLoading.then(() => typedEnding.answered(answer, call)).catch((error: unknown) => typedEnding.failed(error, call));
    return resultOf(api, policy, answer, responseValidators[key]?.["200"]);
  },
  failed(error, call) {
    return failureOf(error, call.signal);
  },
};

/** A call's failure as its outcome: a caller's abort with the caller's own reason, as fetch does; anything else as an IngestionError. */
function failureOf(error: unknown, signal: AbortSignal | undefined): { failure: unknown } {
  return { failure: signal?.aborted && error === signal.reason ? error : asIngestionError(error) };
}

function validate({ policy, validators }: Route, init: Init): void {
  const { path: pathParams, query } = init.params ?? {};
  const params = query ? { ...pathParams, ...query } : (pathParams ?? {});
  const paramIssues = validators.params ? issuesOf(validators.params, params) : [];
  const bodyIssues = validators.body ? issuesOf(validators.body, init.body) : [];
  if (paramIssues.length + bodyIssues.length > 0) throw new RequestValidationError(policy, [...paramIssues, ...bodyIssues]);
}

/** The URL of a call: openapi-fetch's createFinalURL, without its work for a query that is not there (most calls have none). */
function urlOf({ segments, policy }: Route, init: Init, querySerializer: TypedCalls["querySerializer"]): string {
  const query = init.params?.query;
  const path = fillSegments(segments, init.params?.path, policy);
  const search = query === undefined ? "" : querySerializer(query);
  return search === "" ? path : `${path}?${search}`;
}

/** A call's answer as its result or its error; `validate` checks a 200's body. */
function resultOf(
  api: InterfaceDescriptor,
  policy: CallPolicy,
  { response, body, notRetried }: Answer,
  validate: Validator | undefined,
): WithResponse<unknown> {
  const requestId = requestIdOf(response.headers, body, api.requestIdField);
  if (!response.ok) {
    throw apiErrorFor(api, response.status, errorBodyOf(body), response.headers, requestId, policy, requestedWaitMs(response.headers), notRetried);
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
