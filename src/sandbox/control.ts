// The sandbox's own routes, under /_sandbox/ (outside the contract's paths, and unauthenticated: the sandbox
// listens on loopback): reset for test suites, the state as a seed file, and reading a created endpoint back,
// which no operation of the contract does.
import type { Answer } from "./answers.js";
import type { SandboxData } from "./seed.js";

export const controlPrefix = "/_sandbox/";

export interface SandboxState {
  data: SandboxData;
  reset(): void;
}

/** The answer to a request under /_sandbox/. */
export function control(state: SandboxState, method: string, path: string): Answer {
  const route = path.slice(controlPrefix.length);
  if (route === "reset") {
    if (method !== "POST") return { status: 405, body: { error: "use POST /_sandbox/reset" }, headers: { allow: "POST" } };
    state.reset();
    return { status: 204, body: undefined };
  }
  if (route === "state" && method === "GET") return { status: 200, body: state.data };
  const endpoint = /^reversePrivateEndpoints\/([^/]+)$/.exec(route);
  if (endpoint && method === "GET") {
    const found = state.data.reversePrivateEndpoints.find(({ id }) => id.toLowerCase() === decodeURIComponent(endpoint[1] ?? "").toLowerCase());
    return found ? { status: 200, body: found } : { status: 404, body: { error: "Reverse private endpoint not found" } };
  }
  return {
    status: 404,
    body: { error: "the sandbox's own routes are POST /_sandbox/reset, GET /_sandbox/state and GET /_sandbox/reversePrivateEndpoints/{id}" },
  };
}
