// The bodies the sandbox answers with: each interface's envelope and its declared error body, from its descriptor.
import type { Api } from "./contract.js";
import { newUuid } from "./ids.js";

export interface Answer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

/**
 * A success: the resource in the interface's envelope, which on the interface whose bodies carry a request id
 * (management) also says its status and that id: `{status, requestId, result}`, else `{data}`.
 */
export function success(api: Api, resource: unknown): Answer {
  const { envelope, requestIdField } = api;
  return { status: 200, body: requestIdField ? { status: 200, [requestIdField]: newUuid(), [envelope]: resource } : { [envelope]: resource } };
}

/** An error with the body the interface declares: `{status, error, requestId}` for management, `{message}` for alerting. */
export function failure(api: Api, status: number, message: string): Answer {
  const { errorKey, requestIdField } = api;
  return { status, body: requestIdField ? { status, [errorKey]: message, [requestIdField]: newUuid() } : { [errorKey]: message } };
}
