// CORS on the contract's routes for pages on this machine (a loopback origin, any port): the playground served by
// `npx ingestion-api docs`, or an app under development, may call the sandbox as it would call a real server. Never
// on /_sandbox/ (whose routes refuse every other origin, and whose safety rests on the preflight a page is refused:
// SECURITY.md), never for the `null` origin (a sandboxed iframe on any site sends it), never for a page elsewhere:
// those get no CORS header, and their browser keeps the answer from them.
import { isLoopbackOrigin } from "../local-servers/local-only.js";
import type { Answer } from "./answers.js";

/** The answer's headers a page may read beyond the safelisted ones: what the SDK reads of a 429, and the request id. */
const exposed = "Retry-After, X-RateLimit-Reset, x-request-id";
/** A header list as a preflight names it: tokens and commas only, or it is not echoed. */
const headerList = /^[\w-]+(?:\s*,\s*[\w-]+)*$/;

/** The origin a contract route answers CORS for: the request's, when it is a page on this machine. */
export function corsOrigin(origin: string | undefined): string | undefined {
  return isLoopbackOrigin(origin) ? origin : undefined;
}

/**
 * The answer to a browser's preflight from `origin` of a path whose operations use `methods`: the methods, and the
 * headers it asked to send (the SDK's Authorization and Content-Type, a Prefer, a page's own), for ten minutes.
 */
export function preflight(origin: string, methods: string[], requestedHeaders: string | undefined): Answer {
  return {
    status: 204,
    body: undefined,
    headers: {
      "access-control-allow-origin": origin,
      "access-control-allow-methods": methods.join(", "),
      ...(requestedHeaders !== undefined && headerList.test(requestedHeaders) && { "access-control-allow-headers": requestedHeaders }),
      "access-control-max-age": "600",
      vary: "Origin, Access-Control-Request-Method, Access-Control-Request-Headers",
    },
  };
}

/** `answer` with the headers that let the page at `origin` read it, its wait and its request id included. */
export function withCors<A extends Answer>(answer: A, origin: string): A {
  return { ...answer, headers: { ...answer.headers, "access-control-allow-origin": origin, "access-control-expose-headers": exposed, vary: "Origin" } };
}
