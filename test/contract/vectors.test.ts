// The shared test vectors (contract/vectors/) are the oracle for every rule of the contract: each vector must get
// its verdict from every reader of the specs. Here: the SDK's generated validators, Prism (the mock for requests,
// a validating proxy for responses), the sandbox (for requests: 400 or 200), Ajv and Hyperjump over the bundle (Hyperjump reads it as an OpenAPI 3.1
// document, written by a JSON Schema specification author), Ajv over the standalone schemas of contract/schemas/,
// and Python's jsonschema (over the bundle and the standalone schemas) when a python3 has it.
// The vectors are stated from the seed in contract/cases/, independently of the spec.
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import * as hyperjump from "@hyperjump/json-schema/openapi-3-1";
import "@hyperjump/json-schema/formats";
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormatsModule, { type FormatName } from "ajv-formats";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, type MockServer, startMocks, stopMock } from "../../scripts/lib/mock-servers.mjs";
import { exampleSeed } from "../../src/sandbox/seed.js";
import { type Sandbox, startSandbox } from "../../src/sandbox/server.js";
import { type Api, apis, bundles } from "../support/bundles.js";
import { type Answer, operations, partSchema, type VectorPart } from "../support/operations.js";
import { credentials, mockUrl, testCredentials } from "../support/prism.js";
import { python3, pythonMissing, skipPython } from "../support/python.js";
import { commandThatRuns } from "../support/system-tools.js";

interface HttpForm {
  method: string;
  path: string;
  query?: string;
  headers?: Record<string, string>;
  body?: unknown;
  status?: number;
}
interface Vector {
  operation: string;
  part: VectorPart;
  /** A response vector's answer: its status and media type. */
  status?: number;
  mediaType?: string;
  name: string;
  value: unknown;
  verdict: "valid" | "invalid";
  rule: string;
  http: HttpForm | false;
  httpReason?: string;
}
interface Case {
  api: Api;
  vector: Vector;
  key: string;
}
type Verdict = Vector["verdict"];

const vectorsDir = new URL("../../contract/vectors/", import.meta.url);
const cases: Case[] = apis.flatMap((api) =>
  readdirSync(new URL(`${api}/`, vectorsDir))
    .sort()
    .flatMap((file) => JSON.parse(readFileSync(new URL(`${api}/${file}`, vectorsDir), "utf8")) as Vector[])
    .map((vector) => ({ api, vector, key: `${api}/${vector.operation}/${vector.part}/${vector.name}` })),
);
const operationOf = ({ api, vector }: Case) => operations.find((o) => o.api === api && o.operationId === vector.operation)!;
const answerOf = ({ vector }: Case): Answer => ({ status: vector.status ?? 200, mediaType: vector.mediaType ?? "application/json" });
/** A body in text (a gateway's page): no JSON Schema validator of a JSON body has a say, any string is valid. */
const isText = (c: Case) => answerOf(c).mediaType !== "application/json";
/** Which schema a vector is checked against: its operation, part and, for a response, its answer. */
const schemaId = (c: Case) =>
  `${c.api}/${c.vector.operation}/${c.vector.part}${c.vector.part === "response" ? `/${answerOf(c).status}/${answerOf(c).mediaType}` : ""}`;

// --- The SDK's generated validators: what the client checks before sending and, on request, after receiving.
function generatedVerdict(c: Case): Verdict {
  const { validators, responseValidators, declaredStatus } = operationOf(c);
  const response = responseValidators[declaredStatus(answerOf(c).status)];
  const validate = { params: validators.params, request: validators.body, response }[c.vector.part];
  if (!validate) throw new Error(`${c.key}: the generated validators have no ${c.vector.part} validator`);
  return validate(c.vector.value) ? "valid" : "invalid";
}

// --- Ajv (Draft 2020-12) over the bundle. ajv-formats is CommonJS; under NodeNext its default export arrives wrapped.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

