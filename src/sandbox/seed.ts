// What a sandbox holds when it starts: by default the specs' own named examples (the services, pipes, endpoint
// and alerts the docs show), or a seed file of the same shape, checked against the contract before it is served.
import type { Alert, Pipe, ReversePrivateEndpoint, Service } from "../client/types.js";
import { managementComponents, type OperationId, operationNamed, successExamples } from "./contract.js";

/** Everything a sandbox holds. A seed file (`--seed`) and `GET /_sandbox/state` have this shape. */
export interface SandboxData {
  /** Each service with the organization it belongs to and its resource tags (which `filter` matches). */
  services: { organizationId: string; tags: Record<string, string>; service: Service }[];
  /** Each pipe belongs to the service its `serviceId` names. */
  pipes: Pipe[];
  reversePrivateEndpoints: ReversePrivateEndpoint[];
  alerts: Alert[];
}

/** The tags the filter parameter's own examples name, so each documented filter finds the example services. */
function exampleTags(): Record<string, string> {
  const filter = managementComponents.parameters?.ServiceFilter;
  const filters = Object.values(filter?.examples ?? {}).flatMap((example) => example.value as string[]);
  return Object.fromEntries(filters.map((item) => item.slice("tag:".length).split("=")).map(([key, value]) => [key as string, value ?? "true"]));
}

/**
 * The default data: the named examples of the operations that answer with each kind of resource. The docs answer
 * the filter parameter's example with the first services example, so its services carry the tags that filter
 * names; the services of the other examples carry none, so a filter visibly narrows the list.
 */
export function exampleSeed(): SandboxData {
  const organizationId = managementComponents.parameters?.OrganizationId?.example as string;
  const tags = exampleTags();
  const results = (operationId: OperationId) => successExamples(operationId).map((envelope) => (envelope as { result: unknown }).result);
  return {
    services: (results("listServices") as Service[][]).flatMap((services, index) =>
      services.map((service) => ({ organizationId, tags: index === 0 ? { ...tags } : {}, service })),
    ),
    pipes: results("getPipe") as Pipe[],
    reversePrivateEndpoints: results("createReversePrivateEndpoint") as ReversePrivateEndpoint[],
    alerts: successExamples("getAlert").map((envelope) => (envelope as { data: Alert }).data),
  };
}

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const envelopeOf = (result: unknown) => ({ status: 200, requestId: "00000000-0000-4000-8000-000000000000", result });

/** The problems of a seed: each resource is checked by the response validator of the operation that returns it. */
export function seedProblems(data: unknown): string[] {
  if (typeof data !== "object" || data === null || Array.isArray(data)) return ["the seed must be a JSON object"];
  const seed = data as Partial<Record<keyof SandboxData, unknown>>;
  const problems: string[] = [];
  const known = ["services", "pipes", "reversePrivateEndpoints", "alerts"];
  for (const key of Object.keys(seed)) if (!known.includes(key)) problems.push(`${key} is not a part of a seed (${known.join(", ")})`);
  const listOf = (key: keyof SandboxData): unknown[] => {
    const value = seed[key] ?? [];
    if (Array.isArray(value)) return value;
    problems.push(`${key} must be an array`);
    return [];
  };
  const check = (operationId: OperationId, where: string, body: unknown) => {
    const validate = operationNamed(operationId).validators.response;
    if (!validate(body)) {
      const errors = (validate.errors ?? []).map((error) => `${error.instancePath || "/"} ${error.message ?? error.keyword}`);
      validate.errors = null;
      problems.push(`${where} breaks the contract: ${[...new Set(errors)].slice(0, 5).join("; ")}`);
    }
  };
  for (const [index, entry] of listOf("services").entries()) {
    const { organizationId, tags, service } = (entry ?? {}) as Record<string, unknown>;
    if (typeof organizationId !== "string" || !uuid.test(organizationId)) problems.push(`services[${index}].organizationId must be a UUID`);
    if (tags !== undefined && (typeof tags !== "object" || tags === null || Object.values(tags).some((value) => typeof value !== "string"))) {
      problems.push(`services[${index}].tags must be an object of strings`);
    }
    check("listServices", `services[${index}].service`, envelopeOf([service]));
  }
  for (const [index, pipe] of listOf("pipes").entries()) check("getPipe", `pipes[${index}]`, envelopeOf(pipe));
  for (const [index, endpoint] of listOf("reversePrivateEndpoints").entries()) {
    check("createReversePrivateEndpoint", `reversePrivateEndpoints[${index}]`, envelopeOf(endpoint));
  }
  for (const [index, alert] of listOf("alerts").entries()) check("getAlert", `alerts[${index}]`, { data: alert });
  return problems;
}

/** A checked seed with its optional parts filled in. */
export function seedFrom(data: unknown): SandboxData {
  const problems = seedProblems(data);
  if (problems.length > 0) throw new Error(`the seed is not valid:\n  ${problems.join("\n  ")}`);
  const seed = data as Partial<SandboxData>;
  return {
    services: (seed.services ?? []).map((entry) => ({ ...entry, tags: entry.tags ?? {} })),
    pipes: seed.pipes ?? [],
    reversePrivateEndpoints: seed.reversePrivateEndpoints ?? [],
    alerts: seed.alerts ?? [],
  };
}
