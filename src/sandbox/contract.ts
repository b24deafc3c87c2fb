// The two bundles and their generated validators, as the sandbox reads them: one place that names the operations,
// their path templates and their validators, so the sandbox serves exactly what the specs declare.
import alertsBundle from "../../generated/openapi/alerts.json" with { type: "json" };
import managementBundle from "../../generated/openapi/management.json" with { type: "json" };
import type { operations as AlertsOperations } from "../../generated/types/alerts.js";
import type { operations as ManagementOperations } from "../../generated/types/management.js";
import { validators as alertsValidators } from "../../generated/validators/alerts.js";
import { responseValidators as alertsResponses } from "../../generated/validators/alerts-responses.js";
import { validators as managementValidators, type OperationValidators, type Validator } from "../../generated/validators/management.js";
import { responseValidators as managementResponses } from "../../generated/validators/management-responses.js";
import { alerts, type InterfaceDescriptor, management } from "../contract/interfaces.js";
// The one OpenAPI walker the sandbox, the build scripts and the tests share; esbuild bundles it into dist/cli.js.
import { declaredStatus, firstExample, jsonMedia, operationsOf, resolveRef } from "../contract/openapi.js";

/** An interface, as the sandbox serves it. */
export type Api = InterfaceDescriptor;

/** Every operation of the contract, by the id the generated types give it: a handler missing for one fails tsc. */
export type OperationId = keyof ManagementOperations | keyof AlertsOperations;

type ResponsesOf<Id extends OperationId> = (Id extends keyof ManagementOperations
  ? ManagementOperations[Id]
  : AlertsOperations[Id & keyof AlertsOperations])["responses"];
type Digit = "0" | "1" | "2" | "3" | "4" | "5" | "6" | "7" | "8" | "9";
/** A code as its number (`"503"` is 503), for each member of a union. */
type AsNumber<Code> = Code extends `${infer Value extends number}` ? Value : never;
/** The codes a declared status covers: itself, each code of its range (`5XX`: 500 to 599), any for `default`. */
type CodesOf<Status> = Status extends number
  ? Status
  : Status extends `${infer Class extends Digit}XX`
    ? AsNumber<`${Class}${Digit}${Digit}`>
    : Status extends "default"
      ? number
      : never;
/**
 * The codes an operation declares, as declaredStatusOf() reads them. Of several operations, the codes every one of
 * them declares (`keyof` a union of response maps is their common statuses).
 */
export type DeclaredCode<Id extends OperationId> = CodesOf<keyof ResponsesOf<Id>>;

/** A bundle as far as the sandbox reads it. */
export interface Bundle {
  paths: Record<string, Record<string, unknown>>;
  components: {
    examples?: Record<string, { value: unknown }>;
    parameters?: Record<string, { example?: unknown; examples?: Record<string, { value: unknown }> }>;
    responses?: Record<string, unknown>;
    schemas?: Record<string, { oneOf?: { $ref: string }[]; properties?: Record<string, { $ref?: string }> }>;
  };
}

/** An operation as the shared walker reads it, as far as the sandbox uses it. */
interface WalkedOperation {
  key: string;
  path: string;
  method: string;
  operationId: OperationId;
  parameters: { in: string; name: string }[];
}

const bundleOf = (api: Api): Bundle => (api === management ? managementBundle : alertsBundle) as Bundle;

/** One operation of the contract: where it is and what checks its parts. */
export interface Operation {
  api: Api;
  operationId: OperationId;
  method: string;
  template: string;
  /** Matches a request path; its groups are the path parameters, in `names` order. */
  pattern: RegExp;
  names: string[];
  /** Query parameters the operation declares; others are ignored, as Prism ignores them. */
  queryNames: string[];
  /** The request validators, and the 200 answer's. */
  validators: OperationValidators & { response: Validator };
  /** A validator of each declared status's JSON body, by status. */
  answers: Record<string, Validator>;
}

const generated = new Map<Api, [Record<string, OperationValidators>, Record<string, Record<string, Validator>>]>([
  [management, [managementValidators, managementResponses]],
  [alerts, [alertsValidators, alertsResponses]],
]);

function operationsIn(api: Api): Operation[] {
  const [requests, responses] = generated.get(api) ?? [{}, {}];
  return operationsOf(bundleOf(api)).map(({ key, path: template, method, operationId, parameters }: WalkedOperation) => {
    const validators = requests[key];
    const answers = responses[key];
    const response = answers?.["200"];
    if (!validators || !answers || !response) throw new Error(`sandbox: no generated validators for ${key}`);
    return {
      api,
      operationId,
      method: method.toUpperCase(),
      template,
      pattern: new RegExp(`^${template.replace(/\{\w+\}/g, "([^/]+)")}$`),
      names: [...template.matchAll(/\{(\w+)\}/g)].map((match) => match[1] as string),
      queryNames: parameters.filter((parameter) => parameter.in === "query").map((parameter) => parameter.name),
      validators: { ...validators, response },
      answers,
    };
  });
}

export const apis: Api[] = [management, alerts];
export const operations: Operation[] = apis.flatMap(operationsIn);

