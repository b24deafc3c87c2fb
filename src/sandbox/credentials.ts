// Who may call the sandbox: one key pair for interface A (HTTP Basic) and one token for interface B (Bearer),
// from flags, else the environment variables the SDK reads, else the defaults printed at start.
import { management } from "../contract/interfaces.js";
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

/** Compares in time that depends on the lengths only, not on where the two first differ. */
function equal(a: string, b: string): boolean {
  const [left, right] = [new TextEncoder().encode(a), new TextEncoder().encode(b)];
  let difference = left.length ^ right.length;
  for (let index = 0; index < left.length; index++) difference |= (left[index] as number) ^ (right[index % right.length] ?? 0);
  return difference === 0;
}

/** A Basic credential's `id:secret`, or undefined when it is not base64 of UTF-8. */
function decodedBasic(value: string): string | undefined {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(Uint8Array.from(atob(value), (char) => char.charCodeAt(0)));
  } catch {
    return undefined;
  }
}

/** Whether an `Authorization` header carries this interface's credentials in its scheme. */
export function authorized(api: Api, header: string | undefined, credentials: SandboxCredentials): boolean {
  const [scheme = "", value = ""] = (header ?? "").trim().split(/\s+/, 2);
  if (scheme.toLowerCase() !== api.scheme.toLowerCase()) return false;
  if (api !== management) return equal(value, credentials.token);
  return equal(decodedBasic(value) ?? "", `${credentials.keyId}:${credentials.keySecret}`);
}

/** The challenge a 401 carries, naming the scheme the interface expects. */
export const challenge = (api: Api): string => `${api.scheme} realm="ingestion-api sandbox"`;