/** Ajv asserting the given formats, or all of ajv-formats' formats. */
function ajvVerdicts(formats?: FormatName[]): (c: Case) => { verdict: Verdict; errors: string } {
  // OpenAPI keywords (discriminator, example) are not JSON Schema: strict mode off so Ajv ignores them.
  const ajv = new Ajv2020({ strict: false, allErrors: true, logger: false });
  addFormats(ajv, formats);
  const compiled = new Map<string, ValidateFunction>();
  return (c) => {
    const id = schemaId(c);
    // The bundle's components sit beside the schema, so its "#/components/..." references resolve.
    if (!compiled.has(id)) compiled.set(id, ajv.compile({ ...partSchema(operationOf(c), c.vector.part, answerOf(c)), components: bundles[c.api].components }));
    const validate = compiled.get(id)!;
    return { verdict: validate(c.vector.value) ? "valid" : "invalid", errors: ajv.errorsText(validate.errors) };
  };
}
const ajvVerdict = ajvVerdicts();

// --- The standalone schemas (contract/schemas/), as another team would use them: no OpenAPI document at all.
const standaloneAjv = new Ajv2020({ strict: false, allErrors: true, logger: false });
addFormats(standaloneAjv);
const standaloneCompiled = new Map<string, ValidateFunction>();

function standaloneVerdict(c: Case): Verdict {
  const { api, vector } = c;
  const part =
    vector.part === "response" ? `response-${operationOf(c).declaredStatus(answerOf(c).status)}` : { params: "params", request: "body" }[vector.part];
  const file = `${api}/${vector.operation}.${part}.json`;
  if (!standaloneCompiled.has(file)) {
    standaloneCompiled.set(file, standaloneAjv.compile(JSON.parse(readFileSync(new URL(`../../contract/schemas/${file}`, import.meta.url), "utf8"))));
  }
  return standaloneCompiled.get(file)!(vector.value) ? "valid" : "invalid";
}

// --- Hyperjump, reading each bundle as an OpenAPI 3.1 document, asserting formats.
hyperjump.setShouldValidateFormat(true);
const bundleUri = (api: Api) => `https://ingestion-api.test/${api}.json`;
for (const api of apis) hyperjump.registerSchema(bundles[api], bundleUri(api), "https://spec.openapis.org/oas/3.1/schema-base");
const registered = new Set<string>();

async function hyperjumpVerdict(c: Case): Promise<Verdict> {
  const uri = `https://ingestion-api.test/${schemaId(c).replaceAll("/", "-")}`;
  if (!registered.has(uri)) {
    // The part's schema as a document of its own, its "#/components/..." references pointed at the registered bundle.
    const text = JSON.stringify(partSchema(operationOf(c), c.vector.part, answerOf(c))).replaceAll('"$ref":"#/', `"$ref":"${bundleUri(c.api)}#/`);
    hyperjump.registerSchema({ $schema: "https://spec.openapis.org/oas/3.1/dialect/base", ...JSON.parse(text) }, uri);
    registered.add(uri);
  }
  return (await hyperjump.validate(uri, c.vector.value as never)).valid ? "valid" : "invalid";
}

// --- Prism: requests go to the mock, which refuses what breaks the contract; responses come from a server that
// answers with the vector's value, through Prism as a validating proxy, which turns a non-conforming answer into a 500.
const responseHeader = "x-vector-key";
let upstream: Server;
let proxies: MockServer[] = [];
const proxyUrl = {} as Record<Api, string>;
let sandbox: Sandbox;

beforeAll(async () => {
  const answers = new Map(cases.map((c) => [c.key, c]));
  upstream = createServer((request, response) => {
    const c = answers.get(decodeURIComponent(String(request.headers[responseHeader])))!;
    const { status, mediaType } = answerOf(c);
    response.writeHead(status, { "content-type": mediaType }).end(isText(c) ? String(c.vector.value) : JSON.stringify(c.vector.value));
  });
  await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", resolve));
  const upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  proxies = await startMocks(
    await Promise.all(apis.map(async (api) => ({ bundle: `generated/openapi/${api}.json`, port: await freePort(), upstream: upstreamUrl }))),
  );
  for (const [index, api] of apis.entries()) proxyUrl[api] = proxies[index]?.url ?? "";
  sandbox = await startSandbox({ seed: exampleSeed(), credentials: testCredentials });
}, 60_000);

