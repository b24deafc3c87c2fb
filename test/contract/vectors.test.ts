// The shared test vectors (contract/vectors/) get their verdicts from the bundles, with the same verdict on
// every vector in three independent JSON Schema implementations: Ajv, Hyperjump (an OpenAPI 3.1-aware
// validator by a JSON Schema specification author, reading the bundle itself) and, when a python3 has it,
// Python's jsonschema through contract/check_vectors.py.
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormatsModule, { type FormatName } from "ajv-formats";
import * as hyperjump from "@hyperjump/json-schema/openapi-3-1";
import "@hyperjump/json-schema/formats";
import { describe, expect, it } from "vitest";
import { type Api, bundles, resolve } from "../support/bundles.js";

interface Vector {
  operation: string;
  part: "params" | "request" | "response";
  name: string;
  value: unknown;
  verdict: "valid" | "invalid";
  rule: string;
}
interface Case {
  api: Api;
  vector: Vector;
  key: string;
}

const root = fileURLToPath(new URL("../..", import.meta.url));
const apis: Api[] = ["management", "alerts"];
const methods = ["get", "put", "post", "delete", "patch"];

const cases: Case[] = apis.flatMap((api) =>
  readdirSync(`${root}contract/vectors/${api}`)
    .sort()
    .flatMap((file) => JSON.parse(readFileSync(`${root}contract/vectors/${api}/${file}`, "utf8")) as Vector[])
    .map((vector) => ({ api, vector, key: `${api}/${vector.operation}/${vector.part}/${vector.name}` })),
);

function operation(api: Api, operationId: string): { pathItem: any; operation: any } {
  for (const pathItem of Object.values(bundles[api].paths) as any[]) {
    for (const method of methods) {
      if (pathItem[method]?.operationId === operationId) return { pathItem, operation: pathItem[method] };
    }
  }
  throw new Error(`no operation ${operationId} in ${api}`);
}

/** What a vector is checked against: the parameters as one object (as the SDK's validators build it), the request body, or the 200 body. */
function partSchema(api: Api, operationId: string, part: Vector["part"]): object {
  const { pathItem, operation: op } = operation(api, operationId);
  if (part === "params") {
    const parameters = [...(pathItem.parameters ?? []), ...(op.parameters ?? [])].map((p: any) => resolve(api, p));
    return {
      type: "object",
      properties: Object.fromEntries(parameters.map((p: any) => [p.name, p.schema])),
      required: parameters.filter((p: any) => p.required).map((p: any) => p.name),
      additionalProperties: false,
    };
  }
  const media = part === "request" ? resolve(api, op.requestBody) : resolve(api, op.responses["200"]);
  return media.content["application/json"].schema;
}

// ajv-formats is CommonJS; under NodeNext its default export arrives wrapped.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

/** Ajv (Draft 2020-12) asserting the given formats, or all of ajv-formats' formats. */
function verdictsWith(formats?: FormatName[]): (c: Case) => { verdict: Vector["verdict"]; errors: string } {
  // OpenAPI keywords (discriminator, example) are not JSON Schema: strict mode off so Ajv ignores them, and unknown formats.
  const ajv = new Ajv2020({ strict: false, allErrors: true, logger: false });
  addFormats(ajv, formats);
  const validators = new Map<string, ValidateFunction>();
  return ({ api, vector }) => {
    const id = `${api}/${vector.operation}/${vector.part}`;
    // The bundle's components sit beside the schema, so its "#/components/..." references resolve.
    if (!validators.has(id)) validators.set(id, ajv.compile({ ...partSchema(api, vector.operation, vector.part), components: bundles[api].components }));
    const validate = validators.get(id)!;
    const valid = validate(vector.value);
    return { verdict: valid ? "valid" : "invalid", errors: ajv.errorsText(validate.errors) };
  };
}
const ajvVerdict = verdictsWith();

// Hyperjump reads each bundle as an OpenAPI 3.1 document (its own schema dialect), asserting formats.
hyperjump.setShouldValidateFormat(true);
const bundleUri = (api: Api) => `https://ingestion-api.test/${api}.json`;
for (const api of apis) hyperjump.registerSchema(bundles[api], bundleUri(api), "https://spec.openapis.org/oas/3.1/schema-base");
const hyperjumpSchemas = new Set<string>();

