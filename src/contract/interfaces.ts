// What differs between the two interfaces, stated once. The clients, the transport, the errors and the sandbox
// read these facts here; nothing else in src/ names a prefix, a scheme, an envelope or an environment variable.
import { declaredRateLimits } from "../../generated/rate-limits.js";

export interface InterfaceDescriptor {
  /** `management` (interface A) or `alerts` (interface B). */
  readonly name: "management" | "alerts";
  /** What every path of the interface starts with; a base URL must not end with it. */
  readonly prefix: string;
  /** The `Authorization` scheme: HTTP Basic (a key ID and secret) or Bearer (a token); a 401 challenges with it. */
  readonly scheme: "Basic" | "Bearer";
  /** The environment variables a client reads for the options left out, by option name. */
  readonly environment: { readonly baseUrl: string } & Readonly<Record<string, string>>;
  /** The field of a success envelope that holds the resource. */
  readonly envelope: "result" | "data";
  /** The field of an error body that holds the server's message. */
  readonly errorKey: "error" | "message";
  /** The body field that carries the request id, where the interface has one; `x-request-id` is read too. */
  readonly requestIdField: "requestId" | undefined;
  /** The limit the contract declares (`x-rate-limit`): so many requests per credential in any window of so many seconds. */
  readonly rateLimit: { readonly requests: number; readonly windowSeconds: number; readonly scope: "credential" };
}

/** Interface A: services, reverse private endpoints, pipes. `{status, requestId, result}`; errors `{status, error, requestId}`. */
export const management = {
  name: "management",
  prefix: "/v1",
  scheme: "Basic",
  environment: {
    baseUrl: "INGESTION_API_URL",
    keyId: "INGESTION_API_KEY_ID",
    keySecret: "INGESTION_API_KEY_SECRET",
    organizationId: "INGESTION_ORGANIZATION_ID",
  },
  envelope: "result",
  errorKey: "error",
  requestIdField: "requestId",
  rateLimit: declaredRateLimits.management,
} as const satisfies InterfaceDescriptor;

/** Interface B: threshold alerts. `{data}`; errors `{message}`; the request id only in `x-request-id`. */
export const alerts = {
  name: "alerts",
  prefix: "/api/v2",
  scheme: "Bearer",
  environment: { baseUrl: "INGESTION_ALERTS_URL", token: "INGESTION_ALERTS_TOKEN" },
  envelope: "data",
  errorKey: "message",
  requestIdField: undefined,
  rateLimit: declaredRateLimits.alerts,
} as const satisfies InterfaceDescriptor;

export const interfaces = { management, alerts } as const;

/** The header both interfaces' gateways may carry a request id in. */
export const requestIdHeader = "x-request-id";
