// The sandbox itself, with no socket: what it answers to a request, given its method, target and headers, and then
// its body. The CLI's node:http server and the in-process double (`createSandbox`) are shells around it, so both
// answer alike. No `node:` import: it runs in Node, browsers and jsdom.
//
// In order: the sandbox's own routes; the operation the path names (404, 405); who asks (401) and how often (429,
// with --rate-limit); what the test asked for (`Prefer`, fault rules); then the body: its type (415), its JSON (400),
// the contract (400), and the operation over the data.

import type { RateLimit } from "../client/rate-limit.js";
import { allowedHosts as allowedHostsOf, isOwnOrigin } from "../local-servers/local-only.js";
import { type Answer, failure } from "./answers.js";
import { type Api, apis, type Operation, operations, unauthorizedMessage } from "./contract.js";
import { type ControlRequest, control, controlPrefix, type SandboxState } from "./control.js";
import { corsOrigin, preflight, withCors } from "./cors.js";
import { authorized, challenge, type SandboxCredentials } from "./credentials.js";
import { createFaults, type Faults } from "./faults.js";
import { created, handlers } from "./operations.js";
import { preferredAnswer } from "./prefer.js";
import { createRateLimiter } from "./rate-limit.js";
import { rejection } from "./request-checks.js";
import type { SandboxData } from "./seed.js";

export interface EngineOptions {
  /** The data to start with, and to go back to on reset. */
  seed: SandboxData;
  credentials: SandboxCredentials;
  /** Each interface's limit per credential (`--rate-limit`); none by default. */
  rateLimits?: Map<Api, RateLimit>;
  /** Milliseconds every answer waits: a fixed delay, or `[min, max]`, drawn for each answer. */
  latencyMs?: number | [number, number];
  /** The most resources of a kind that creates may add (reverse private endpoints, alerts). Default 10 000. */
  maxResources?: number;
  /** The host names a request's Origin may carry to reach /_sandbox/. Default: the loopback names. */
  allowedHosts?: Set<string>;
}

/** A request as the engine reads it: `target` is the path and query as sent; header names are lowercase. */
export interface EngineRequest {
  method: string;
  target: string;
  headers: Record<string, string | undefined>;
}

/** An answer, with how long to wait before it, and whether to drop the connection instead (or half-way through it). */
export interface EngineAnswer extends Answer {
  delayMs: number;
  drop?: "reset" | "truncate";
}

/** What a request's line and headers decide: its answer, or what to answer once its body (text) has been read. */
export type Received = EngineAnswer | ((body: string) => EngineAnswer);

export interface Engine {
  receive(request: EngineRequest): Received;
  state: SandboxState;
  faults: Faults;
}

/** A request body's media type is JSON: `application/json` or `…+json`, any parameters. */
// Stryker disable next-line StringLiteral: a missing Content-Type is not JSON, whatever string stands in for it.
const isJson = (contentType: string | undefined) => /^application\/([\w.-]+\+)?json\s*(;|$)/i.test(contentType ?? "");

/** The interface whose prefix a path starts with (management when none does), for answers to unknown paths. */
const apiOfPath = (path: string): Api => apis.find(({ prefix }) => path.startsWith(`${prefix}/`)) ?? (apis[0] as Api);

/** The operations of a path, each with its parameters as the path gives them. */
const operationsOfPath = (path: string): { operation: Operation; match: RegExpExecArray }[] =>
  operations.flatMap((operation) => {
    const match = operation.pattern.exec(path);
    return match ? [{ operation, match }] : [];
  });

/** The operation a method and path name, or the answer for a path or method the contract does not have. */
function route(method: string, path: string): { operation: Operation; match: RegExpExecArray } | Answer {
  const candidates = operationsOfPath(path);
  const found = candidates.find(({ operation }) => operation.method === method);
  if (found) return found;
  const [first] = candidates;
  if (!first) return failure(apiOfPath(path), 404, `No operation of the contract has the path ${path}`);
  const allow = candidates.map(({ operation }) => operation.method).join(", ");
  return { ...failure(first.operation.api, 405, `${method} is not an operation of this path; use ${allow}`), headers: { allow } };
}

