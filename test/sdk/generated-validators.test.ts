// The build-time validators (generated/validators/, Ajv standalone code) enforce the spec's rules and
// report each broken rule as an Ajv error: where (instancePath), which rule (keyword) and why (message).
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { integerSettings } from "../../contract/cases/seed-settings.mjs";
import { validators as alerts, type OperationValidators, type Validator } from "../../generated/validators/alerts.js";
import { validators as management } from "../../generated/validators/management.js";
import { bundles, type Api } from "../support/bundles.js";
import { settingsEnvelope } from "../support/sdk-fixtures.js";

const listServices = "GET /v1/organizations/{organizationId}/services";
const createReversePrivateEndpoint = "POST /v1/organizations/{organizationId}/services/{serviceId}/pipesReversePrivateEndpoints";
const getPipe = "GET /v1/organizations/{organizationId}/services/{serviceId}/pipes/{pipeId}";
const getPipeSettings = "GET /v1/organizations/{organizationId}/services/{serviceId}/pipes/{pipeId}/settings";
const updatePipeSettings = "PUT /v1/organizations/{organizationId}/services/{serviceId}/pipes/{pipeId}/settings";
const createAlert = "POST /api/v2/alerts";
const getAlert = "GET /api/v2/alerts/{id}";

const organizationId = "7b1e3f0a-5c2d-4e8f-9a6b-1c3d5e7f9a0b";
const serviceId = "3f6c2a1e-8b4d-4c7e-9f1a-2b3c4d5e6f70";
const pipeId = "9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a";

const validatorsByApi: Record<Api, Record<string, OperationValidators>> = { management, alerts };

function validator(api: Api, operation: string, part: "params" | "body" | "response"): Validator {
  const found = validatorsByApi[api][operation]?.[part];
  if (!found) throw new Error(`no ${part} validator for ${operation}`);
  return found;
}

/** The errors `validate` reports for `data`; [] when it accepts the data. */
function errorsOf(validate: Validator, data: unknown) {
  const valid = validate(data);
  expect(valid ? null : validate.errors?.length).not.toBe(0); // a rejection always comes with a reason
  return valid ? [] : (validate.errors ?? []);
}

