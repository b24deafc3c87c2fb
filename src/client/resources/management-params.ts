// Path parameters of the management operations, with organizationId optional (the client may supply it).
import type { operations } from "../../../generated/types/management.js";

type OptionalOrganization<T> = Omit<T, "organizationId"> & { organizationId?: string };

export type ListServicesParams = OptionalOrganization<operations["listServices"]["parameters"]["path"]> &
  NonNullable<operations["listServices"]["parameters"]["query"]>;
export type ServiceParams = OptionalOrganization<operations["createReversePrivateEndpoint"]["parameters"]["path"]>;
export type PipeParams = OptionalOrganization<operations["getPipe"]["parameters"]["path"]>;

/**
 * Fills in the client's default organizationId when a call names none. Typed as always giving one: when
 * neither has it, request validation reports it before anything is sent.
 */
export type WithOrganization = <P extends { organizationId?: string }>(params: P) => P & { organizationId: string };