export function createEngine(options: EngineOptions): Engine {
  const { seed, credentials, maxResources = 10_000 } = options;
  // Stryker disable next-line StringLiteral: 127.0.0.1 is one of the loopback names allowedHostsOf() always allows.
  const allowedHosts = options.allowedHosts ?? allowedHostsOf("127.0.0.1");
  const limiter = createRateLimiter(options.rateLimits ?? new Map());
  const faults = createFaults();
  const state: SandboxState = {
    data: structuredClone(seed),
    reset() {
      this.data = structuredClone(seed);
    },
  };
  const latency = () => {
    const { latencyMs = 0 } = options;
    return Array.isArray(latencyMs) ? latencyMs[0] + Math.random() * (latencyMs[1] - latencyMs[0]) : latencyMs;
  };
  /** An answer with the latency every answer waits, and what a fault rule adds: its delay, a dropped connection. */
  const answered = (answer: Answer, fault?: { delayMs: number; drop: "reset" | "truncate" | undefined }): EngineAnswer => ({
    ...answer,
    delayMs: latency() + (fault?.delayMs ?? 0),
    ...(fault?.drop && { drop: fault.drop }),
  });
  const parsedBody = (text: string): { body: unknown } | undefined => {
    try {
      return { body: text === "" ? undefined : JSON.parse(text) };
    } /* Stryker disable next-line BlockStatement: a catch without its return returns undefined too. */ catch {
      return undefined;
    }
  };

  function receive({ method, target, headers }: EngineRequest): Received {
    let url: URL;
    try {
      url = new URL(target, "http://sandbox.invalid");
    } catch {
      return answered(failure(apiOfPath(target), 400, "Invalid request: the target is not a URL path"));
    }
    if (url.pathname.startsWith(controlPrefix)) {
      const request: ControlRequest = {
        method,
        path: url.pathname,
        query: url.searchParams,
        ownOrigin: isOwnOrigin(headers.origin, allowedHosts),
        json: isJson(headers["content-type"]),
        host: headers.host,
      };
      const result = control(state, faults, request);
      if (typeof result !== "function") return answered(result);
      return (text) => {
        const parsed = parsedBody(text);
        return answered(parsed ? result(parsed.body) : { status: 400, body: { error: "the body is not valid JSON" } });
      };
    }

    // A page on this machine may call the contract's routes: its preflight is answered, and so is what it sends.
    const origin = corsOrigin(headers.origin);
    if (origin === undefined) return contract(method, url, headers);
    if (method === "OPTIONS" && headers["access-control-request-method"] !== undefined) {
      const methods = operationsOfPath(url.pathname).map(({ operation }) => operation.method);
      if (methods.length > 0) return answered(preflight(origin, methods, headers["access-control-request-headers"]));
    }
    const received = contract(method, url, headers);
    return typeof received === "function" ? (text) => withCors(received(text), origin) : withCors(received, origin);
  }

  /** What a request to the contract's routes gets. */
  function contract(method: string, url: URL, headers: EngineRequest["headers"]): Received {
    const routed = route(method, url.pathname);
    if ("status" in routed) return answered(routed);
    const { operation, match } = routed;
    const { api } = operation;
    // As the real services do: who is asking comes before what is asked.
    if (!authorized(api, headers.authorization, credentials)) {
      return answered({ ...failure(api, 401, unauthorizedMessage(api)), headers: { "www-authenticate": challenge(api) } });
    }
    // Counted per credential, as the services count them: only a caller they know uses up a budget.
    const limited = limiter.admit(api, headers.authorization as string);
    if (limited) return answered(limited);
    const preferred = preferredAnswer(operation, headers.prefer);
    if (preferred) return answered(preferred);
    const fault = faults.play(operation);
    // From here every answer carries the rule: its answer replaces the request's, its delay and a dropped
    // connection apply to whatever the request gets, a refusal included.
    const reply = (answer: Answer) => answered(answer, fault);
    // Stryker disable next-line ObjectLiteral: neither shell reads a reset's status or body: both drop the connection instead.
    if (fault?.drop === "reset") return reply({ status: 0, body: undefined });
    if (fault?.answer) return reply(fault.answer);

    const path: Record<string, string> = {};
    try {
      // Stryker disable next-line StringLiteral: every group of a path pattern takes part in a match, so the default never applies.
      for (const [index, name] of operation.names.entries()) path[name] = decodeURIComponent(match[index + 1] ?? "");
    } catch {
      return reply(failure(api, 400, "Invalid request: a path parameter is not valid percent-encoding"));
    }
    // A body is only JSON: a form or text (all a web page can send without asking first) is refused unread. An
    // operation without a request body reads none (a GET's body is ignored, as servers do).
    const takesBody = operation.validators.body !== undefined;
    const declaredType = headers["content-type"];
    if (takesBody && declaredType !== undefined && !isJson(declaredType)) return reply(unsupported(api, declaredType));
    return (text) => {
      if (takesBody && text !== "" && declaredType === undefined) return reply(unsupported(api, "none"));
      // Stryker disable next-line ObjectLiteral: `{}` has no body either, which reads as undefined.
      const parsed = takesBody ? parsedBody(text) : { body: undefined };
      if (!parsed) return reply(failure(api, 400, "Invalid request: the body is not valid JSON"));
      // The contract's one query parameter, `filter`, is a repeated (exploded) array; undeclared ones are ignored.
      // Stryker disable next-line MethodExpression: an absent `filter` and an empty list of filters both narrow nothing (no minItems).
      const query = Object.fromEntries(operation.queryNames.filter((name) => url.searchParams.has(name)).map((name) => [name, url.searchParams.getAll(name)]));
      const refusedRequest = rejection(operation, { ...path, ...query }, parsed.body);
      if (refusedRequest) return reply(refusedRequest);
      const kind = created[operation.operationId];
      if (kind && state.data[kind].length >= maxResources) {
        return reply(failure(api, 403, `The sandbox holds ${maxResources} ${kind}, its cap (--max-resources); POST /_sandbox/reset empties it`));
      }
      return reply(handlers[operation.operationId](state.data, { path, query, body: parsed.body }));
    };
  }

  return { receive, state, faults };
}

/** The 415 of a body that is not JSON. */
function unsupported(api: Api, contentType: string): Answer {
  return failure(api, 415, `Unsupported Media Type: the body must be application/json, not ${contentType}`);
}
