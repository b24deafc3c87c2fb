// The two bundles and their generated validators, as the sandbox reads them: one place that names the operations,
// their path templates and their validators, so the sandbox serves exactly what the specs declare.
import alertsBundle from "../../generated/openapi/alerts.json" with { type: "json" };
import managementBundle from "../../generated/openapi/management.json" with { type: "json" };
import { validators as alertsValidators } from "../../generated/validators/alerts.js";
import { validators as managementValidators, type OperationValidators } from "../../generated/validators/management.js";
// The one OpenAPI walker the scripts and tests share; esbuild bundles it into dist/cli.js.
import { jsonMedia, operationsOf, resolveRef } from "../../scripts/lib/openapi.mjs";

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

/** An operation as the shared walker reads it, as far as the sandbox uses it. */
interface WalkedOperation {
  key: string;
  path: string;
  method: string;
  operationId: string;
  parameters: { in: string; name: string }[];
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

function operationsIn(api: Api): Operation[] {
  return operationsOf(bundles[api]).map(({ key, path: template, method, operationId, parameters }: WalkedOperation) => {
    const validators = generated[api][key];
    if (!validators) throw new Error(`sandbox: no generated validators for ${key}`);
    return {
      api,
      operationId,
      method: method.toUpperCase(),
      template,
      pattern: new RegExp(`^${template.replace(/\{\w+\}/g, "([^/]+)")}$`),
      names: [...template.matchAll(/\{(\w+)\}/g)].map((match) => match[1] as string),
      queryNames: parameters.filter((parameter) => parameter.in === "query").map((parameter) => parameter.name),
      validators,
    };
  });
}

export const operations: Operation[] = [...operationsIn("management"), ...operationsIn("alerts")];

/** The values of every named example of an operation's 200 answer, in the order the spec lists them. */
export function successExamples(operationId: string): unknown[] {
  const operation = operations.find((candidate) => candidate.operationId === operationId);
  if (!operation) throw new Error(`sandbox: no operation ${operationId} in the bundles`);
  const bundle = bundles[operation.api];
  const declared = bundle.paths[operation.template]?.[operation.method.toLowerCase()] as { responses: Record<string, unknown> };
  const examples: Record<string, unknown> = jsonMedia(bundle, declared.responses["200"])?.examples ?? {};
  return Object.values(examples).map((example) => structuredClone(resolveRef(bundle, example).value));
}

/** The endpoint request's fields that belong to one type: another type's branch allows them only as null. */
export function typeDependentEndpointFields(): string[] {
  const bundle = bundles.management;
  const branches = (bundle.components.schemas?.ReversePrivateEndpointRequest?.oneOf ?? []).map((branch) => resolveRef(bundle, branch));
  const fields = branches.flatMap((branch) =>
    Object.entries<{ $ref?: string }>(branch?.properties ?? {})
      .filter(([, property]) => property.$ref?.endsWith("/NotForThisType"))
      .map(([name]) => name),
  );
  return [...new Set(fields)];
}