/** The operation with an id; every id of `OperationId` has one. */
export function operationNamed(operationId: OperationId): Operation {
  const operation = operations.find((candidate) => candidate.operationId === operationId);
  if (!operation) throw new Error(`sandbox: no operation ${operationId} in the bundles`);
  return operation;
}

interface DeclaredResponse {
  content?: Record<string, { examples?: Record<string, unknown> }>;
  headers?: Record<string, unknown>;
}

/** The responses an operation declares, by status, references resolved. */
function declaredResponses({ api, template, method }: Operation): Record<string, DeclaredResponse> {
  const bundle = bundleOf(api);
  const declared = bundle.paths[template]?.[method.toLowerCase()] as { responses: Record<string, unknown> };
  return Object.fromEntries(Object.entries(declared.responses).map(([status, response]) => [status, resolveRef(bundle, response)]));
}

function declaredResponse(operation: Operation, status: string): DeclaredResponse | undefined {
  return declaredResponses(operation)[status];
}

/** The statuses an operation declares, in the spec's order (a range such as `5XX` as it is written). */
export function declaredStatuses(operation: Operation): string[] {
  return Object.keys(declaredResponses(operation));
}

/** The declared status that covers a code: the code itself, else its range (`503` under `5XX`), else `default`. */
export function declaredStatusOf(operation: Operation, code: number): string | undefined {
  return declaredStatus(declaredResponses(operation), code);
}

// The words a gateway's plain-text answer of a range carries: its reason phrase, so a 503 does not say Bad Gateway.
const reasons: Record<number, string> = { 500: "Internal Server Error", 502: "Bad Gateway", 503: "Service Unavailable", 504: "Gateway Timeout" };

/** A declared answer, ready to send: its status, its named example as the body, the examples of its headers. */
export interface DeclaredAnswer {
  status: number;
  body: unknown;
  headers: Record<string, string>;
  /** The examples this status has, by name, for a caller that named one that is not there. */
  exampleNames: string[];
}

/**
 * The answer an operation declares for `status` (a code, or a range such as `5XX` answered as `answerStatus`), with
 * the example named `exampleName` (else its first), in its first media type: a JSON body as a value, any other as
 * text with its content type. Undefined when the status is not declared or the example is not there.
 */
export function declaredAnswer(operation: Operation, status: string, exampleName?: string, answerStatus = Number(status)): DeclaredAnswer | undefined {
  const response = declaredResponse(operation, status);
  if (!response) return undefined;
  const bundle = bundleOf(operation.api);
  const [mediaType, media] = Object.entries(response.content ?? {})[0] ?? [];
  const examples = Object.fromEntries(
    Object.entries(media?.examples ?? {}).map(([name, example]) => [name, resolveRef(bundle, example) as { value: unknown }]),
  );
  const example = exampleName === undefined ? Object.values(examples)[0] : examples[exampleName];
  if (exampleName !== undefined && !example) return undefined;
  const headers: Record<string, string> = {};
  for (const [name, header] of Object.entries(response.headers ?? {})) {
    const { example: value, schema } = resolveRef(bundle, header) as { example?: unknown; schema?: { example?: unknown } };
    const shown = value ?? schema?.example;
    if (shown !== undefined) headers[name.toLowerCase()] = String(shown);
  }
  const json = mediaType === "application/json";
  if (mediaType && !json) headers["content-type"] = `${mediaType}; charset=utf-8`;
  const ranged = /^\dXX$/.test(status) && mediaType === "text/plain" && exampleName === undefined;
  const body = ranged ? (reasons[answerStatus] ?? "Server Error") : example === undefined ? undefined : structuredClone(example.value);
  return { status: answerStatus, body: json || body === undefined ? body : String(body), headers, exampleNames: Object.keys(examples) };
}

/** The values of every named example of an operation's 200 answer, in the order the spec lists them. */
export function successExamples(operationId: OperationId): unknown[] {
  const operation = operationNamed(operationId);
  const bundle = bundleOf(operation.api);
  const examples: Record<string, unknown> = jsonMedia(bundle, declaredResponse(operation, "200"))?.examples ?? {};
  return Object.values(examples).map((example) => structuredClone(resolveRef(bundle, example).value));
}

/** The server's words in an interface's declared 401 example (`Authentication failed`, `Unauthorized`). */
export function unauthorizedMessage(api: Api): string {
  const operation = operations.find((candidate) => candidate.api === api) as Operation;
  const example = firstExample(bundleOf(api), jsonMedia(bundleOf(api), declaredResponse(operation, "401"))) as Record<string, string>;
  return example[api.errorKey] as string;
}

/** The management bundle's named values the sandbox starts from (the organization and filter examples). */
export const managementComponents = bundleOf(management).components;

/** The endpoint request's fields that belong to one type: another type's branch allows them only as null. */
export function typeDependentEndpointFields(): string[] {
  const bundle = bundleOf(management);
  const branches = (bundle.components.schemas?.ReversePrivateEndpointRequest?.oneOf ?? []).map((branch) => resolveRef(bundle, branch));
  const fields = branches.flatMap((branch) =>
    Object.entries<{ $ref?: string }>(branch?.properties ?? {})
      .filter(([, property]) => property.$ref?.endsWith("/NotForThisType"))
      .map(([name]) => name),
  );
  return [...new Set(fields)];
}
