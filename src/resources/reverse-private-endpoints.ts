// Reverse private endpoints of a service.
import type { paths } from "../../generated/types/management.js";
import type { RequestOptions } from "../client-options.js";
import type { Transport } from "../transport.js";
import type { ReversePrivateEndpointRequest } from "../types.js";
import type { ServiceParams, WithOrganization } from "./management-params.js";

export function reversePrivateEndpointsResource({ POST }: Transport<paths>, withOrganization: WithOrganization) {
  return {
    /** Creates a reverse private endpoint; `type` decides the required fields. Not retried unless surely not processed. */
    create: (params: ServiceParams, body: ReversePrivateEndpointRequest, options?: RequestOptions) =>
      POST(
        "/v1/organizations/{organizationId}/services/{serviceId}/pipesReversePrivateEndpoints",
        { params: { path: withOrganization(params) }, body },
        options,
      ),
  };
}
