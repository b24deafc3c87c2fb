// Names for the contract's resources, taken from the generated types so they can never drift from the specs.

import type { components as Alerts } from "../generated/types/alerts.js";
import type { components as Management } from "../generated/types/management.js";

/** A data service of an organization (interface A). */
export type Service = Management["schemas"]["Service"];
/** A continuous ingestion job (interface A). */
export type Pipe = Management["schemas"]["Pipe"];
/** The settings in force for a pipe, each a value or null (interface A). */
export type PipeSettings = Management["schemas"]["PipeSettings"];
/** Replacement settings for a pipe: every field optional; omitted or null means the service default. */
export type PipeSettingsUpdate = Management["schemas"]["PipeSettingsUpdate"];
/** A reverse private endpoint as the service returns it (interface A). */
export type ReversePrivateEndpoint = Management["schemas"]["ReversePrivateEndpoint"];
/** Body of a reverse private endpoint creation: one variant per endpoint `type`. */
export type ReversePrivateEndpointRequest = Management["schemas"]["ReversePrivateEndpointRequest"];
/** A threshold alert as the service returns it (interface B). */
export type Alert = Alerts["schemas"]["Alert"];
/** Body of an alert creation: one variant per `source` (`tile` or `search`). */
export type AlertRequest = Alerts["schemas"]["AlertRequest"];
