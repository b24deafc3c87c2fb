// The Authorization header each interface takes, for the tests that call a sandbox or a mock without the SDK:
// HTTP Basic of the key pair for management, Bearer with the token for alerting.
import type { SandboxCredentials } from "../../src/sandbox/credentials.js";
import type { Api } from "./bundles.js";

/** Each interface's Authorization header for `credentials`. */
export function authorizationOf({ keyId, keySecret, token }: SandboxCredentials): Record<Api, string> {
  return { management: `Basic ${btoa(`${keyId}:${keySecret}`)}`, alerts: `Bearer ${token}` };
}
