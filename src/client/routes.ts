// The contract's operations as a client finds them (by method and path template for typed calls, by a filled
// path for `raw`), and the filling of a template's parameters into a path.

import { type CallPolicy, callPolicy, type PolicyDefaults } from "./call-policy.js";
import { type CallName, RequestValidationError } from "./errors.js";
import type { OperationValidators } from "./validation.js";

/** An operation as a client sends it: its template, validators and the policy of a call that overrides nothing. */
export interface Route {
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

/** The routes by method, then path template: two lookups of strings the caller already has, no key built per call. */
export type Routes = Record<string, Map<string, Route>>;

/** The routes of an interface's operations (its validators, by `METHOD /template`) on the server at `baseUrl`. */
export function routesOf(validatorsByKey: Record<string, OperationValidators>, baseUrl: string, defaults: PolicyDefaults): Routes {
  const basePath = basePathOf(baseUrl);
  const routes: Routes = {};
  for (const [key, validators] of Object.entries(validatorsByKey)) {
    // Stryker disable next-line StringLiteral: every key is `METHOD /template`, so the defaults are never used.
    const [method = "", template = ""] = key.split(" ");
    // Errors and log lines name the operation and its path template (never a value that may be private).
    const policy = callPolicy({ label: `${validators.operationId} ${key}`, operationId: validators.operationId }, defaults);
    const pattern = new RegExp(`^${escapeRegExp(basePath + template).replace(/\\\{[^}]+\\\}/g, "[^/]+")}$`);
    routes[method] ??= new Map();
    routes[method].set(template, { key, template, segments: segmentsOf(baseUrl + template), validators, policy, pattern });
  }
  return routes;
}

/** The path of a URL, for log lines and default labels (never the query, which may carry filters). */
export function pathOf(url: string): string {
  const start = url.indexOf("/", url.indexOf("//") + 2);
  const end = url.indexOf("?", start);
  return start === -1 ? "/" : url.slice(start, end === -1 ? undefined : end);
}

/** A base URL may have a path of its own (a gateway's prefix), which every request path starts with. */
export const basePathOf = (baseUrl: string): string => new URL(baseUrl).pathname.replace(/\/$/, "");

/** The operation a `raw` call's filled path is of, if the contract has it. */
export function routeOfPath(routes: Routes, method: string, path: string): Route | undefined {
  let route: Route | undefined;
  for (const candidate of routes[method]?.values() ?? []) if (candidate.pattern.test(path)) route = candidate;
  return route;
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
export function fillPath(template: string, params: Record<string, unknown>): string {
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
export function fillSegments(segments: string[], params: Record<string, unknown> | undefined, call: CallName): string {
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
