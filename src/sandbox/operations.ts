// The seven operations over the sandbox's data, with the contract's semantics: what each returns, creates or
// replaces, and which unknown id gives which 404. Requests reach them already authenticated and validated.

import type { Alert, AlertRequest, Pipe, PipeSettings, ReversePrivateEndpoint, ReversePrivateEndpointRequest } from "../client/types.js";
import { alerts, management } from "../contract/interfaces.js";
import { type Answer, failure, success } from "./answers.js";
import { type OperationId, typeDependentEndpointFields } from "./contract.js";
import { newEndpointId, newObjectId, newUuid, now } from "./ids.js";
import type { SandboxData } from "./seed.js";

/** A request as the operations see it: path parameters, declared query parameters and the parsed body. */
export interface SandboxRequest {
  path: Record<string, string>;
  query: Record<string, string[]>;
  body: unknown;
}

type Handler = (data: SandboxData, request: SandboxRequest) => Answer;

const isAnswer = (value: object): value is Answer => "status" in value && "body" in value;

// UUIDs are case-insensitive (RFC 9562), and the contract accepts upper-case ones in paths.
const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** The service a path names, or the 404 for the first unknown id in it (organization, then service). */
function serviceOf(data: SandboxData, { organizationId, serviceId }: Record<string, string>) {
  // Stryker disable next-line StringLiteral: the route captures every path parameter, so the default never applies.
  const inOrganization = data.services.filter((entry) => same(entry.organizationId, organizationId ?? ""));
  if (inOrganization.length === 0) return failure(management, 404, "Organization not found");
  // Stryker disable next-line StringLiteral: the route captures every path parameter, so the default never applies.
  const entry = inOrganization.find(({ service }) => same(service.id, serviceId ?? ""));
  return entry ?? failure(management, 404, "Service not found");
}

function pipeOf(data: SandboxData, path: Record<string, string>): Pipe | Answer {
  const service = serviceOf(data, path);
  if (isAnswer(service)) return service;
  // Stryker disable next-line StringLiteral: the route captures every path parameter, so the default never applies.
  const pipe = data.pipes.find((candidate) => same(candidate.serviceId, service.service.id) && same(candidate.id, path.pipeId ?? ""));
  return pipe ?? failure(management, 404, "Pipe not found");
}

/** `tag:<key>` matches a service that has the tag, `tag:<key>=<value>` one whose tag has that value. */
function matches(tags: Record<string, string>, filter: string): boolean {
  // Stryker disable next-line StringLiteral: split() always yields a first element, so the default never applies.
  const [key = "", value] = filter.slice("tag:".length).split("=");
  return Object.hasOwn(tags, key) && (value === undefined || tags[key] === value);
}

// A created endpoint answers the other types' fields as null, as the example does.
const endpointFields = typeDependentEndpointFields();

/** The kind of resource each create adds to, which the sandbox caps (`--max-resources`). */
export const created: Partial<Record<OperationId, "reversePrivateEndpoints" | "alerts">> = {
  createReversePrivateEndpoint: "reversePrivateEndpoints",
  createAlert: "alerts",
};

/** One handler per operation of the contract: an operation without one does not compile. */
export const handlers: Record<OperationId, Handler> = {
  listServices(data, { path, query }) {
    // Stryker disable next-line StringLiteral: the route captures every path parameter, so the default never applies.
    const inOrganization = data.services.filter((entry) => same(entry.organizationId, path.organizationId ?? ""));
    if (inOrganization.length === 0) return failure(management, 404, "Organization not found");
    // Several filters narrow the list: a service must match each.
    const filters = query.filter ?? [];
    return success(
      management,
      inOrganization.filter(({ tags }) => filters.every((filter) => matches(tags, filter))).map(({ service }) => service),
    );
  },

  createReversePrivateEndpoint(data, { path, body }) {
    const service = serviceOf(data, path);
    if (isAnswer(service)) return service;
    const request = body as ReversePrivateEndpointRequest;
    const endpointId = newEndpointId();
    const endpoint = {
      id: newUuid(),
      serviceId: service.service.id,
      ...Object.fromEntries(endpointFields.map((field) => [field, null])),
      ...request,
      endpointId,
      dnsNames: [`${endpointId}.sandbox.invalid`],
      privateDnsNames: [],
      status: "Ready",
    } as ReversePrivateEndpoint;
    data.reversePrivateEndpoints.push(endpoint);
    return success(management, endpoint);
  },

  getPipe(data, { path }) {
    const pipe = pipeOf(data, path);
    return isAnswer(pipe) ? pipe : success(management, pipe);
  },

  getPipeSettings(data, { path }) {
    const pipe = pipeOf(data, path);
    return isAnswer(pipe) ? pipe : success(management, pipe.settings ?? {});
  },

  // A full replacement: a field left out or null goes back to the service default, which is reported as absent.
  updatePipeSettings(data, { path, body }) {
    const pipe = pipeOf(data, path);
    if (isAnswer(pipe)) return pipe;
    pipe.settings = Object.fromEntries(Object.entries(body as object).filter(([, value]) => value !== null)) as PipeSettings;
    pipe.updatedAt = now();
    return success(management, pipe.settings);
  },

  createAlert(data, { body }) {
    const { dashboardId, savedSearchId, tileId, groupBy, name, message, ...rest } = body as AlertRequest & Record<string, unknown>;
    const createdAt = now();
    const alert = {
      id: newObjectId(),
      name: name ?? null,
      message: message ?? null,
      ...rest,
      state: "inactive",
      silenced: false,
      // The request names the dashboard and the saved search by id; the answer names them `dashboard` and `savedSearch`.
      ...(tileId != null && { tileId }),
      ...(dashboardId != null && { dashboard: dashboardId }),
      ...(savedSearchId != null && { savedSearch: savedSearchId }),
      ...(groupBy != null && { groupBy }),
      createdAt,
      updatedAt: createdAt,
    } as Alert;
    data.alerts.push(alert);
    return success(alerts, alert);
  },

  getAlert(data, { path }) {
    const alert = data.alerts.find((candidate) => candidate.id === path.id);
    return alert ? success(alerts, alert) : failure(alerts, 404, "Alert not found");
  },
};
