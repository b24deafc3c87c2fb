// Who may call the sandbox: one key pair for interface A (HTTP Basic) and one token for interface B (Bearer),
// from flags, else the environment variables the SDK reads, else defaults printed at start.
import { timingSafeEqual } from "node:crypto";
import type { Api } from "./contract.js";

export interface SandboxCredentials {
  keyId: string;
  keySecret: string;
  token: string;
}

/** The defaults, for a sandbox started with no flag and no environment: printed at start, never secret. */
export const defaultCredentials: SandboxCredentials = { keyId: "sandbox-key-id", keySecret: "sandbox-key-secret", token: "sandbox-token" };

/** The variables the SDK reads for each credential (src/client-options.ts). */
export const credentialVariables: Record<keyof SandboxCredentials, string> = {
  keyId: "INGESTION_API_KEY_ID",
  keySecret: "INGESTION_API_KEY_SECRET",
  token: "INGESTION_ALERTS_TOKEN",
};

const equal = (a: string, b: string) => {
  const [left, right] = [Buffer.from(a), Buffer.from(b)];
  return left.length === right.length && timingSafeEqual(left, right);
};

/** Whether an `Authorization` header carries this interface's credentials in its scheme. */
export function authorized(api: Api, header: string | undefined, credentials: SandboxCredentials): boolean {
  const [scheme = "", value = ""] = (header ?? "").trim().split(/\s+/, 2);
  if (api === "alerts") return scheme.toLowerCase() === "bearer" && equal(value, credentials.token);
  if (scheme.toLowerCase() !== "basic") return false;
  return equal(Buffer.from(value, "base64").toString("utf8"), `${credentials.keyId}:${credentials.keySecret}`);
}

/** The challenge a 401 carries, naming the scheme the interface expects. */
export const challenge: Record<Api, string> = { management: 'Basic realm="ingestion-api sandbox"', alerts: 'Bearer realm="ingestion-api sandbox"' };
