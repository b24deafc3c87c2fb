// The sandbox's own routes, under /_sandbox/ (outside the contract's paths, without credentials): reset for test
// suites, the state as a seed file (a page of it), the fault rules, and reading a created endpoint back, which no
// operation of the contract does. A browser page elsewhere must not drive them: a request from another Origin is
// refused, and so is a POST or DELETE that is not `application/json` (which a page cannot send without a preflight).
import type { Answer } from "./answers.js";
import type { Faults } from "./faults.js";
import type { SandboxData } from "./seed.js";

export const controlPrefix = "/_sandbox/";

export interface SandboxState {
  data: SandboxData;
  reset(): void;
}

const routes = "POST /_sandbox/reset, GET /_sandbox/state, GET, POST and DELETE /_sandbox/faults, GET /_sandbox/reversePrivateEndpoints/{id}";
const refused = (status: number, error: string, headers: Record<string, string> = {}): Answer => ({ status, body: { error }, headers });

/** The most resources of each kind one page of `GET /_sandbox/state` holds. */
export const statePageSize = 1000;

/**
 * One page of the state, in the seed's shape: `offset` and `limit` (at most `statePageSize`) apply to each kind;
 * `x-sandbox-total` says how many there are of each, and `link` points to the next page when one kind has more.
 */
function statePage(data: SandboxData, query: URLSearchParams): Answer {
  const number = (name: string, fallback: number) => {
    const value = Number(query.get(name) ?? fallback);
    return Number.isInteger(value) && value >= 0 ? value : undefined;
  };
  const offset = number("offset", 0);
  const limit = number("limit", statePageSize);
  if (offset === undefined || limit === undefined || limit > statePageSize)
    return refused(400, `offset must be an integer of 0 or more, limit one from 0 to ${statePageSize}`);
  const kinds = Object.keys(data) as (keyof SandboxData)[];
  const page = Object.fromEntries(kinds.map((kind) => [kind, data[kind].slice(offset, offset + limit)]));
  const headers: Record<string, string> = { "x-sandbox-total": kinds.map((kind) => `${kind}=${data[kind].length}`).join(", ") };
  if (kinds.some((kind) => data[kind].length > offset + limit)) headers.link = `</_sandbox/state?offset=${offset + limit}&limit=${limit}>; rel="next"`;
  return { status: 200, body: page, headers };
}

/** The fault rules: GET lists them, POST adds one (or `{rules: [...]}`), DELETE clears them. */
function faultRoute(faults: Faults, method: string, body: unknown): Answer {
  if (method === "GET") return { status: 200, body: { rules: faults.list() } };
  if (method === "DELETE") {
    faults.clear();
    return { status: 204, body: undefined };
  }
  const asked = (body as { rules?: unknown })?.rules;
  const rules = Array.isArray(asked) ? asked : [body];
  try {
    return { status: 201, body: { rules: rules.map((rule) => faults.addUntyped(rule)) } };
  } catch (error) {
    return refused(400, `Invalid fault rule: ${(error as Error).message}`);
  }
}

export interface ControlRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  /** Whether the request names no Origin or the sandbox's own. */
  ownOrigin: boolean;
  /** Whether its Content-Type is JSON. */
  json: boolean;
  /** Its Host header (the server has checked it names this machine), for the command a refusal shows. */
  host: string | undefined;
}

/**
 * The curl command that sends `method` to one of the own routes as they take it, on the host the request named: its
 * name and port as a URL parses them, never the header's raw text, and a route of its own, never the request's
 * path (either could carry a quote into a command a reader pastes).
 */
function asJson(method: string, path: string, host: string | undefined): string {
  const route = path === `${controlPrefix}reset` ? "reset" : "faults";
  const body = route === "reset" ? " -d '{}'" : method === "POST" ? " -d '<the rule, as JSON>'" : "";
  return `curl -X ${method} -H 'content-type: application/json'${body} ${originOf(host)}${controlPrefix}${route}`;
}

/** `http://<name>[:<port>]` of a Host header, or nothing when it does not parse as one. */
function originOf(host: string | undefined): string {
  try {
    const { hostname, port } = new URL(`http://${host}`);
    return host && /^[\w.:[\]-]+$/.test(hostname) ? `http://${hostname}${port ? `:${port}` : ""}` : "";
  } catch {
    return "";
  }
}

/**
 * The answer to a request under /_sandbox/: the answer itself, or, for a route that needs the body, what to do with
 * it once read (already parsed as JSON: undefined when empty).
 */
export function control(state: SandboxState, faults: Faults, request: ControlRequest): Answer | ((body: unknown) => Answer) {
  const { method, path, query } = request;
  if (!request.ownOrigin) return refused(403, "the sandbox's own routes take no request from another origin");
  if ((method === "POST" || method === "DELETE") && !request.json)
    return refused(
      415,
      `the sandbox's own routes take POST and DELETE as application/json only (which a web page cannot send unasked): ${asJson(method, path, request.host)}`,
    );
  const route = path.slice(controlPrefix.length);
  if (route === "reset") {
    if (method !== "POST") return refused(405, "use POST /_sandbox/reset", { allow: "POST" });
    state.reset();
    return { status: 204, body: undefined };
  }
  if (route === "state") return method === "GET" ? statePage(state.data, query) : refused(405, "use GET /_sandbox/state", { allow: "GET" });
  if (route === "faults") {
    if (!["GET", "POST", "DELETE"].includes(method)) return refused(405, "use GET, POST or DELETE /_sandbox/faults", { allow: "GET, POST, DELETE" });
    return method === "POST" ? (body) => faultRoute(faults, method, body) : faultRoute(faults, method, undefined);
  }
  const endpoint = /^reversePrivateEndpoints\/([^/]+)$/.exec(route);
  if (endpoint && method === "GET") {
    let id: string;
    try {
      id = decodeURIComponent(endpoint[1] ?? "").toLowerCase();
    } catch {
      return refused(400, "the endpoint id is not valid percent-encoding");
    }
    const found = state.data.reversePrivateEndpoints.find((candidate) => candidate.id.toLowerCase() === id);
    return found ? { status: 200, body: found } : refused(404, "Reverse private endpoint not found");
  }
  return refused(404, `the sandbox's own routes are ${routes}`);
}
