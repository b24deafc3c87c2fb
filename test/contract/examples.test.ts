// Every named example in both bundles is valid against its own schema, and every operation has them.
import { describe, expect, it } from "vitest";
import { type Api, bundles, resolve, validateAgainst } from "../support/bundles.js";

const methods = ["get", "put", "post", "delete", "patch"] as const;

interface ExampleCase {
  where: string;
  schema: object;
  value: unknown;
}

function operationsOf(api: Api) {
  return Object.entries(bundles[api].paths as Record<string, any>).flatMap(([path, item]) =>
    methods.filter((m) => item[m]).map((method) => ({ path, method, item, operation: item[method] })),
  );
}

function mediaExamples(api: Api, where: string, content: Record<string, any> | undefined): ExampleCase[] {
  return Object.entries(content ?? {}).flatMap(([mediaType, media]) =>
    Object.entries(media.examples ?? {}).map(([name, example]) => ({
      where: `${where} ${mediaType} example "${name}"`,
      schema: media.schema,
      value: resolve(api, example).value,
    })),
  );
}

function examplesOf(api: Api): ExampleCase[] {
  return operationsOf(api).flatMap(({ method, item, operation }) => {
    const at = `${api} ${operation.operationId}`;
    const parameters = [...(item.parameters ?? []), ...(operation.parameters ?? [])].map((p: any) => resolve(api, p));
    return [
      ...parameters.flatMap((p: any) => [
        ...(p.example !== undefined ? [{ where: `${at} parameter ${p.name} example`, schema: p.schema, value: p.example }] : []),
        ...Object.entries(p.examples ?? {}).map(([name, ex]) => ({
          where: `${at} parameter ${p.name} example "${name}"`,
          schema: p.schema,
          value: resolve(api, ex).value,
        })),
      ]),
      ...mediaExamples(api, `${at} ${method} request body`, resolve(api, operation.requestBody)?.content),
      ...Object.entries(operation.responses).flatMap(([status, response]) => {
        const resolved = resolve(api, response);
        const headerExamples = Object.entries(resolved.headers ?? {}).map(([name, header]) => {
          const h = resolve(api, header);
          return { where: `${at} ${status} header ${name} example`, schema: h.schema, value: h.example };
        });
        return [...mediaExamples(api, `${at} ${status} response`, resolved.content), ...headerExamples];
      }),
    ];
  });
}

describe.each(["management", "alerts"] as const)("%s examples", (api) => {
  const cases = examplesOf(api);

  it.each(cases.map((c) => [c.where, c]))("%s matches its schema", (_where, { schema, value }) => {
    const { valid, errors } = validateAgainst(api, schema, value);
    expect(errors, `value: ${JSON.stringify(value)}`).toBe("No errors");
    expect(valid).toBe(true);
  });

  it.each(operationsOf(api).map((o) => [o.operation.operationId, o]))(
    "%s has a summary, a description, a tag, and named examples for its request body and every response",
    (_id, { operation }) => {
      expect(operation.summary).toBeTruthy();
      expect(operation.description).toBeTruthy();
      expect(operation.tags?.length).toBeGreaterThan(0);
      const body = resolve(api, operation.requestBody);
      for (const media of Object.values(body?.content ?? {}) as any[]) {
        expect(Object.keys(media.examples ?? {}).length).toBeGreaterThan(0);
      }
      for (const [status, response] of Object.entries(operation.responses)) {
        const content = resolve(api, response).content ?? {};
        for (const [mediaType, media] of Object.entries(content) as [string, any][]) {
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
