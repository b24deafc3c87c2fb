// Path parameters of the management operations, with organizationId optional (the client may supply it).
import type { operations } from "../../generated/types/management.js";

type WithOptionalOrganization<T> = Omit<T, "organizationId"> & { organizationId?: string };

export type ListServicesParams = WithOptionalOrganization<operations["listServices"]["parameters"]["path"]> &
  NonNullable<operations["listServices"]["parameters"]["query"]>;
export type ServiceParams = WithOptionalOrganization<operations["createReversePrivateEndpoint"]["parameters"]["path"]>;
export type PipeParams = WithOptionalOrganization<operations["getPipe"]["parameters"]["path"]>;
