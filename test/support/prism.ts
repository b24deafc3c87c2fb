// Sends requests to the Prism mocks started by test/prism-servers.ts and reads Prism's verdict.
import { inject } from "vitest";
import type { Api } from "./bundles.js";
import { authorizationOf } from "./credentials.js";

export const mockUrl: Record<Api, string> = {
  management: inject("managementUrl"),
  alerts: inject("alertsUrl"),
};

// Prism checks that the scheme is used, not the credentials, so any well-formed value works; a sandbox the
// same requests go to is started with these.
export const testCredentials = { keyId: "test-key-id", keySecret: "test-key-secret", token: "test-token" };

export const credentials: Record<Api, string> = authorizationOf(testCredentials);

export interface MockAnswer {
  status: number;
  body: unknown;
  /** Prism's `sl-violations` header: why it rejected the request (empty when it accepted it). */
  violations: { location: string[]; code: string | number; message: string }[];
}

export async function send(
  api: Api,
  method: string,
  path: string,
  { body, authorized = true }: { body?: unknown; authorized?: boolean } = {},
): Promise<MockAnswer> {
  const headers: Record<string, string> = { accept: "application/json" };
  if (authorized) headers.authorization = credentials[api];
  if (body !== undefined) headers["content-type"] = "application/json";
  const response = await fetch(mockUrl[api] + path, {
    method,
    headers,
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return {
    status: response.status,
    body: text ? JSON.parse(text) : undefined,
    violations: JSON.parse(response.headers.get("sl-violations") ?? "[]"),
  };
}