afterAll(async () => {
  await sandbox?.close();
  await Promise.all(proxies.map(stopMock));
  await new Promise((resolve) => upstream?.close(resolve));
});

async function prismVerdict(c: Case, http: HttpForm): Promise<{ verdict: Verdict | "neither"; seen: string }> {
  const isResponse = c.vector.part === "response";
  const base = isResponse ? proxyUrl[c.api] : mockUrl[c.api];
  const headers: Record<string, string> = { accept: "application/json", authorization: credentials[c.api], ...http.headers };
  if (isResponse) headers[responseHeader] = encodeURIComponent(c.key);
  const response = await fetch(`${base}${http.path}${http.query ? `?${http.query}` : ""}`, {
    method: http.method,
    headers,
    ...(http.body !== undefined && { body: JSON.stringify(http.body) }),
  });
  const seen = `${response.status} ${response.headers.get("sl-violations") ?? (await response.text()).slice(0, 300)}`;
  // The proxy passes a conforming answer on with its own status (a gateway's 502 stays a 502).
  if (response.status === (http.status ?? 200)) return { verdict: "valid", seen };
  // The mock refuses an invalid request with 400 or 422; the proxy reports a non-conforming answer as 500.
  const refused = isResponse ? response.status === 500 : response.status === 400 || response.status === 422;
  return { verdict: refused ? "invalid" : "neither", seen };
}

// --- The sandbox: a request vector sent as it is; it holds the examples' ids, so a valid request finds its resource.
async function sandboxVerdict(c: Case, http: HttpForm): Promise<{ verdict: Verdict | "neither"; seen: string }> {
  const response = await fetch(`${sandbox.url}${http.path}${http.query ? `?${http.query}` : ""}`, {
    method: http.method,
    headers: { accept: "application/json", authorization: credentials[c.api], ...http.headers },
    ...(http.body !== undefined && { body: JSON.stringify(http.body) }),
  });
  const seen = `${response.status} ${(await response.text()).slice(0, 300)}`;
  return { verdict: response.status === 200 ? "valid" : response.status === 400 ? "invalid" : "neither", seen };
}

describe.each(apis)("%s vectors", (api) => {
  it.each(cases.filter((c) => c.api === api).map((c) => [`${c.vector.operation} ${c.vector.part}: ${c.vector.name} is ${c.vector.verdict}`, c] as const))(
    "%s",
    async (_title, c) => {
      const { vector } = c;
      const because = `rule: ${vector.rule}`;
      // The SDK validates JSON bodies; a text answer becomes the error's message, with nothing to validate.
      if (!isText(c)) expect(generatedVerdict(c), `${because}; the SDK's generated validators`).toBe(vector.verdict);
      const ajv = ajvVerdict(c);
      expect(ajv.verdict, `${because}; Ajv: ${ajv.errors}`).toBe(vector.verdict);
      expect(await hyperjumpVerdict(c), `${because}; Hyperjump`).toBe(vector.verdict);
      // The standalone schemas are of JSON bodies only.
      if (!isText(c)) expect(standaloneVerdict(c), `${because}; the standalone schema under Ajv`).toBe(vector.verdict);
      if (vector.http) {
        const prism = await prismVerdict(c, vector.http);
        expect(prism.verdict, `${because}; Prism answered ${prism.seen}`).toBe(vector.verdict);
        if (vector.part !== "response") {
          const answer = await sandboxVerdict(c, vector.http);
          expect(answer.verdict, `${because}; the sandbox answered ${answer.seen}`).toBe(vector.verdict);
        }
      } else {
        expect(vector.httpReason, "a vector HTTP cannot carry says why").toBeTruthy();
      }
    },
  );

  it("cover the parameters, request body and response of every operation with valid and invalid cases", () => {
    const expected = operations
      .filter((o) => o.api === api)
      .flatMap((o) => o.parts.flatMap((part) => [`${o.operationId} ${part} valid`, `${o.operationId} ${part} invalid`]));
    const covered = new Set(cases.filter((c) => c.api === api).map(({ vector }) => `${vector.operation} ${vector.part} ${vector.verdict}`));
    expect([...covered].sort()).toEqual(expected.sort());
  });
});

