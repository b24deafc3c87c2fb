// Pipes of a service, and their settings.
import type { paths } from "../../generated/types/management.js";
import type { RequestOptions } from "../client-options.js";
import type { Transport } from "../transport.js";
import type { PipeSettingsUpdate } from "../types.js";
import type { PipeParams, WithOrganization } from "./management-params.js";

const pipePath = "/v1/organizations/{organizationId}/services/{serviceId}/pipes/{pipeId}";
const settingsPath = `${pipePath}/settings` as const;

export function pipesResource({ GET, PUT }: Transport<paths>, withOrganization: WithOrganization) {
  return {
    /** One pipe: state, scaling, source, destination, field mappings and settings. */
    get: (params: PipeParams, options?: RequestOptions) => GET(pipePath, { params: { path: withOrganization(params) } }, options),
    /** The settings in force; a setting left out or `null` is at the service default. */
    getSettings: (params: PipeParams, options?: RequestOptions) => GET(settingsPath, { params: { path: withOrganization(params) } }, options),
    /** Replaces all settings; an omitted or `null` field means the service default. Returns the settings now in force. */
    updateSettings: (params: PipeParams, settings: PipeSettingsUpdate, options?: RequestOptions) =>
      PUT(settingsPath, { params: { path: withOrganization(params) }, body: settings }, options),
  };
}
