// Pipes of a service, and their settings.
import { settingsUpdateFields } from "../../../generated/settings-fields.js";
import type { paths } from "../../../generated/types/management.js";
import type { ApiPromise } from "../api-promise.js";
import type { RequestOptions } from "../client-options.js";
import type { Transport } from "../transport.js";
import type { Pipe, PipeSettings, PipeSettingsUpdate } from "../types.js";
import type { PipeParams, WithOrganization } from "./management-params.js";

/** Continuous ingestion jobs of a service, and their settings. */
export interface PipesResource {
  /**
   * One pipe: its state, scaling, source, destination, field mappings and settings.
   * `GET /v1/organizations/{organizationId}/services/{serviceId}/pipes/{pipeId}`
   */
  get(params: PipeParams, options?: RequestOptions): ApiPromise<Pipe>;
  /**
   * The settings in force. A setting left out, or `null`, is at the service default.
   * `GET /v1/organizations/{organizationId}/services/{serviceId}/pipes/{pipeId}/settings`
   */
  getSettings(params: PipeParams, options?: RequestOptions): ApiPromise<PipeSettings>;
  /**
   * Replaces all the settings of a pipe: a field left out, or `null`, goes back to the service default, so `{}`
   * resets every one. A value outside its bounds is refused before anything is sent. Resolves to the settings
   * now in force. `PUT /v1/organizations/{organizationId}/services/{serviceId}/pipes/{pipeId}/settings`
   */
  updateSettings(params: PipeParams, settings: PipeSettingsUpdate, options?: RequestOptions): ApiPromise<PipeSettings>;
  /**
   * Changes some settings and keeps the others: reads the settings in force, passes them to `change`, and sends back
   * what it returns (`(current) => ({ ...current, engine_max_threads: 8 })`) as the new settings, which replace all.
   * Of what `change` returns only the fields an update takes are sent: one this version of the SDK does not know
   * (a newer server's) cannot be, and goes back to its default. Resolves to the settings now in force. `options`
   * apply to both calls.
   */
  changeSettings(params: PipeParams, change: (current: PipeSettings) => PipeSettingsUpdate, options?: RequestOptions): Promise<PipeSettings>;
}

const pipePath = "/v1/organizations/{organizationId}/services/{serviceId}/pipes/{pipeId}";
const settingsPath = `${pipePath}/settings` as const;

export function pipesResource({ GET, PUT }: Transport<paths>, withOrganization: WithOrganization): PipesResource {
  return {
    get: (params, options) => GET(pipePath, { params: { path: withOrganization(params) } }, options),
    getSettings: (params, options) => GET(settingsPath, { params: { path: withOrganization(params) } }, options),
    updateSettings: (params, settings, options) => PUT(settingsPath, { params: { path: withOrganization(params) }, body: settings }, options),
    changeSettings: async (params, change, options) => {
      const path = withOrganization(params);
      const changed = change(await GET(settingsPath, { params: { path } }, options));
      return PUT(settingsPath, { params: { path }, body: updatableFieldsOf(changed) }, options);
    },
  };
}

/** The fields of `settings` an update takes, in their order. */
function updatableFieldsOf(settings: PipeSettingsUpdate): PipeSettingsUpdate {
  const kept: Record<string, unknown> = {};
  for (const field of settingsUpdateFields) if (field in settings) kept[field] = settings[field];
  return kept as PipeSettingsUpdate;
}
