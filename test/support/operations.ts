// The operations of both bundles, read from the bundles, for every suite that goes over operations: an
// operation added to a spec is in each of those suites without touching them.

import { validators as alertsValidators } from "../../generated/validators/alerts.js";
import { responseValidators as alertsResponses } from "../../generated/validators/alerts-responses.js";
import type { OperationValidators, Validator } from "../../generated/validators/management.js";
import { validators as managementValidators } from "../../generated/validators/management.js";
import { responseValidators as managementResponses } from "../../generated/validators/management-responses.js";
import { declaredStatus as declaredKey, exampleRequest, exampleResponse, jsonMedia, operationsOf, resolveRef } from "../../src/contract/openapi.js";
import { type Api, apis, bundles } from "./bundles.js";

/** What a test vector checks: the parameters as one object, the request body, or the body of an answer. */
export type VectorPart = "params" | "request" | "response";

/** Which answer a response vector is the body of: 200 JSON unless it says otherwise (a gateway's 502 text). */
export interface Answer {
  status: number;
  mediaType: string;
}

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
  /** The generated validators of every declared answer with a JSON body, by declared status (`200`, `5XX`). */
  responseValidators: Record<string, Validator>;
  /** The status the operation declares an answer of `status` under: the status itself, or its range (`5XX`). */
  declaredStatus(status: number): string;
}

const generatedValidators: Record<Api, Record<string, OperationValidators>> = { management: managementValidators, alerts: alertsValidators };
const generatedResponses: Record<Api, Record<string, Record<string, Validator>>> = { management: managementResponses, alerts: alertsResponses };

export const operations: Operation[] = apis.flatMap((api) => {
  const namedExamples = (media: { examples?: Record<string, unknown> } | undefined) =>
    Object.fromEntries(Object.entries(media?.examples ?? {}).map(([name, example]) => [name, resolveRef(bundles[api], example).value]));
  return operationsOf(bundles[api]).map((entry): Operation => {
    const { key, path, method, operation, operationId, parameters } = entry;
    const requestValidators = generatedValidators[api][key];
    const responseValidators = generatedResponses[api][key];
    const response = responseValidators?.["200"];
    if (!requestValidators || !responseValidators || !response) throw new Error(`no generated validators for ${key}: run npm run generate`);
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
      responseValidators,
      declaredStatus: (status) => declaredStatus(operation.responses, status),
    };
  });
});

function declaredStatus(responses: Record<string, unknown>, status: number): string {
  // A status nothing declares names itself, so a lookup by it finds nothing.
  return declaredKey(responses, status) ?? String(status);
}

/** One operation by its operationId. */
export function operation(operationId: string): Operation {
  const found = operations.find((o) => o.operationId === operationId);
  if (!found) throw new Error(`no operation ${operationId} in the bundles`);
  return found;
}

/**
 * The schema a part is checked against: the parameters as one closed object (as the SDK's validators build it),
 * the request body, or the body of an answer (200 JSON unless `answer` says otherwise).
 */
export function partSchema(
  { api, parameters, requestBody, key }: Operation,
  part: VectorPart,
  answer: Answer = { status: 200, mediaType: "application/json" },
): object {
  if (part === "params") {
    return {
      type: "object",
      properties: Object.fromEntries(parameters.map((p) => [p.name, p.schema])),
      required: parameters.filter((p) => p.required).map((p) => p.name),
      additionalProperties: false,
    };
  }
  if (part === "request") {
    const schema = jsonMedia(bundles[api], requestBody)?.schema;
    if (!schema) throw new Error(`${key} has no JSON request schema`);
    return schema;
  }
  const { responses } = operationsOf(bundles[api]).find((candidate) => candidate.key === key)!.operation;
  const declared = resolveRef(bundles[api], responses[declaredStatus(responses, answer.status)]);
  const schema = declared?.content?.[answer.mediaType]?.schema;
  if (!schema) throw new Error(`${key} declares no ${answer.status} ${answer.mediaType} answer`);
  return schema;
}
