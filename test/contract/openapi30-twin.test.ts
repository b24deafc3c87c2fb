// The OpenAPI 3.0.3 twins (generated/openapi/<api>.openapi-3.0.*) and the dereferenced bundles say what the 3.1
// bundles say. Every shared vector keeps its verdict under the twin with two readings of 3.0's schema dialect:
// kin-openapi's (Go; `nullable` on the outer schema answers a null) and Ajv's (`nullable` beside `type`, every
// anyOf branch checked), and under the dereferenced bundle with Ajv 2020. kin-openapi's doc.Validate passes over
// each twin and Redocly lints both variants clean. Without Go the kin-openapi part is skipped locally, saying
// why; with CI=true that is a failure.
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Ajv } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { describe, expect, it } from "vitest";
import { dereferenced } from "../../scripts/lib/dereference.mjs";
import { toOpenApi30 } from "../../scripts/lib/openapi30.mjs";
import { root, runTool } from "../../scripts/lib/toolchain.mjs";
import { type Api, apis, bundles } from "../support/bundles.js";
import { goWithKinOpenapi, kinOpenapiEnv, skipOrFailInCi } from "../support/system-tools.js";

const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;
const generated = join(root, "generated", "openapi");
const read = (file: string) => JSON.parse(readFileSync(join(generated, file), "utf8"));
const twins = Object.fromEntries(apis.map((api) => [api, read(`${api}.openapi-3.0.json`)])) as Record<Api, any>;
const flat = Object.fromEntries(apis.map((api) => [api, read(`${api}.dereferenced.json`)])) as Record<Api, any>;

interface Vector {
  operation: string;
  part: "params" | "request" | "response";
  status?: number;
  mediaType?: string;
  name: string;
  value: unknown;
  verdict: "valid" | "invalid";
}
const vectors = (api: Api): Vector[] =>
  readdirSync(join(root, "contract", "vectors", api))
    .sort()
    .flatMap((file) => JSON.parse(readFileSync(join(root, "contract", "vectors", api, file), "utf8")) as Vector[]);

/** Follows local references inside `document`. */
const follow = (document: any, node: any): any => {
  while (node && typeof node.$ref === "string")
    node = node.$ref
      .slice(2)
      .split("/")
      .reduce((at: any, part: string) => at[part], document);
  return node;
};

/** The schema a vector is judged by, as contract/check_vectors.py builds it; undefined if the variant declares none. */
function schemaOf(document: any, { operation: operationId, part, status = 200, mediaType = "application/json" }: Vector): object | undefined {
  for (const item of Object.values<any>(document.paths)) {
    for (const operation of Object.values<any>(item)) {
      if (operation?.operationId !== operationId) continue;
      if (part === "params") {
        const parameters = [...(item.parameters ?? []), ...(operation.parameters ?? [])].map((parameter) => follow(document, parameter));
        return {
          type: "object",
          properties: Object.fromEntries(parameters.map((parameter) => [parameter.name, parameter.schema])),
          required: parameters.filter((parameter) => parameter.required).map((parameter) => parameter.name),
          additionalProperties: false,
        };
      }
      if (part === "request") return follow(document, operation.requestBody).content["application/json"].schema;
      const declared = operation.responses[String(status)] ?? operation.responses[`${String(status)[0]}XX`];
      return follow(document, declared).content[mediaType]?.schema;
    }
  }
  throw new Error(`no operation ${operationId}`);
}

/** The verdicts a validator factory reaches over `document` for every vector of `api` whose verdict it misses. */
function missed(api: Api, document: any, compile: (schema: object) => (value: unknown) => boolean): string[] {
  const cache = new Map<object, (value: unknown) => boolean>();
  return vectors(api).flatMap((vector) => {
    const schema = schemaOf(document, vector);
    // Every vector has a schema, text answers too (a string): one without is a miss, never a vector left unchecked.
    if (!schema) return [`${vector.operation} ${vector.part} "${vector.name}": no schema in this variant`];
    let validate = cache.get(schema);
    if (!validate) {
      validate = compile({ ...schema, components: document.components });
      cache.set(schema, validate);
    }
    const reached = validate(vector.value) ? "valid" : "invalid";
    return reached === vector.verdict ? [] : [`${vector.operation} ${vector.part} "${vector.name}": expected ${vector.verdict}, got ${reached}`];
  });
}

// OpenAPI 3.0's schema dialect as Ajv reads it (draft-07 plus `nullable`); OpenAPI's own keywords are ignored.
const ajv30 = new Ajv({ strict: false, allErrors: false });
addFormats(ajv30);
const ajv2020 = new Ajv2020({ strict: false, allErrors: false });
addFormats(ajv2020);

