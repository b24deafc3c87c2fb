// Concrete paths of the seven operations, with valid IDs, for requests to the mocks.
const organizationId = "7b1e3f0a-5c2d-4e8f-9a6b-1c3d5e7f9a0b";
const serviceId = "3f6c2a1e-8b4d-4c7e-9f1a-2b3c4d5e6f70";
const pipeId = "9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a";

export const servicesPath = `/v1/organizations/${organizationId}/services`;
export const reversePrivateEndpointsPath = `${servicesPath}/${serviceId}/pipesReversePrivateEndpoints`;
export const pipePath = `${servicesPath}/${serviceId}/pipes/${pipeId}`;
export const pipeSettingsPath = `${pipePath}/settings`;
export const alertsPath = "/api/v2/alerts";
export const alertPath = `${alertsPath}/65f1c2d3e4b5a69788796a5b`;