describe("the validators map", () => {
  it("has one entry per operation, keyed by method and path template, naming its operationId, with params only where there are parameters", () => {
    const parts = (api: Record<string, OperationValidators>) =>
      Object.fromEntries(Object.entries(api).map(([key, { operationId, ...v }]) => [key, [operationId, ...Object.keys(v)]]));
    expect(parts(management)).toEqual({
      [listServices]: ["listServices", "params", "response"],
      [createReversePrivateEndpoint]: ["createReversePrivateEndpoint", "params", "body", "response"],
      [getPipe]: ["getPipe", "params", "response"],
      [getPipeSettings]: ["getPipeSettings", "params", "response"],
      [updatePipeSettings]: ["updatePipeSettings", "params", "body", "response"],
    });
    expect(parts(alerts)).toEqual({
      [createAlert]: ["createAlert", "body", "response"],
      [getAlert]: ["getAlert", "params", "response"],
    });
  });

  it.each(["management", "alerts"])("%s.js is self-contained: no import, no require, no node: module", (api) => {
    const code = readFileSync(new URL(`../../generated/validators/${api}.js`, import.meta.url), "utf8");
    expect(code).not.toMatch(/\brequire\(|^\s*import[\s{*"']|\bimport\(|["'`]node:/m);
  });

  it.each(["management", "alerts"] as const)("accepts every request body and 200 response example of the %s bundle", (api) => {
    const bundle = bundles[api];
    const examplesOf = (media: any): unknown[] =>
      Object.values(media?.examples ?? {}).map((e: any) => (e.$ref ? bundle.components.examples[e.$ref.split("/").pop()] : e).value);
    for (const [path, item] of Object.entries<any>(bundle.paths)) {
      for (const [method, operation] of Object.entries<any>(item).filter(([m]) => m !== "parameters")) {
        const key = `${method.toUpperCase()} ${path}`;
        for (const body of examplesOf(operation.requestBody?.content["application/json"])) {
          expect(errorsOf(validator(api, key, "body"), body), key).toEqual([]);
        }
        for (const response of examplesOf(operation.responses["200"].content["application/json"])) {
          expect(errorsOf(validator(api, key, "response"), response), key).toEqual([]);
        }
      }
    }
  });
});

describe("PUT settings body", () => {
  const validate = validator("management", updatePipeSettings, "body");

  describe.each(integerSettings)("%s (%d..%d)", (field, minimum, maximum) => {
    it.each([minimum, maximum, null])("accepts %s", (value) => {
      expect(errorsOf(validate, { [field]: value })).toEqual([]);
    });

    it("rejects minimum - 1", () => {
      expect(errorsOf(validate, { [field]: minimum - 1 })).toEqual([
        expect.objectContaining({ instancePath: `/${field}`, keyword: "minimum", message: `must be >= ${minimum}` }),
      ]);
    });

    it("rejects maximum + 1", () => {
      expect(errorsOf(validate, { [field]: maximum + 1 })).toEqual([
        expect.objectContaining({ instancePath: `/${field}`, keyword: "maximum", message: `must be <= ${maximum}` }),
      ]);
    });

    it("rejects a numeric string", () => {
      expect(errorsOf(validate, { [field]: String(minimum) })).toEqual([
        expect.objectContaining({ instancePath: `/${field}`, keyword: "type", message: "must be integer,null" }),
      ]);
    });

    it("rejects a fraction (a number, so its format int64 is checked too)", () => {
      expect(errorsOf(validate, { [field]: minimum + 0.5 })).toEqual([
        expect.objectContaining({ instancePath: `/${field}`, keyword: "type", message: "must be integer,null" }),
        expect.objectContaining({ instancePath: `/${field}`, keyword: "format", message: 'must match format "int64"' }),
      ]);
    });
  });

  describe.each(["object_storage_use_cluster_function", "engine_parallel_view_processing"])("%s", (field) => {
    it.each([true, false, null])("accepts %s", (value) => {
      expect(errorsOf(validate, { [field]: value })).toEqual([]);
    });

    it("rejects the string 'true'", () => {
      expect(errorsOf(validate, { [field]: "true" })).toEqual([
        expect.objectContaining({ instancePath: `/${field}`, keyword: "type", message: "must be boolean,null" }),
      ]);
    });
  });

  it("accepts {} (every setting back to the service default)", () => {
    expect(errorsOf(validate, {})).toEqual([]);
  });

  it("rejects an unknown field such as a misspelt name", () => {
    expect(errorsOf(validate, { streaming_max_insert_wait: 5000 })).toEqual([
      expect.objectContaining({ instancePath: "", keyword: "additionalProperties", params: { additionalProperty: "streaming_max_insert_wait" } }),
    ]);
  });

  it("reports every broken rule at once (allErrors)", () => {
    const errors = errorsOf(validate, { engine_max_threads: 65, engine_max_insert_threads: -1, unknown: 1 });
    expect(errors.map((e) => `${e.instancePath} ${e.keyword}`).sort()).toEqual([" additionalProperties", "/engine_max_insert_threads minimum", "/engine_max_threads maximum"]);
  });
});

describe("POST reverse private endpoint body (discriminated by type)", () => {
  const validate = validator("management", createReversePrivateEndpoint, "body");

  const endpointTypes: [type: string, body: Record<string, unknown>][] = [
    ["VPC_ENDPOINT_SERVICE", { vpcEndpointServiceName: "com.amazonaws.vpce.eu-west-1.vpce-svc-0a1b" }],
    ["VPC_RESOURCE", { vpcResourceConfigurationId: "rcfg-0a1b2c3d", vpcResourceShareArn: "arn:aws:ram:eu-west-1:123456789012:resource-share/4f5e" }],
    ["KAFKA_MULTI_VPC", { kafkaClusterArn: "arn:aws:kafka:eu-west-1:123456789012:cluster/analytics/2c4e", kafkaAuthentication: "SASL_IAM" }],
  ];

  describe.each(endpointTypes)("%s", (type, fields) => {
    it("accepts its required fields", () => {
      expect(errorsOf(validate, { type, ...fields })).toEqual([]);
    });

    it.each(Object.keys(fields))("without %s: exactly one error, `required`, and none from the other types", (missing) => {
      const { [missing]: _left, ...body } = fields;
      expect(errorsOf(validate, { type, ...body })).toEqual([
        expect.objectContaining({ instancePath: "", keyword: "required", params: { missingProperty: missing }, message: `must have required property '${missing}'` }),
      ]);
    });
  });

  it("rejects a field of another type unless it is null", () => {
    const body = { type: "VPC_ENDPOINT_SERVICE", vpcEndpointServiceName: "com.amazonaws.vpce.eu-west-1.vpce-svc-0a1b" };
    expect(errorsOf(validate, { ...body, kafkaClusterArn: null })).toEqual([]);
    expect(errorsOf(validate, { ...body, kafkaClusterArn: "arn:aws:kafka:eu-west-1:1:cluster/x" })).toEqual([
      expect.objectContaining({ instancePath: "/kafkaClusterArn", keyword: "type", message: "must be null" }),
    ]);
  });

  it("rejects an unknown or missing type with a `discriminator` error", () => {
    expect(errorsOf(validate, { type: "VPC_PEERING" })).toEqual([
      expect.objectContaining({ keyword: "discriminator", params: { error: "mapping", tag: "type", tagValue: "VPC_PEERING" } }),
    ]);
    expect(errorsOf(validate, {})).toEqual([expect.objectContaining({ keyword: "discriminator", params: { error: "tag", tag: "type" } })]);
  });

  it("rejects a body that is not an object", () => {
    for (const body of [null, "VPC_RESOURCE", []]) {
      expect(errorsOf(validate, body)).toEqual([expect.objectContaining({ instancePath: "", keyword: "type", message: "must be object" })]);
    }
  });
});

describe("POST alert body (discriminated by source)", () => {
  const validate = validator("alerts", createAlert, "body");
  const common = { threshold: 100, thresholdType: "above", interval: "5m", channel: { type: "webhook", webhookId: "65f1c2d3e4b5a69788796a20" } };
  const tileAlert = { ...common, source: "tile", dashboardId: "65f1c2d3e4b5a69788796a10", tileId: "error-rate" };
  const searchAlert = { ...common, source: "search", savedSearchId: "65f1c2d3e4b5a69788796a30" };

  it("accepts a tile alert and a search alert", () => {
    expect(errorsOf(validate, tileAlert)).toEqual([]);
    expect(errorsOf(validate, searchAlert)).toEqual([]);
  });

  it("rejects an interval that is not one of the listed ones", () => {
    expect(errorsOf(validate, { ...searchAlert, interval: "2m" })).toEqual([
      expect.objectContaining({ instancePath: "/interval", keyword: "enum", message: "must be equal to one of the allowed values" }),
    ]);
  });

  it("rejects a dashboardId of 23 characters", () => {
    expect(errorsOf(validate, { ...tileAlert, dashboardId: "65f1c2d3e4b5a69788796a1" })).toEqual([
      expect.objectContaining({ instancePath: "/dashboardId", keyword: "pattern" }),
    ]);
  });

  it("rejects a tile alert without dashboardId, and reports nothing from the search branch", () => {
    const { dashboardId: _left, ...withoutDashboard } = tileAlert;
    expect(errorsOf(validate, withoutDashboard)).toEqual([
      expect.objectContaining({ instancePath: "", keyword: "required", params: { missingProperty: "dashboardId" } }),
    ]);
  });

  it("counts the name's length in characters, not UTF-16 units", () => {
    expect(errorsOf(validate, { ...searchAlert, name: "🚨".repeat(512) })).toEqual([]);
    expect(errorsOf(validate, { ...searchAlert, name: "🚨".repeat(513) })).toEqual([
      expect.objectContaining({ instancePath: "/name", keyword: "maxLength", message: "must NOT have more than 512 characters" }),
    ]);
  });
});

describe("params (path and query parameters as one object)", () => {
  const pipeParams = validator("management", getPipe, "params");
  const serviceParams = validator("management", listServices, "params");

  it("accepts the IDs of a pipe", () => {
    expect(errorsOf(pipeParams, { organizationId, serviceId, pipeId })).toEqual([]);
  });

  it("rejects a pipeId that is not a UUID", () => {
    expect(errorsOf(pipeParams, { organizationId, serviceId, pipeId: "pipe-1" })).toEqual([
      expect.objectContaining({ instancePath: "/pipeId", keyword: "format", params: { format: "uuid" } }),
    ]);
  });

  it("rejects a missing path parameter and an unknown one", () => {
    expect(errorsOf(pipeParams, { organizationId, serviceId, pipe: pipeId }).map((e) => e.keyword).sort()).toEqual([
      "additionalProperties",
      "required",
    ]);
  });

  it("accepts tag filters, and no filter at all", () => {
    expect(errorsOf(serviceParams, { organizationId, filter: ["tag:Environment=Production", "tag:isActive"] })).toEqual([]);
    expect(errorsOf(serviceParams, { organizationId })).toEqual([]);
  });

  it("rejects a filter element that is not tag:<key> or tag:<key>=<value>", () => {
    expect(errorsOf(serviceParams, { organizationId, filter: ["tag:isActive", "name=events"] })).toEqual([
      expect.objectContaining({ instancePath: "/filter/1", keyword: "pattern" }),
    ]);
  });
});

describe("responses (open to additions)", () => {
  const settingsResponse = validator("management", getPipeSettings, "response");
  const pipeResponse = validator("management", getPipe, "response");
  const { result: settings, ...envelope } = settingsEnvelope;

  it("GET settings rejects a setting out of bounds", () => {
    expect(errorsOf(settingsResponse, { ...envelope, result: { ...settings, engine_max_threads: 65 } })).toEqual([
      expect.objectContaining({ instancePath: "/result/engine_max_threads", keyword: "maximum", message: "must be <= 64" }),
    ]);
  });

  it("GET settings accepts a field it does not know", () => {
    expect(errorsOf(settingsResponse, { ...envelope, result: { ...settings, engine_new_setting: 1 } })).toEqual([]);
  });

  it("GET pipe accepts a pipe state it does not know, but not a state that is not a string", () => {
    const pipe = { id: pipeId, serviceId, name: "clickstream-from-kafka" };
    expect(errorsOf(pipeResponse, { ...envelope, result: { ...pipe, state: "Hibernating" } })).toEqual([]);
    expect(errorsOf(pipeResponse, { ...envelope, result: { ...pipe, state: 3 } }).map((e) => e.instancePath)).toContain("/result/state");
  });
});
