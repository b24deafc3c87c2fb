// The management interface (A, /v1, HTTP Basic): services, reverse private endpoints, pipes.

import type { Client } from "openapi-fetch";
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
import { type PipesResource, pipesResource } from "./resources/pipes.js";
import { type ReversePrivateEndpointsResource, reversePrivateEndpointsResource } from "./resources/reverse-private-endpoints.js";
import { type ServicesResource, servicesResource } from "./resources/services.js";
import { createTransport, neverThrowing } from "./transport.js";

const factory = "createManagementClient";

/** A client of the management interface (`/v1`, HTTP Basic): services, reverse private endpoints, pipes. */
export interface ManagementClient {
  /** Data services of an organization. */
  services: ServicesResource;
  /** Private network endpoints through which a service's pipes reach sources in your network. */
  reversePrivateEndpoints: ReversePrivateEndpointsResource;
  /** Continuous ingestion jobs of a service, and their settings. */
  pipes: PipesResource;
  /**
   * The openapi-fetch client, typed by path, that every method above calls: the same authorization, retries,
   * timeouts and limits; HTTP errors come back as openapi-fetch's `{ error }`.
   */
  raw: Client<paths>;
}

/**
 * A client of the management interface. Options left out come from the environment: `INGESTION_API_URL`,
 * `INGESTION_API_KEY_ID`, `INGESTION_API_KEY_SECRET` and, optionally, `INGESTION_ORGANIZATION_ID`.
 */
export function createManagementClient(options: ManagementClientOptions = {}): ManagementClient {
  const keyId = assertHeaderSafe(factory, "keyId", fromOptionOrEnvironment(factory, "keyId", options.keyId, "INGESTION_API_KEY_ID"));
  const keySecret = assertHeaderSafe(factory, "keySecret", fromOptionOrEnvironment(factory, "keySecret", options.keySecret, "INGESTION_API_KEY_SECRET"));
  if (keyId.includes(":")) throw new IngestionError(`${factory}: keyId must not contain ":" (HTTP Basic separates ID and secret with it)`);
  const baseUrl = fromOptionOrEnvironment(factory, "baseUrl", options.baseUrl, "INGESTION_API_URL");
  const defaultOrganizationId = optionalFromEnvironment(options.organizationId, "INGESTION_ORGANIZATION_ID");

  const transport = createTransport<paths>({
    ...resolveCommonOptions(factory, options),
    baseUrl: checkedBaseUrl(factory, "INGESTION_API_URL", baseUrl, options.allowInsecureHttp ?? false, "/v1"),
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
    raw: transport.client,
  };
}

// UTF-8 safe, unlike btoa on its own; both exist in Node, browsers, Deno and Bun.
function base64(text: string): string {
  let binary = "";
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary);
}