it("no verdict depends on a format other than uuid (date-time, int32 and int64 are not checked alike everywhere)", () => {
  const uuidOnly = ajvVerdicts(["uuid"]);
  expect(cases.filter((c) => uuidOnly(c).verdict !== c.vector.verdict).map((c) => c.key)).toEqual([]);
});

it.skipIf(skipPython)("Python's jsonschema (contract/check_vectors.py) reaches every vector's verdict", () => {
  expect(python3, pythonMissing).toBeDefined();
  const run = spawnSync(python3!, [new URL("../../contract/check_vectors.py", import.meta.url).pathname, "--verdicts"], {
    encoding: "utf8",
    maxBuffer: 16 * 1024 * 1024,
  });
  expect(run.status, run.stderr).toBe(0);
  const verdicts = JSON.parse(run.stdout) as Record<string, string>;
  expect(Object.keys(verdicts).sort()).toEqual(cases.map((c) => c.key).sort());
  expect(cases.filter((c) => verdicts[c.key] !== c.vector.verdict).map((c) => `${c.key}: Python says ${verdicts[c.key]}`)).toEqual([]);
});

// Any python3 will do: with jsonschema or (under -S) without it.
const anyPython3 = python3 ?? commandThatRuns(["python3", "/usr/bin/python3"], ["--version"]);
it.skipIf(anyPython3 === undefined && process.env.VECTORS_REQUIRE_PYTHON !== "1")(
  "check_vectors.py --help prints its usage and checks nothing, with or without jsonschema; an unknown option gets exit 2",
  () => {
    expect(anyPython3, "no python3").toBeDefined();
    const script = new URL("../../contract/check_vectors.py", import.meta.url).pathname;
    // `-S` leaves out site-packages, where jsonschema lives: the help answers before the script needs it.
    for (const flags of [[], ["-S"]]) {
      const help = spawnSync(anyPython3!, [...flags, script, "--help"], { encoding: "utf8" });
      expect(help.status, help.stderr).toBe(0);
      expect(help.stdout).toMatch(/^usage: check_vectors\.py \[-h\] \[--verdicts\]\n/);
      expect(help.stdout).toContain("--verdicts");
      expect(help.stdout).not.toContain("check_vectors: all");
    }
    expect(spawnSync(anyPython3!, ["-S", script], { encoding: "utf8" }).stderr).toContain("has no jsonschema");
    const wrong = spawnSync(anyPython3!, [script, "--all"], { encoding: "utf8" });
    expect(wrong.status).toBe(2);
    expect(wrong.stderr).toContain("check_vectors.py: error: unrecognized arguments: --all");
  },
);

it("every pattern in the bundles uses only the regular-expression syntax JSON Schema recommends for interoperability", () => {
  const patterns: string[] = [];
  JSON.stringify(bundles, (key, value) => {
    if (key === "pattern" && typeof value === "string") patterns.push(value);
    return value;
  });
  expect(patterns.length).toBeGreaterThan(0);
  // Literal characters, [...] classes without escapes, quantifiers, groups, alternation and ^/$ anchors; no \d, \w,
  // look-arounds, back-references, named groups or flags, which differ between regex engines.
  const portable = /^(?:[A-Za-z0-9:=_ -]|\[\^?[^\]\\[]+\]|\((?!\?)|[)|^$*+?]|\{\d+(?:,\d*)?\})*$/;
  expect(patterns.filter((p) => !portable.test(p))).toEqual([]);
});
