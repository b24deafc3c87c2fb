// The operations of both bundles, read from the bundles, for every suite that goes over operations: an
// operation added to a spec is in each of those suites without touching them.

import { validators as alertsValidators } from "../../generated/validators/alerts.js";
import { responseValidators as alertsResponses } from "../../generated/validators/alerts-responses.js";
import type { OperationValidators, Validator } from "../../generated/validators/management.js";
import { validators as managementValidators } from "../../generated/validators/management.js";
import { responseValidators as managementResponses } from "../../generated/validators/management-responses.js";
import { exampleRequest, exampleResponse, jsonMedia, operationsOf, resolveRef } from "../../src/contract/openapi.js";
import { type Api, apis, bundles } from "./bundles.js";

/** What a test vector checks: the parameters as one object, the request body, or the 200 body. */
export type VectorPart = "params" | "request" | "response";

export interface Operation {
  api: Api;
  operationId: string;
  /** `GET /v1/organizations/{organizationId}/services`, as the generated validators key it. */
  key: string;
  method: string;
  path: string;
  /** The first tag and the summary, as the rendered reference names the operation. */
  tag: string;
  summary: string;
  /** The parameters, resolved. */
  parameters: { name: string; in: string; required?: boolean; schema?: object }[];
  requestBody: unknown;
  /** The parts a request and its answer have. */
  parts: VectorPart[];
  /** Every named example of the request body, by name. */
  requestExamples: Record<string, unknown>;
  /** A request made of the operation's first examples. */
  example: { path: Record<string, string>; query: Record<string, unknown>; body: unknown; url: string };
  /** The first example of the response of `status`. */
  exampleResponse(status?: string): unknown;
  /** Every named example of the response of `status`, of any media type, by name. */
  responseExamples(status?: string): Record<string, unknown>;
  /** The declared statuses of 400 and above. */
  errorStatuses: number[];
  /** The generated request validators, and the 200 answer's from the responses module. */
  validators: OperationValidators & { response: Validator };
}

const generatedValidators: Record<Api, Record<string, OperationValidators>> = { management: managementValidators, alerts: alertsValidators };
const generatedResponses: Record<Api, Record<string, Record<string, Validator>>> = { management: managementResponses, alerts: alertsResponses };

export const operations: Operation[] = apis.flatMap((api) => {
  const namedExamples = (media: { examples?: Record<string, unknown> } | undefined) =>
    Object.fromEntries(Object.entries(media?.examples ?? {}).map(([name, example]) => [name, resolveRef(bundles[api], example).value]));
  return operationsOf(bundles[api]).map((entry): Operation => {
    const { key, path, method, operation, operationId, parameters } = entry;
    const requestValidators = generatedValidators[api][key];
    const response = generatedResponses[api][key]?.["200"];
    if (!requestValidators || !response) throw new Error(`no generated validators for ${key}: run npm run generate`);
    const validators = { ...requestValidators, response };
    return {
      api,
      operationId,
      key,
      method: method.toUpperCase(),
      path,
      tag: operation.tags?.[0] ?? "",
      summary: operation.summary ?? "",
      parameters,
      requestBody: operation.requestBody,
      parts: [...(parameters.length > 0 ? (["params"] as const) : []), ...(operation.requestBody ? (["request"] as const) : []), "response"],
      requestExamples: Object.fromEntries(
        Object.entries(jsonMedia(bundles[api], operation.requestBody)?.examples ?? {}).map(([name, example]) => [
          name,
          resolveRef(bundles[api], example).value,
        ]),
      ),
      example: exampleRequest(bundles[api], entry),
      exampleResponse: (status = "200") => exampleResponse(bundles[api], entry, status),
      responseExamples: (status = "200") =>
        Object.assign(
          {},
          ...Object.values<{ examples?: Record<string, unknown> }>(resolveRef(bundles[api], operation.responses[status])?.content ?? {}).map(namedExamples),
        ),
      errorStatuses: Object.keys(operation.responses)
        .map(Number)
        .filter((status) => status >= 400),
      validators,
    };
  });
});

/** One operation by its operationId. */
export function operation(operationId: string): Operation {
  const found = operations.find((o) => o.operationId === operationId);
  if (!found) throw new Error(`no operation ${operationId} in the bundles`);
  return found;
}

/** The schema a part is checked against: the parameters as one closed object (as the SDK's validators build it), the request body, or the 200 body. */
export function partSchema({ api, parameters, requestBody, key }: Operation, part: VectorPart): object {
  if (part === "params") {
    return {
      type: "object",
      properties: Object.fromEntries(parameters.map((p) => [p.name, p.schema])),
      required: parameters.filter((p) => p.required).map((p) => p.name),
      additionalProperties: false,
    };
  }
  const entry = operationsOf(bundles[api]).find((candidate) => candidate.key === key)!;
  const schema = jsonMedia(bundles[api], part === "request" ? requestBody : entry.operation.responses["200"])?.schema;
  if (!schema) throw new Error(`${key} has no JSON ${part} schema`);
  return schema;
}