describe.each(apis)("the %s twin", (api) => {
  it("is generated from the 3.1 bundle: nothing 3.1-only left, and nothing of 3.1 in it", () => {
    expect(twins[api]).toEqual(toOpenApi30(bundles[api]));
    expect(twins[api].openapi).toBe("3.0.3");
    const text = JSON.stringify(twins[api]);
    expect(text).not.toMatch(/"type":\[/);
    expect(text).not.toContain('"const":');
    expect(text).not.toContain('"type":"null"');
  });

  it("keeps every vector's verdict under Ajv's reading of the 3.0 dialect", () => {
    expect(missed(api, twins[api], (schema) => ajv30.compile(schema))).toEqual([]);
  });

  it("the dereferenced bundle has no $ref and keeps every vector's verdict", () => {
    expect(flat[api]).toEqual(dereferenced(bundles[api]));
    expect(JSON.stringify(flat[api])).not.toContain('"$ref"');
    expect(missed(api, flat[api], (schema) => ajv2020.compile(schema))).toEqual([]);
  });

  it.each(["openapi-3.0", "dereferenced"])("Redocly lints the %s variant: the twin with no problem at all, the copy with no error", (variant) => {
    const { stdout } = runTool("redocly", ["lint", join(generated, `${api}.${variant}.json`), "--format=json"], { capture: true });
    const problems = (JSON.parse(stdout).problems as { severity: string; ruleId: string; message: string }[]).map(
      ({ severity, ruleId, message }) => `${severity} ${ruleId}: ${message}`,
    );
    if (variant === "openapi-3.0") expect(problems).toEqual([]);
    // The dereferenced copy keeps its components for readers who look a schema up by name, unreferenced now, and
    // its discriminators over branches that are inline now: warnings by construction, nothing else.
    else expect(problems.filter((problem) => !/^warn (no-unused-components|no-illogical-composition-keywords):/.test(problem))).toEqual([]);
  });
});

describe("the conversion", () => {
  const convert = (schema: object) =>
    toOpenApi30({ openapi: "3.1.0", info: { title: "t", version: "1" }, paths: {}, components: { schemas: { S: schema } } }).components.schemas.S;

  it("says nullable, enum and allOf where 3.1 says type arrays, const, null alternatives and $ref siblings", () => {
    expect(convert({ type: ["string", "null"], maxLength: 3 })).toEqual({ type: "string", maxLength: 3, nullable: true });
    expect(convert({ type: ["string", "null"], enum: ["a"] })).toEqual({ type: "string", enum: ["a"] });
    expect(convert({ type: "string", const: "x" })).toEqual({ type: "string", enum: ["x"] });
    expect(convert({ type: "null" })).toEqual({ type: "string", nullable: true, enum: [null] });
    expect(convert({ anyOf: [{ type: "integer" }, { type: "null" }] })).toEqual({
      anyOf: [{ type: "integer" }, { type: "integer", nullable: true, enum: [null] }],
      type: "integer",
      nullable: true,
    });
    expect(convert({ properties: { a: { $ref: "#/components/schemas/T", description: "d" } } }).properties.a).toEqual({
      allOf: [{ $ref: "#/components/schemas/T" }],
      description: "d",
    });
  });

  it("refuses what 3.0 cannot say, naming where", () => {
    expect(() => convert({ type: ["string", "integer"] })).toThrow('#/components/schemas/S has type ["string","integer"]');
    expect(() => convert({ properties: { a: { prefixItems: [] } } })).toThrow("#/components/schemas/S/properties/a uses prefixItems");
    expect(() => convert({ anyOf: [{ type: "string" }, { type: "integer" }, { type: "null" }] })).toThrow("share no type");
  });
});

const { go, missing: kinMissing } = goWithKinOpenapi("the kin-openapi check");
skipOrFailInCi(kinMissing);

it.skipIf(kinMissing !== undefined)("kin-openapi (Debian's) loads and validates each twin, and every vector keeps its verdict under its dialect", () => {
  const run = spawnSync(go as string, ["run", "-ldflags=-s -w", "main.go", generated, join(root, "contract", "vectors"), ...apis], {
    cwd: join(root, "test", "support", "kin-openapi"),
    env: { ...process.env, ...kinOpenapiEnv },
    encoding: "utf8",
    timeout: 120_000,
  });
  expect(run.stderr).toBe("");
  const report = JSON.parse(run.stdout);
  expect(report.problems).toEqual([]);
  expect(report.invalid).toEqual({});
  expect(report.wrong).toEqual([]);
  expect(report.vectors).toBe(apis.reduce((count, api) => count + vectors(api).length, 0));
});
