// The bodies the sandbox answers with: each interface's envelope and its declared error body.
import type { Api } from "./contract.js";
import { newUuid } from "./ids.js";

export interface Answer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

/** A success: interface A wraps the resource in `{status, requestId, result}`, interface B in `{data}`. */
export function success(api: Api, resource: unknown): Answer {
  return { status: 200, body: api === "management" ? { status: 200, requestId: newUuid(), result: resource } : { data: resource } };
}

/** An error with the body each interface declares: `{status, error, requestId}` for A, `{message}` for B. */
export function failure(api: Api, status: number, message: string): Answer {
  return { status, body: api === "management" ? { status, error: message, requestId: newUuid() } : { message } };
}
