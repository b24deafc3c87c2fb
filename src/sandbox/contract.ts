// The two bundles and their generated validators, as the sandbox reads them: one place that names the operations,
// their path templates and their validators, so the sandbox serves exactly what the specs declare.
import alertsBundle from "../../generated/openapi/alerts.json" with { type: "json" };
import managementBundle from "../../generated/openapi/management.json" with { type: "json" };
import { validators as alertsValidators } from "../../generated/validators/alerts.js";
import { validators as managementValidators, type OperationValidators } from "../../generated/validators/management.js";

export type Api = "management" | "alerts";

/** A bundle as far as the sandbox reads it. */
export interface Bundle {
  paths: Record<string, Record<string, unknown>>;
  components: {
    examples?: Record<string, { value: unknown }>;
    parameters?: Record<string, { example?: unknown; examples?: Record<string, { value: unknown }> }>;
    schemas?: Record<string, { oneOf?: { $ref: string }[]; properties?: Record<string, { $ref?: string }> }>;
  };
}

export const bundles: Record<Api, Bundle> = { management: managementBundle as Bundle, alerts: alertsBundle as Bundle };

/** One operation of the contract: where it is and what checks its parts. */
export interface Operation {
  api: Api;
  operationId: string;
  method: string;
  template: string;
  /** Matches a request path; its groups are the path parameters, in `names` order. */
  pattern: RegExp;
  names: string[];
  /** Query parameters the operation declares; others are ignored, as Prism ignores them. */
  queryNames: string[];
  validators: OperationValidators;
}

const generated: Record<Api, Record<string, OperationValidators>> = { management: managementValidators, alerts: alertsValidators };
const methods = ["get", "put", "post", "delete", "patch"];

function operationsOf(api: Api): Operation[] {
  return Object.entries(bundles[api].paths).flatMap(([template, item]) =>
    methods
      .filter((method) => item[method])
      .map((method) => {
        const operation = item[method] as { operationId: string; parameters?: { $ref?: string; in?: string; name?: string }[] };
        const names = [...template.matchAll(/\{(\w+)\}/g)].map((match) => match[1] as string);
        const parameters = [...((item.parameters as typeof operation.parameters) ?? []), ...(operation.parameters ?? [])].map((parameter) =>
          parameter.$ref ? (bundles[api].components.parameters?.[parameter.$ref.split("/").pop() as string] as typeof parameter) : parameter,
        );
        const key = `${method.toUpperCase()} ${template}`;
        const validators = generated[api][key];
        if (!validators) throw new Error(`sandbox: no generated validators for ${key}`);
        return {
          api,
          operationId: operation.operationId,
          method: method.toUpperCase(),
          template,
          pattern: new RegExp(`^${template.replace(/\{\w+\}/g, "([^/]+)")}$`),
          names,
          queryNames: parameters.filter((parameter) => parameter?.in === "query").map((parameter) => parameter?.name as string),
          validators,
        };
      }),
  );
}

export const operations: Operation[] = [...operationsOf("management"), ...operationsOf("alerts")];

/** The values of every named example of an operation's 200 answer, in the order the spec lists them. */
export function successExamples(operationId: string): unknown[] {
  const operation = operations.find((candidate) => candidate.operationId === operationId);
  if (!operation) throw new Error(`sandbox: no operation ${operationId} in the bundles`);
  const { components, paths } = bundles[operation.api];
  const declared = paths[operation.template]?.[operation.method.toLowerCase()] as { responses: Record<string, Media> };
  const examples = declared.responses["200"]?.content?.["application/json"]?.examples ?? {};
  return Object.values(examples).map((example) => {
    const named = example.$ref ? components.examples?.[example.$ref.split("/").pop() as string] : example;
    if (!named) throw new Error(`sandbox: ${operationId} refers to a missing example ${example.$ref}`);
    return structuredClone(named.value);
  });
}

interface Media {
  content?: Record<string, { examples?: Record<string, { $ref?: string; value?: unknown }> }>;
}

/** The endpoint request's fields that belong to one type: another type's branch allows them only as null. */
export function typeDependentEndpointFields(): string[] {
  const schemas = bundles.management.components.schemas ?? {};
  const named = (ref: string) => schemas[ref.split("/").pop() as string];
  const branches = (schemas.ReversePrivateEndpointRequest?.oneOf ?? []).map(({ $ref }) => named($ref));
  const fields = branches.flatMap((branch) =>
    Object.entries(branch?.properties ?? {})
      .filter(([, property]) => property.$ref?.endsWith("/NotForThisType"))
      .map(([name]) => name),
  );
  return [...new Set(fields)];
}
