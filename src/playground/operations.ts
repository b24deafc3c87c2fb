// The operations the playground offers, read from the two bundles: what each takes (path and query parameters, a
// body), its named examples, the statuses it declares, and the one SDK method that sends it.
import alertsBundle from "../../generated/openapi/alerts.json" with { type: "json" };
import managementBundle from "../../generated/openapi/management.json" with { type: "json" };
import { validators as alertsValidators } from "../../generated/validators/alerts.js";
import { validators as managementValidators, type Validator } from "../../generated/validators/management.js";
import type { AlertsClient } from "../client/alerts-client.js";
import type { RequestOptions } from "../client/client-options.js";
import type { ManagementClient } from "../client/management-client.js";
import { exampleRequest, jsonMedia, namedExamples, operationsOf } from "../contract/openapi.js";
import { sdkCalls } from "../samples/sdk-calls.js";
import type { BodySchema, Schema } from "./body-editor.js";

export type ApiName = "management" | "alerts";

/** The request a reader edits: path and query parameters by name, and the body (undefined when none is taken). */
export interface EditedRequest {
  path: Record<string, string>;
  query: Record<string, string[] | string>;
  body: unknown;
}

export interface Clients {
  management: ManagementClient;
  alerts: AlertsClient;
}

/** Sends a request through the SDK's method for the operation. */
type Call = (clients: Clients, request: EditedRequest, options: RequestOptions) => Promise<unknown>;

/** The call of `operationId`: the SDK method the TypeScript samples write out, with the arguments they give it. */
function sdkCallOf(operationId: string): Call {
  const sdkCall = sdkCalls[operationId];
  if (!sdkCall) throw new Error(`the playground has no SDK call for ${operationId} (src/samples/sdk-calls.js)`);
  const names = sdkCall.method.split(".");
  const method = names.pop() as string;
  return (clients, request, options) => {
    const owner = names.reduce<Record<string, unknown>>((at, name) => at[name] as Record<string, unknown>, clients[sdkCall.client] as never);
    const send = owner[method] as (...args: unknown[]) => Promise<unknown>;
    return send.apply(owner, [...sdkCall.args(request), options]);
  };
}

export interface Parameter {
  name: string;
  in: "path" | "query";
  /** An array parameter (filter) takes one value per line. */
  multiple: boolean;
  description: string;
}

export interface Example {
  key: string;
  summary: string;
  request: EditedRequest;
  /** A named example of the bundle (its key is in the address), or the operation's only, unnamed one. */
  named: boolean;
}

export interface PlaygroundOperation {
  api: ApiName;
  operationId: string;
  method: string;
  path: string;
  summary: string;
  parameters: Parameter[];
  /** The operation's named examples; one unnamed ("example") when it has none. */
  examples: Example[];
  /** The JSON body it takes, if any: the SDK's validator of it, and its schema for the editor's completions. */
  bodyValidator: Validator | undefined;
  bodySchema: BodySchema | undefined;
  /** The failures it declares, in the bundle's order: each code, a range (`5XX`) as one code of it (503). */
  failures: { code: number; declared: string }[];
  call: Call;
  /** The bundle and its walker's entry, for the code samples. */
  bundle: typeof managementBundle | typeof alertsBundle;
  entry: ReturnType<typeof operationsOf>[number];
}

const bundles = { management: managementBundle, alerts: alertsBundle } as const;
const validators: Record<ApiName, Record<string, { body?: Validator }>> = { management: managementValidators, alerts: alertsValidators };

const editable = (request: ReturnType<typeof exampleRequest>): EditedRequest => ({
  path: request.path,
  query: request.query as EditedRequest["query"],
  body: request.body,
});

function operationOf(api: ApiName, entry: ReturnType<typeof operationsOf>[number]): PlaygroundOperation {
  const bundle = bundles[api];
  const named = namedExamples(bundle, entry);
  const examples = named.length
    ? named.map(({ key, summary, request }) => ({ key, summary, request: editable(request), named: true }))
    : [{ key: "example", summary: "The operation's example", request: editable(exampleRequest(bundle, entry)), named: false }];
  const bodyValidator = validators[api][entry.key]?.body;
  const media = jsonMedia(bundle, entry.operation.requestBody);
  return {
    api,
    operationId: entry.operationId,
    method: entry.method.toUpperCase(),
    path: entry.path,
    summary: entry.operation.summary ?? entry.operationId,
    parameters: entry.parameters
      .filter((parameter: { in: string }) => parameter.in === "path" || parameter.in === "query")
      .map((parameter: { name: string; in: "path" | "query"; schema?: { type?: string }; description?: string }) => ({
        name: parameter.name,
        in: parameter.in,
        multiple: parameter.schema?.type === "array",
        description: parameter.description ?? "",
      })),
    examples,
    bodyValidator,
    bodySchema: media ? { bundle, schema: media.schema as Schema } : undefined,
    failures: Object.keys(entry.operation.responses ?? {})
      .filter((status) => /^[13-5]/.test(status))
      .map((declared) => ({ code: Number(declared.replace("XX", "03")), declared })),
    call: sdkCallOf(entry.operationId),
    bundle,
    entry,
  };
}

/** Every operation of both interfaces, management's first, in the bundles' order. */
export const playgroundOperations: PlaygroundOperation[] = (Object.keys(bundles) as ApiName[]).flatMap((api) =>
  operationsOf(bundles[api]).map((entry) => operationOf(api, entry)),
);
