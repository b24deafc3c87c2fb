// The management interface (A, /v1, HTTP Basic): services, reverse private endpoints, pipes.

import type { paths } from "../../generated/types/management.js";
import { management } from "../contract/interfaces.js";
import { assertHeaderSafe, fromOptionOrEnvironment, type ManagementClientOptions, optionalFromEnvironment, resolveCommonOptions } from "./client-options.js";
import { IngestionError } from "./errors.js";
import type { WithOrganization } from "./resources/management-params.js";
import { type PipesResource, pipesResource } from "./resources/pipes.js";
import { type ReversePrivateEndpointsResource, reversePrivateEndpointsResource } from "./resources/reverse-private-endpoints.js";
import { type ServicesResource, servicesResource } from "./resources/services.js";
import { createTransport, neverThrowing, type RawClient } from "./transport.js";

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
   * openapi-fetch's client, typed by path, with the same authorization, headers, hooks, retries, timeouts and
   * limits as every method above; HTTP errors come back as openapi-fetch's `{ error }`.
   */
  raw: RawClient<paths>;
}

/**
 * A client of the management interface. Options left out come from the environment: `INGESTION_API_URL`,
 * `INGESTION_API_KEY_ID`, `INGESTION_API_KEY_SECRET` and, optionally, `INGESTION_ORGANIZATION_ID`.
 */
export function createManagementClient(options: ManagementClientOptions = {}): ManagementClient {
  const keyId = assertHeaderSafe(factory, "keyId", fromOptionOrEnvironment(factory, management, "keyId", options.keyId));
  const keySecret = assertHeaderSafe(factory, "keySecret", fromOptionOrEnvironment(factory, management, "keySecret", options.keySecret));
  if (keyId.includes(":")) throw new IngestionError(`${factory}: keyId must not contain ":" (HTTP Basic separates ID and secret with it)`);
  const defaultOrganizationId = optionalFromEnvironment(management, "organizationId", options.organizationId);

  const common = resolveCommonOptions(factory, management, options, base64(`${keyId}:${keySecret}`), keyId);
  const transport = createTransport<paths>({
    ...common,
    // The interface's own validators, loaded as the client is made: the package's import parses none of them.
    validators: import("../../generated/validators/management.js"),
    // Loaded only when answers are checked: most of the validators' code, which the client otherwise never parses.
    responseValidators: common.validateResponses ? import("../../generated/validators/management-responses.js") : undefined,
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
    raw: transport.raw,
  };
}

// UTF-8 safe, unlike btoa on its own; both exist in Node, browsers, Deno and Bun.
function base64(text: string): string {
  let binary = "";
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary);
}
