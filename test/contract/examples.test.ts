// Every named example in both bundles is valid against its own schema, and every operation has them.
import { describe, expect, it } from "vitest";
import { exampleRequest, firstExample, jsonMedia, namedExamples, operationsOf, resolveRef } from "../../src/contract/openapi.js";
import { type Api, apis, bundles, validateAgainst } from "../support/bundles.js";

interface ExampleCase {
  where: string;
  schema: object;
  value: unknown;
}
type Node = Record<string, any>;

/** Each named example of each media type of a request body or response. */
function mediaExamples(api: Api, where: string, content: Record<string, Node> | undefined): ExampleCase[] {
  return Object.entries(content ?? {}).flatMap(([mediaType, media]) =>
    Object.entries<Node>(media.examples ?? {}).map(([name, example]) => ({
      where: `${where} ${mediaType} example "${name}"`,
      schema: media.schema,
      value: resolveRef(bundles[api], example).value,
    })),
  );
}

function examplesOf(api: Api): ExampleCase[] {
  const bundle = bundles[api];
  return operationsOf(bundle).flatMap(({ method, operation, operationId, parameters }) => {
    const at = `${api} ${operationId}`;
    return [
      ...parameters
        .filter((p: Node) => firstExample(bundle, p) !== undefined)
        .map((p: Node) => ({ where: `${at} parameter ${p.name} example`, schema: p.schema, value: firstExample(bundle, p) })),
      ...mediaExamples(api, `${at} ${method} request body`, resolveRef(bundle, operation.requestBody)?.content),
      ...Object.entries<Node>(operation.responses).flatMap(([status, response]) => {
        const resolved = resolveRef(bundle, response);
        const headerExamples = Object.entries<Node>(resolved.headers ?? {}).map(([name, header]) => {
          const h = resolveRef(bundle, header);
          return { where: `${at} ${status} header ${name} example`, schema: h.schema, value: h.example };
        });
        return [...mediaExamples(api, `${at} ${status} response`, resolved.content), ...headerExamples];
      }),
    ];
  });
}

describe.each(apis)("%s examples", (api) => {
  it.each(examplesOf(api).map((c) => [c.where, c] as const))("%s matches its schema", (_where, { schema, value }) => {
    const { valid, errors } = validateAgainst(api, schema, value);
    expect(errors, `value: ${JSON.stringify(value)}`).toBe("No errors");
    expect(valid).toBe(true);
  });

  it.each(operationsOf(bundles[api]).map((entry) => [entry.operationId, entry] as const))(
    "%s has a summary, a description, a tag, and named examples for its request body and every response",
    (_id, { operation }) => {
      expect(operation.summary).toBeTruthy();
      expect(operation.description).toBeTruthy();
      expect(operation.tags?.length).toBeGreaterThan(0);
      const body = jsonMedia(bundles[api], operation.requestBody);
      if (operation.requestBody) expect(Object.keys(body?.examples ?? {}).length).toBeGreaterThan(0);
      for (const [status, response] of Object.entries<Node>(operation.responses)) {
        for (const [mediaType, media] of Object.entries<Node>(resolveRef(bundles[api], response).content ?? {})) {
          expect(Object.keys(media.examples ?? {}), `${status} ${mediaType}`).not.toHaveLength(0);
        }
      }
    },
  );
});

it("a broken example is caught (the check can fail)", () => {
  const settings = bundles.management.components.schemas.PipeSettings;
  expect(validateAgainst("management", settings, { engine_max_threads: 65 }).valid).toBe(false);
});

describe("namedExamples", () => {
  const entryOf = (api: Api, operationId: string) => operationsOf(bundles[api]).find((entry) => entry.operationId === operationId)!;

  it.each(
    apis.flatMap((api) =>
      operationsOf(bundles[api])
        .filter(({ operation }) => operation.requestBody)
        .map((entry) => [entry.operationId, api, entry] as const),
    ),
  )("%s: lists its request body's named examples in document order, each as the example request with that body", (_id, api, entry) => {
    const media = jsonMedia(bundles[api], entry.operation.requestBody);
    const named = namedExamples(bundles[api], entry);
    expect(named.map(({ key }) => key)).toEqual(Object.keys(media.examples));
    for (const { key, summary, request } of named) {
      const example = resolveRef(bundles[api], media.examples[key]);
      expect(summary).toBe(example.summary);
      expect(request).toEqual({ ...exampleRequest(bundles[api], entry), body: example.value });
    }
  });

  it("lists listServices' filter examples, each as the request that sends that filter", () => {
    const named = namedExamples(bundles.management, entryOf("management", "listServices"));
    expect(named.map(({ key, request }) => [key, request.query, request.url.slice(request.url.indexOf("?"))])).toEqual([
      ["tagValue", { filter: ["tag:Environment=Production"] }, "?filter=tag%3AEnvironment%3DProduction"],
      ["tagPresent", { filter: ["tag:isActive"] }, "?filter=tag%3AisActive"],
    ]);
    expect(named[1]!.summary).toBe("Services that carry the tag isActive, whatever its value");
  });

  it.each([
    ["management", "getPipe"],
    ["management", "getPipeSettings"],
    ["alerts", "getAlert"],
  ] as const)("%s %s: names none, so lists none", (api, operationId) => {
    expect(namedExamples(bundles[api], entryOf(api, operationId))).toEqual([]);
  });

  it("labels an example without a summary with its key", () => {
    const bundle = structuredClone(bundles.alerts);
    const entry = operationsOf(bundle).find((candidate) => candidate.operationId === "createAlert")!;
    const [firstKey, first] = Object.entries<Node>(jsonMedia(bundle, entry.operation.requestBody).examples)[0]!;
    delete resolveRef(bundle, first).summary;
    expect(namedExamples(bundle, entry)[0]!.summary).toBe(firstKey);
  });
});
