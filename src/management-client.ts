// The management interface (A, /v1, HTTP Basic): services, reverse private endpoints, pipes.

import type { paths } from "../generated/types/management.js";
import { validators } from "../generated/validators/management.js";
import {
  assertHeaderSafe,
  checkedBaseUrl,
  fromOptionOrEnvironment,
  type ManagementClientOptions,
  optionalFromEnvironment,
  resolveCommonOptions,
} from "./client-options.js";
import { IngestionError } from "./errors.js";
import type { WithOrganization } from "./resources/management-params.js";
import { pipesResource } from "./resources/pipes.js";
import { reversePrivateEndpointsResource } from "./resources/reverse-private-endpoints.js";
import { servicesResource } from "./resources/services.js";
import { createTransport, neverThrowing } from "./transport.js";

const factory = "createManagementClient";

export type ManagementClient = ReturnType<typeof createManagementClient>;

export function createManagementClient(options: ManagementClientOptions = {}) {
  const keyId = assertHeaderSafe(factory, "keyId", fromOptionOrEnvironment(factory, "keyId", options.keyId, "INGESTION_API_KEY_ID"));
  const keySecret = assertHeaderSafe(factory, "keySecret", fromOptionOrEnvironment(factory, "keySecret", options.keySecret, "INGESTION_API_KEY_SECRET"));
  if (keyId.includes(":")) throw new IngestionError(`${factory}: keyId must not contain ":" (HTTP Basic separates ID and secret with it)`);
  const baseUrl = fromOptionOrEnvironment(factory, "baseUrl", options.baseUrl, "INGESTION_API_URL");
  const defaultOrganizationId = optionalFromEnvironment(options.organizationId, "INGESTION_ORGANIZATION_ID");

  const transport = createTransport<paths>({
    ...resolveCommonOptions(factory, options),
    baseUrl: checkedBaseUrl(factory, "INGESTION_API_URL", baseUrl, options.allowInsecureHttp ?? false),
    authorization: `Basic ${base64(`${keyId}:${keySecret}`)}`,
    validators,
    envelope: "result",
  });
  // A call's own organizationId wins; otherwise the client's default (validation reports it if neither is set).
  const withOrganization: WithOrganization = (params) =>
    (params.organizationId === undefined && defaultOrganizationId !== undefined
      ? { ...params, organizationId: defaultOrganizationId }
      : params) as typeof params & {
      organizationId: string;
    };

  return {
    services: neverThrowing(servicesResource(transport, withOrganization)),
    reversePrivateEndpoints: neverThrowing(reversePrivateEndpointsResource(transport, withOrganization)),
    pipes: neverThrowing(pipesResource(transport, withOrganization)),
    /** The openapi-fetch client typed by path that every method calls: the same authorization, retries and timeouts. */
    raw: transport.client,
  };
}

// UTF-8 safe, unlike btoa on its own; both exist in Node, browsers, Deno and Bun.
function base64(text: string): string {
  let binary = "";
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary);
}
