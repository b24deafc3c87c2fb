// Reverse private endpoints of a service.
import type { paths } from "../../../generated/types/management.js";
import type { ApiPromise } from "../api-promise.js";
import type { RequestOptions } from "../client-options.js";
import type { Transport } from "../transport.js";
import type { ReversePrivateEndpoint, ReversePrivateEndpointRequest } from "../types.js";
import type { ServiceParams, WithOrganization } from "./management-params.js";

/** Private network endpoints through which a service's pipes reach sources in your network. */
export interface ReversePrivateEndpointsResource {
  /**
   * Creates a reverse private endpoint; its `type` decides which fields are required. Not retried unless the
   * request surely was not processed (a 429, a refused connection), so it is never created twice.
   * `POST /v1/organizations/{organizationId}/services/{serviceId}/pipesReversePrivateEndpoints`
   */
  create(params: ServiceParams, body: ReversePrivateEndpointRequest, options?: RequestOptions): ApiPromise<ReversePrivateEndpoint>;
}

export function reversePrivateEndpointsResource({ POST }: Transport<paths>, withOrganization: WithOrganization): ReversePrivateEndpointsResource {
  return {
    create: (params, body, options) =>
      POST(
        "/v1/organizations/{organizationId}/services/{serviceId}/pipesReversePrivateEndpoints",
        { params: { path: withOrganization(params) }, body },
        options,
      ),
  };
}
