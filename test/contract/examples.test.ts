// Every named example in both bundles is valid against its own schema, and every operation has them.
import { describe, expect, it } from "vitest";
import { firstExample, jsonMedia, operationsOf, resolveRef } from "../../src/contract/openapi.js";
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
