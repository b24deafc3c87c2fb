// What `ingestion-api verify` knows of the contract: both bundles (operations, examples, declared answers, links),
// the generated validators of answers and of their headers, and the shared vectors, read from the package's own
// contract/vectors/ so a check states exactly what the vectors state.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import alertsBundle from "../../generated/openapi/alerts.json" with { type: "json" };
import managementBundle from "../../generated/openapi/management.json" with { type: "json" };
import { validators as alertsRequests } from "../../generated/validators/alerts.js";
import { headerValidators as alertsHeaders } from "../../generated/validators/alerts-headers.js";
import { responseValidators as alertsResponses } from "../../generated/validators/alerts-responses.js";
import { validators as managementRequests, type OperationValidators, type Validator } from "../../generated/validators/management.js";
import { headerValidators as managementHeaders } from "../../generated/validators/management-headers.js";
import { responseValidators as managementResponses } from "../../generated/validators/management-responses.js";
import { alerts, type InterfaceDescriptor, management } from "../contract/interfaces.js";
import { declaredStatus, exampleRequest, operationsOf, resolveRef } from "../contract/openapi.js";
import { packageRoot } from "../contract/package-root.js";

export type Api = InterfaceDescriptor;

/** One vector as contract/vectors/ states it (CONTRACT.md, "Test vectors"). */
export interface Vector {
  operation: string;
  part: "params" | "request" | "response";
  name: string;
  verdict: "valid" | "invalid";
  rule: string;
  http: { method: string; path: string; query?: string; headers?: Record<string, string>; body?: unknown } | false;
}

/** A declared answer: its media types by name (each with its schema), and its headers. */
interface DeclaredAnswer {
  content?: Record<string, { schema?: unknown; examples?: Record<string, unknown> }>;
  headers?: Record<string, unknown>;
  links?: Record<string, Link>;
}

/** An OpenAPI link: the operation it leads to and where each of its parameters comes from. */
export interface Link {
  operationId: string;
  parameters?: Record<string, string>;
  description?: string;
}

export interface Operation {
  api: Api;
  operationId: string;
  /** `GET /v1/organizations/{organizationId}/services`, the generated validators' key. */
  key: string;
  method: string;
  template: string;
  /** Each parameter; `list` when its schema is an array (a query parameter given once or more). */
  parameters: { name: string; in: string; required?: boolean; list: boolean }[];
  /** A request made of the operation's first examples. */
  example: { path: Record<string, string>; query: Record<string, unknown>; body: unknown; url: string };
  /** Every named example of the request body, by name. */
  requestExamples: Record<string, unknown>;
  /** The generated validators of its parameters (as one object) and of its JSON request body. */
  request: OperationValidators | undefined;
  /** The media types its request body may have; none when it takes no body. */
  requestMediaTypes: string[];
  /** Whether it changes anything: a POST or a PUT. */
  writes: boolean;
  /** The declared answer of a status (exactly, by its range `4XX`, or `default`), with the key it is declared under. */
  answer(status: number): { declaredAs: string; declared: DeclaredAnswer } | undefined;
  /** The generated validator of the JSON body of an answer declared under `declaredAs`. */
  bodyValidator(declaredAs: string): Validator | undefined;
  /** The generated validator of the headers of an answer declared under `declaredAs`, each read as its type first. */
  headersValidator(declaredAs: string): Validator | undefined;
  /** The JSON Schema types of each header an answer declared under `declaredAs` declares, by lower-case name. */
  headerTypes(declaredAs: string): Map<string, string[]>;
}

const bundles = new Map<Api, unknown>([
  [management, managementBundle],
  [alerts, alertsBundle],
]);
type ByStatus = Record<string, Record<string, Validator>>;
const validators = new Map<Api, [ByStatus, ByStatus, Record<string, OperationValidators>]>([
  [management, [managementResponses, managementHeaders, managementRequests]],
  [alerts, [alertsResponses, alertsHeaders, alertsRequests]],
]);

interface WalkedOperation {
  key: string;
  path: string;
  method: string;
  operationId: string;
  parameters: { name: string; in: string; required?: boolean; schema?: unknown }[];
  operation: { responses: Record<string, unknown>; requestBody?: unknown };
}

/** Every operation of an interface, in the bundle's order. */
export function operationsOfApi(api: Api): Operation[] {
  const bundle = bundles.get(api);
  const [bodies, headers, requests]: [ByStatus, ByStatus, Record<string, OperationValidators>] = validators.get(api) ?? [{}, {}, {}];
  return operationsOf(bundle).map((entry: WalkedOperation) => {
    const { key, path, method, operationId, parameters, operation } = entry;
    const requestContent = resolveRef(bundle, operation.requestBody)?.content ?? {};
    const media = requestContent["application/json"];
    return {
      api,
      operationId,
      key,
      method: method.toUpperCase(),
      template: path,
      parameters: parameters.map(({ name, in: location, required, schema }) => ({
        name,
        in: location,
        required: required === true,
        list: (resolveRef(bundle, schema) as { type?: unknown } | undefined)?.type === "array",
      })),
      request: requests[key],
      requestMediaTypes: Object.keys(requestContent),
      example: exampleRequest(bundle, entry),
      requestExamples: Object.fromEntries(
        Object.entries<unknown>(media?.examples ?? {}).map(([name, example]) => [name, (resolveRef(bundle, example) as { value: unknown }).value]),
      ),
      writes: method === "post" || method === "put",
      answer(status) {
        const name = declaredStatus(operation.responses, status);
        return name === undefined ? undefined : { declaredAs: name, declared: resolveRef(bundle, operation.responses[name]) as DeclaredAnswer };
      },
      bodyValidator: (name) => bodies[key]?.[name],
      headersValidator: (name) => headers[key]?.[name],
      headerTypes(name) {
        const declared = resolveRef(bundle, operation.responses[name]) as DeclaredAnswer | undefined;
        return new Map(
          Object.entries(declared?.headers ?? {}).map(([header, declaration]) => {
            const schema = resolveRef(bundle, (resolveRef(bundle, declaration) as { schema?: unknown }).schema) as { type?: string | string[] } | undefined;
            return [header.toLowerCase(), [schema?.type ?? []].flat()];
          }),
        );
      },
    };
  });
}

/** The vectors of an interface, in file and list order. */
export function vectorsOf(api: Api): Vector[] {
  const dir = join(packageRoot("ingestion-api verify"), "contract", "vectors", api.name);
  return readdirSync(dir)
    .filter((file) => file.endsWith(".json"))
    .sort()
    .flatMap((file) => JSON.parse(readFileSync(join(dir, file), "utf8")) as Vector[]);
}
