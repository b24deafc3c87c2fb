// Pipes of a service, and their settings.

import type { paths } from "../../generated/types/management.js";
import type { RequestOptions } from "../client-options.js";
import type { Transport } from "../transport.js";
import type { Pipe, PipeSettings, PipeSettingsUpdate } from "../types.js";
import type { PipeParams } from "./management-params.js";

const pipePath = "/v1/organizations/{organizationId}/services/{serviceId}/pipes/{pipeId}";
const settingsPath = `${pipePath}/settings` as const;

export function pipesResource({ call }: Transport<paths>, withOrganization: <P>(params: P) => P) {
  return {
    /** One pipe: state, scaling, source, destination, field mappings and settings. */
    get: (params: PipeParams, options?: RequestOptions) => call<Pipe>("GET", pipePath, { params: withOrganization(params) }, options),
    /** The settings in force, `null` meaning the service default. */
    getSettings: (params: PipeParams, options?: RequestOptions) => call<PipeSettings>("GET", settingsPath, { params: withOrganization(params) }, options),
    /** Replaces all settings; an omitted or `null` field means the service default. Returns the settings now in force. */
    updateSettings: (params: PipeParams, settings: PipeSettingsUpdate, options?: RequestOptions) =>
      call<PipeSettings>("PUT", settingsPath, { params: withOrganization(params), body: settings }, options),
  };
}
