// Who may call the sandbox: one key pair for interface A (HTTP Basic) and one token for interface B (Bearer),
// from flags, else the environment variables the SDK reads, else the defaults printed at start.
import { timingSafeEqual } from "node:crypto";
import { management } from "../interfaces.js";
import type { Api } from "./contract.js";
import defaults from "./default-credentials.json" with { type: "json" };

export interface SandboxCredentials {
  keyId: string;
  keySecret: string;
  token: string;
}

/**
 * The defaults, for a sandbox started with no flag and no environment: printed at start, never secret. The one set
 * `npm start`, the docs' samples, README and CONTRACT.md use too.
 */
export const defaultCredentials: SandboxCredentials = defaults;

const equal = (a: string, b: string) => {
  const [left, right] = [Buffer.from(a), Buffer.from(b)];
  return left.length === right.length && timingSafeEqual(left, right);
};

/** Whether an `Authorization` header carries this interface's credentials in its scheme. */
export function authorized(api: Api, header: string | undefined, credentials: SandboxCredentials): boolean {
  const [scheme = "", value = ""] = (header ?? "").trim().split(/\s+/, 2);
  if (scheme.toLowerCase() !== api.scheme.toLowerCase()) return false;
  if (api !== management) return equal(value, credentials.token);
  return equal(Buffer.from(value, "base64").toString("utf8"), `${credentials.keyId}:${credentials.keySecret}`);
}

/** The challenge a 401 carries, naming the scheme the interface expects. */
export const challenge = (api: Api): string => `${api.scheme} realm="ingestion-api sandbox"`;