async function hyperjumpVerdict({ api, vector }: Case): Promise<Vector["verdict"]> {
  const uri = `https://ingestion-api.test/${api}/${vector.operation}/${vector.part}`;
  if (!hyperjumpSchemas.has(uri)) {
    // The part's schema as a document of its own, its "#/components/..." references pointed at the registered bundle.
    const schema = JSON.parse(JSON.stringify(partSchema(api, vector.operation, vector.part)).replaceAll('"$ref":"#/', `"$ref":"${bundleUri(api)}#/`));
    hyperjump.registerSchema({ $schema: "https://spec.openapis.org/oas/3.1/dialect/base", ...schema }, uri);
    hyperjumpSchemas.add(uri);
  }
  return (await hyperjump.validate(uri, vector.value as any)).valid ? "valid" : "invalid";
}

describe.each(apis)("%s vectors", (api) => {
  it.each(cases.filter((c) => c.api === api).map((c) => [`${c.vector.operation} ${c.vector.part}: ${c.vector.name} is ${c.vector.verdict}`, c] as const))(
    "%s",
    async (_title, c) => {
      const { verdict, errors } = ajvVerdict(c);
      expect(verdict, `rule: ${c.vector.rule}; Ajv: ${errors}`).toBe(c.vector.verdict);
      expect(await hyperjumpVerdict(c), `rule: ${c.vector.rule}; Hyperjump`).toBe(c.vector.verdict);
    },
  );

  it("cover the parameters, request body and response of every operation with valid and invalid cases", () => {
    const expected = Object.values(bundles[api].paths as Record<string, any>).flatMap((pathItem) =>
      methods
        .filter((m) => pathItem[m])
        .flatMap((m) => {
          const op = pathItem[m];
          const parts = [...(pathItem.parameters || op.parameters ? ["params"] : []), ...(op.requestBody ? ["request"] : []), "response"];
          return parts.flatMap((part) => [`${op.operationId} ${part} valid`, `${op.operationId} ${part} invalid`]);
        }),
    );
    const covered = new Set(cases.filter((c) => c.api === api).map(({ vector }) => `${vector.operation} ${vector.part} ${vector.verdict}`));
    expect([...covered].sort()).toEqual(expected.sort());
  });
});

it("no verdict depends on a format other than uuid (date-time, int32 and int64 are not checked alike everywhere)", () => {
  const uuidOnly = verdictsWith(["uuid"]);
  const differing = cases.filter((c) => uuidOnly(c).verdict !== c.vector.verdict).map((c) => c.key);
  expect(differing).toEqual([]);
});

// The python3 on PATH first (say a virtualenv's), then Debian's; PYTHON names another.
const pythonCandidates = process.env.PYTHON ? [process.env.PYTHON] : ["python3", "/usr/bin/python3"];
const python3 = pythonCandidates.find((candidate) => spawnSync(candidate, ["-c", "import jsonschema"]).status === 0);
// CI sets VECTORS_REQUIRE_PYTHON=1, so there a missing jsonschema fails this test instead of skipping it.
const pythonRequired = process.env.VECTORS_REQUIRE_PYTHON === "1";
const pythonMissing = `no ${pythonCandidates.join(" or ")} with jsonschema: apt-get install python3-jsonschema (or pip install jsonschema)`;

const skipPython = !python3 && !pythonRequired;
if (skipPython) console.warn(`skipping the Python vector check: ${pythonMissing}`);

it.skipIf(skipPython)("Python's jsonschema (contract/check_vectors.py) reaches Ajv's verdict on every vector", () => {
  expect(python3, pythonMissing).toBeDefined();
  const run = spawnSync(python3!, [`${root}contract/check_vectors.py`, "--verdicts"], { encoding: "utf8", maxBuffer: 16 * 1024 * 1024 });
  expect(run.status, run.stderr).toBe(0);
  const python = JSON.parse(run.stdout) as Record<string, string>;
  expect(Object.keys(python).sort()).toEqual(cases.map((c) => c.key).sort());
  const disagreements = cases.filter((c) => python[c.key] !== ajvVerdict(c).verdict).map((c) => `${c.key}: Python ${python[c.key]}, Ajv ${ajvVerdict(c).verdict}`);
  expect(disagreements).toEqual([]);
});

it("every pattern in the bundles uses only the regular-expression syntax JSON Schema recommends for interoperability", () => {
  const patterns: string[] = [];
  JSON.stringify(bundles, (key, value) => (key === "pattern" && typeof value === "string" && patterns.push(value), value));
  expect(patterns.length).toBeGreaterThan(0);
  // Literal characters, [...] classes without escapes, quantifiers, groups, alternation and ^/$ anchors; no \d, \w,
  // look-arounds, back-references, named groups or flags, which differ between regex engines.
  const portable = /^(?:[A-Za-z0-9:=_ -]|\[\^?[^\]\\[]+\]|\((?!\?)|[)|^$*+?]|\{\d+(?:,\d*)?\})*$/;
  expect(patterns.filter((p) => !portable.test(p))).toEqual([]);
});
