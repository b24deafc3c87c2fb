// The build-time validators (generated/validators/, Ajv standalone code bundled by esbuild): one entry per
// operation of the bundles, self-contained, and reporting each broken rule where it is (instancePath) and what
// it is (keyword), which the SDK turns into words. Which values they accept is the vectors' job
// (test/contract/vectors.test.ts); here, the shape of what they report.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { validators as alertsValidators } from "../../generated/validators/alerts.js";
import { responseValidators as alertsResponses } from "../../generated/validators/alerts-responses.js";
import type { OperationValidators, Validator } from "../../generated/validators/management.js";
import { validators as managementValidators } from "../../generated/validators/management.js";
import { responseValidators as managementResponses } from "../../generated/validators/management-responses.js";
import { apis, bundles, resolve } from "../support/bundles.js";
import { operation, operations } from "../support/operations.js";

/** The errors `validate` reports for `data`; [] when it accepts the data. */
function errorsOf(validate: Validator | undefined, data: unknown) {
  if (!validate) throw new Error("no such validator");
  const valid = validate(data);
  expect(valid ? null : validate.errors?.length).not.toBe(0); // a rejection always comes with a reason
  return valid ? [] : (validate.errors ?? []);
}

describe("the validators maps", () => {
  it("have one request entry per operation of the bundles, keyed by method and path template, with params and body where the operation has them", () => {
    const parts = (map: Record<string, OperationValidators>) =>
      Object.entries(map).map(([key, { operationId, ...found }]) => [key, operationId, Object.keys(found).sort()]);
    const expected = operations.map((o) => [
      o.key,
      o.operationId,
      [...(o.parts.includes("params") ? ["params"] : []), ...(o.parts.includes("request") ? ["body"] : [])].sort(),
    ]);
    expect([...parts(managementValidators), ...parts(alertsValidators)].sort()).toEqual(expected.sort());
  });

  it("and, by the same keys in modules of their own, a validator per declared status with a JSON body", () => {
    expect([...Object.keys(managementResponses), ...Object.keys(alertsResponses)].sort()).toEqual(operations.map((o) => o.key).sort());
    for (const o of operations) {
      const byStatus: Record<string, Validator> = (o.api === "management" ? managementResponses : alertsResponses)[o.key as never];
      const withJson = Object.entries(bundles[o.api].paths[o.path][o.method.toLowerCase()].responses)
        .filter(([, response]) => resolve(o.api, response).content?.["application/json"])
        .map(([status]) => status);
      expect(Object.keys(byStatus).sort()).toEqual(withJson.sort());
      for (const validate of Object.values(byStatus)) expect(validate).toBeTypeOf("function");
    }
  });

  it.each(apis.flatMap((api) => [api, `${api}-responses`]))("%s.js is self-contained: no import, no require call, no node: module", (module) => {
    const code = readFileSync(new URL(`../../generated/validators/${module}.js`, import.meta.url), "utf8");
    expect(code).not.toMatch(/^\s*import[\s{*"']|\bimport\(|["'`]node:|(?<![\w$'"])require\(/m);
  });

  it.each(operations.map((o) => [o.operationId, o] as const))("%s accepts its request body examples and its 200 example", (_id, o) => {
    for (const body of Object.values(o.requestExamples)) expect(errorsOf(o.validators.body, body)).toEqual([]);
    expect(errorsOf(o.validators.response, o.exampleResponse())).toEqual([]);
  });
});

describe("a body discriminated by a tag reports the chosen branch's errors only", () => {
  const endpoints = operation("createReversePrivateEndpoint");
  const byType = Object.values(endpoints.requestExamples) as Record<string, unknown>[];

  it.each(byType.map((body) => [body.type, body] as const))("type %s without one of its own fields: one `required` error naming it", (_type, body) => {
    for (const field of Object.keys(body).filter((name) => name !== "type" && name !== "description")) {
      const { [field]: _left, ...rest } = body;
      expect(errorsOf(endpoints.validators.body, rest)).toEqual([
        expect.objectContaining({ instancePath: "", keyword: "required", params: { missingProperty: field } }),
      ]);
    }
  });

  it("a field of another branch is accepted as null and refused otherwise, at its own path", () => {
    const [first, second] = byType as [Record<string, unknown>, Record<string, unknown>];
    const foreign = Object.keys(second).find((name) => !(name in first))!;
    expect(errorsOf(endpoints.validators.body, { ...first, [foreign]: null })).toEqual([]);
    expect(errorsOf(endpoints.validators.body, { ...first, [foreign]: "x" })).toEqual([
      expect.objectContaining({ instancePath: `/${foreign}`, keyword: "type" }),
    ]);
  });

  it("an unknown or missing tag is one `discriminator` error", () => {
    expect(errorsOf(endpoints.validators.body, { ...byType[0], type: "VPC_PEERING" })).toEqual([
      expect.objectContaining({ keyword: "discriminator", params: { error: "mapping", tag: "type", tagValue: "VPC_PEERING" } }),
    ]);
    expect(errorsOf(endpoints.validators.body, {})).toEqual([expect.objectContaining({ keyword: "discriminator", params: { error: "tag", tag: "type" } })]);
  });
});

describe("every broken rule at once", () => {
  it("reports each field of a body that breaks several rules, at its own path", () => {
    const settings = operation("updatePipeSettings");
    const errors = errorsOf(settings.validators.body, { engine_max_threads: 65, engine_max_insert_threads: -1, unknown: 1 });
    expect(errors.map((e) => `${e.instancePath} ${e.keyword}`).sort()).toEqual([
      " additionalProperties",
      "/engine_max_insert_threads minimum",
      "/engine_max_threads maximum",
    ]);
  });

  it("reports the element of a list parameter that breaks its pattern", () => {
    const services = operation("listServices");
    expect(errorsOf(services.validators.params, { ...services.example.path, filter: ["tag:isActive", "name=events"] })).toEqual([
      expect.objectContaining({ instancePath: "/filter/1", keyword: "pattern" }),
    ]);
  });
});
