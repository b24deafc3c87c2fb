// The headers a client sends: its own (Authorization, Accept, the User-Agent), the caller's default and per-call
// ones, each checked before anything is sent.
import { packageName, packageVersion } from "../../generated/package.js";
import { type CallName, IngestionError, RequestValidationError, type ValidationIssue } from "./errors.js";

// RFC 9110 token characters for names; visible ASCII and spaces for values (fetch refuses the rest).
const headerName = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const headerValue = /^[\x20-\x7e\t]*$/;

/** The problems of a set of headers: names fetch would refuse, values that could split a header. */
function headerIssues(headers: Record<string, string>): { checked: Record<string, string>; issues: ValidationIssue[] } {
  const issues: ValidationIssue[] = [];
  const checked: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (!headerName.test(name)) issues.push({ path: `/headers/${encodeURIComponent(name)}`, message: "is not a valid header name" });
    else if (typeof value !== "string" || !headerValue.test(value))
      issues.push({ path: `/headers/${name}`, message: "must be visible ASCII, without line breaks" });
    else checked[name.toLowerCase()] = value;
  }
  return { checked, issues };
}

/**
 * A call's extra headers, with lowercase names (so the client's own replace them in any letter case), refused
 * before sending if fetch would refuse them mid-call or they could split a header.
 */
export function checkedCallHeaders(call: CallName, headers: Record<string, string>): Record<string, string> {
  const { checked, issues } = headerIssues(headers);
  if (issues.length > 0) throw new RequestValidationError(call, issues);
  return checked;
}

/** The client's `defaultHeaders`, checked when the client is made; `Authorization` is the client's own. */
export function checkedDefaultHeaders(factory: string, headers: Record<string, string> | undefined): Record<string, string> {
  if (headers === undefined) return {};
  const { checked, issues } = headerIssues(headers);
  // Stryker disable next-line OptionalChaining: the line runs only when there are issues, so issues[0] is always there.
  if (issues.length > 0) throw new IngestionError(`${factory}: defaultHeaders${issues[0]?.path.slice("/headers".length)} ${issues[0]?.message}`);
  if ("authorization" in checked) throw new IngestionError(`${factory}: defaultHeaders must not set Authorization; the client sends its own credentials`);
  return checked;
}

/** The runtime and its version, where a program may name itself in `User-Agent`; undefined in browsers. */
function runtime(): string | undefined {
  const scope = globalThis as { Deno?: { version?: { deno?: string } }; Bun?: { version?: string }; process?: { versions?: { node?: string } } };
  if (scope.Deno?.version?.deno) return `deno/${scope.Deno.version.deno}`;
  if (scope.Bun?.version) return `bun/${scope.Bun.version}`;
  // Browsers and workers have no `process`; a bundler's polyfill has no `versions.node`.
  if (scope.process?.versions?.node) return `node/${scope.process.versions.node}`;
  return undefined;
}

/**
 * `ingestion-api/<version> <runtime>/<version>`, so operators can tell SDK versions apart; undefined in a browser,
 * where setting User-Agent is refused or forces a CORS preflight, and the browser sends its own.
 */
export const userAgent: string | undefined = (() => {
  const name = runtime();
  return name === undefined ? undefined : `${packageName}/${packageVersion} ${name}`;
})();

// JSON is what the contract answers; an error may still come as text (a 401 or a 429 from a proxy or a rate
// limiter), which the client reads too, so it says it takes that rather than insist.
const accept = "application/json, */*;q=0.1";

/** The headers of a client's requests without and with a JSON body, made once: fetch copies a plain object for less than a Headers. */
export interface OwnHeaders {
  /** Everything the client sends on its own: its defaults, User-Agent, Accept, Authorization (and Content-Type). */
  withoutBody: Readonly<Record<string, string>>;
  withBody: Readonly<Record<string, string>>;
  /** What no call's headers replace: Accept, Authorization (and Content-Type). */
  fixedWithoutBody: Readonly<Record<string, string>>;
  fixedWithBody: Readonly<Record<string, string>>;
}

/**
 * The client's headers: its defaults, then its User-Agent (after the caller's own product token, if the defaults
 * name one), then Accept and Authorization, which no default replaces.
 */
export function ownHeaders(authorization: string, defaults: Record<string, string>): OwnHeaders {
  const agent = [defaults["user-agent"], userAgent].filter(Boolean).join(" ");
  const fixedWithoutBody = { accept, authorization };
  const fixedWithBody = { ...fixedWithoutBody, "content-type": "application/json" };
  const general = { ...defaults, ...(agent && { "user-agent": agent }) };
  return { withoutBody: { ...general, ...fixedWithoutBody }, withBody: { ...general, ...fixedWithBody }, fixedWithoutBody, fixedWithBody };
}
