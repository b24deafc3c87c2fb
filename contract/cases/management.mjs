// Test vectors of the management interface. On purpose, this is the one place that states the seed's facts a
// second time, from the seed and openapi/DECISIONS.md and never read from the spec: everything else derives
// from the spec, and the spec is held to these. A vector whose verdict the bundle does not reach is a contract
// bug (or a vector bug) either way.
import { booleanSettings, integerSettings } from "./seed-settings.mjs";
import { gatewayVectors, vectorsOf, without } from "./vector.mjs";

const organizationId = "7b1e3f0a-5c2d-4e8f-9a6b-1c3d5e7f9a0b";
const serviceId = "3f6c2a1e-8b4d-4c7e-9f1a-2b3c4d5e6f70";
const pipeId = "9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a";
const requestId = "4c6e8a0b-2d3f-4b5c-8e7a-9b1d3f5a7c9e";
const envelope = (result) => ({ status: 200, requestId, result });

const settingNames = [...integerSettings.map(([name]) => name), ...booleanSettings];
const defaultSettings = Object.fromEntries(settingNames.map((name) => [name, null]));

/** Vectors for the path parameters every operation below `services/{serviceId}` shares. */
function pathParamVectors(operation, names) {
  const { valid, invalid } = vectorsOf(operation, "params");
  const ids = { organizationId, serviceId, pipeId };
  const params = Object.fromEntries(names.map((name) => [name, ids[name]]));
  return [
    valid("every path ID a uuid", params, "path parameters named ...Id are uuid strings"),
    valid("an upper-case uuid", { ...params, [names.at(-1)]: ids[names.at(-1)].toUpperCase() }, "uuid format is case-insensitive"),
    ...names.flatMap((name) => [
      invalid(`without ${name}`, without(params, name), `${name} is a required path parameter`),
      invalid(`${name} not a uuid`, { ...params, [name]: "acme-production" }, `${name} is a uuid string`),
      invalid(`${name} a uuid without hyphens`, { ...params, [name]: ids[name].replaceAll("-", "") }, `${name} is a uuid string (8-4-4-4-12)`),
      invalid(`${name} a number`, { ...params, [name]: 42 }, `${name} is a string`),
    ]),
  ];
}

function listServices() {
  const operation = "listServices";
  const params = vectorsOf(operation, "params");
  const response = vectorsOf(operation, "response");
  const filterRule = "each filter element is tag:<key> or tag:<key>=<value>, key and value of [A-Za-z0-9._-]";
  const service = { id: serviceId, name: "analytics-eu" };
  const fullService = {
    ...service,
    engineVersion: "25.8",
    endpoints: [{ protocol: "https", host: "analytics-eu.example.com", port: 8443, username: "default" }],
    minTotalMemoryGb: 24,
    maxTotalMemoryGb: 96,
    minReplicaMemoryGb: 8,
    maxReplicaMemoryGb: 32,
    numReplicas: 3,
    idleScaling: true,
    idleTimeoutMinutes: 15,
    ipAccessList: [{ source: "203.0.113.0/24", description: "office" }],
    createdAt: "2025-03-04T09:10:11Z",
    encryptionKey: "arn:aws:kms:eu-west-1:123456789012:key/1a2b3c4d",
    encryptionAssumedRoleIdentifier: "arn:aws:iam::123456789012:role/disk-encryption",
    iamRole: "arn:aws:iam::123456789012:role/service",
    privateEndpointIds: ["vpce-0a1b2c3d"],
    availablePrivateEndpointIds: ["vpce-0a1b2c3d", "vpce-4e5f6a7b"],
    dataWarehouseId: "2d4f6a8c-0e1b-4c3d-9e5f-7a9b1c3d5e7f",
    isPrimary: true,
    isReadonly: false,
    byocId: "byoc-eu-west-1",
    hasTransparentDataEncryption: false,
    transparentDataEncryptionKeyId: "tde-key-1",
    encryptionRoleId: "encryption-role-1",
  };
  return [
    ...pathParamVectors(operation, ["organizationId"]),
    params.valid("a tag=value filter", { organizationId, filter: ["tag:Environment=Production"] }, filterRule),
    params.valid("a tag-presence filter", { organizationId, filter: ["tag:isActive"] }, filterRule),
    params.valid("several filters", { organizationId, filter: ["tag:Environment=Production", "tag:isActive"] }, "filter is an array of tag filters"),
    params.valid("a filter using . _ and -", { organizationId, filter: ["tag:team.name_x-1=eu-west_1.b"] }, filterRule),
    params.valid("an empty filter list", { organizationId, filter: [] }, "filter is an optional array"),
    params.invalid("a filter without the tag: prefix", { organizationId, filter: ["Environment=Production"] }, filterRule),
    params.invalid("a filter with an empty key", { organizationId, filter: ["tag:"] }, filterRule),
    params.invalid("a filter with an empty value", { organizationId, filter: ["tag:Environment="] }, filterRule),
    params.invalid("a filter with a space", { organizationId, filter: ["tag:Environment=Pro duction"] }, filterRule),
    params.invalid("a filter with two =", { organizationId, filter: ["tag:a=b=c"] }, filterRule),
    params.invalid("a filter that is not a list", { organizationId, filter: "tag:isActive" }, "filter is an array (repeated query items)"),
    params.invalid("a filter element that is not a string", { organizationId, filter: [1] }, "filter elements are strings"),
    params.invalid(
      "a query parameter the operation does not declare",
      { organizationId, foo: "1" },
      "a client sends only declared parameters (the params object is closed); a server ignores an undeclared one (0.3.0)",
    ),

    response.valid("an empty list", envelope([]), "result is an array of Service"),
    response.valid("a service with id and name only", envelope([service]), "only id and name of a Service are guaranteed"),
    response.valid("a service with every field", envelope([fullService]), "Service fields as the seed types them"),
    response.valid(
      "an endpoint without a user name",
      envelope([{ ...service, endpoints: [{ ...fullService.endpoints[0], username: null }] }]),
      "endpoints[].username is a string or null",
    ),
    response.valid(
      "unknown fields in the envelope and the service",
      { ...envelope([{ ...service, region: "eu-west-1" }]), page: 1 },
      "responses are open: clients ignore unknown fields",
    ),
    response.invalid("a service without id", envelope([without(service, "id")]), "Service.id is required"),
    response.invalid("a service without name", envelope([without(service, "name")]), "Service.name is required"),
    response.invalid("an envelope without requestId", without(envelope([]), "requestId"), "envelope A requires status, requestId and result"),
    response.invalid("an envelope without result", without(envelope([]), "result"), "envelope A requires status, requestId and result"),
    response.invalid("an envelope without status", without(envelope([]), "status"), "envelope A requires status, requestId and result"),
    response.invalid("a result that is one object", envelope(service), "result of the list operation is an array"),
    response.invalid("a requestId that is not a uuid", { ...envelope([]), requestId: "req-1" }, "requestId is a uuid"),
    response.invalid("a status that is a string", { ...envelope([]), status: "200" }, "status is a number"),
    response.invalid("a service id that is not a uuid", envelope([{ ...service, id: "analytics-eu" }]), "Service.id is a uuid"),
    response.invalid("numReplicas as a string", envelope([{ ...service, numReplicas: "3" }]), "Service.numReplicas is a number"),
    response.invalid("idleScaling as a string", envelope([{ ...service, idleScaling: "true" }]), "Service.idleScaling is a boolean"),
    response.invalid(
      "an endpoint port as a string",
      envelope([{ ...service, endpoints: [{ ...fullService.endpoints[0], port: "8443" }] }]),
      "endpoints[].port is a number",
    ),
    response.invalid(
      "privateEndpointIds as a string",
      envelope([{ ...service, privateEndpointIds: "vpce-0a1b2c3d" }]),
      "Service.privateEndpointIds is an array of string",
    ),
  ];
}

function createReversePrivateEndpoint() {
  const operation = "createReversePrivateEndpoint";
  const { valid, invalid } = vectorsOf(operation, "request");
  const response = vectorsOf(operation, "response");
  const complete = {
    VPC_ENDPOINT_SERVICE: { type: "VPC_ENDPOINT_SERVICE", vpcEndpointServiceName: "com.amazonaws.vpce.eu-west-1.vpce-svc-0a1b" },
    VPC_RESOURCE: {
      type: "VPC_RESOURCE",
      vpcResourceConfigurationId: "rcfg-0a1b2c3d4e5f60718",
      vpcResourceShareArn: "arn:aws:ram:eu-west-1:123456789012:resource-share/4f5e6d7c",
    },
    KAFKA_MULTI_VPC: {
      type: "KAFKA_MULTI_VPC",
      kafkaClusterArn: "arn:aws:kafka:eu-west-1:123456789012:cluster/analytics/2c4e6a8b",
      kafkaAuthentication: "SASL_IAM",
    },
  };
  const typeFields = ["vpcEndpointServiceName", "vpcResourceConfigurationId", "vpcResourceShareArn", "kafkaClusterArn", "kafkaAuthentication"];

  const perType = Object.entries(complete).flatMap(([type, body]) => {
    const own = Object.keys(body).filter((f) => f !== "type");
    const others = typeFields.filter((f) => !own.includes(f));
    const requires = `type ${type} requires ${own.join(" and ")}`;
    return [
      valid(`${type} complete`, body, requires),
      valid(`${type} with a 255-character description`, { ...body, description: "d".repeat(255) }, "description is at most 255 characters"),
      invalid(`${type} with a 256-character description`, { ...body, description: "d".repeat(256) }, "description is at most 255 characters"),
      valid(
        `${type} with the other types' fields as null`,
        { ...body, ...Object.fromEntries(others.map((f) => [f, null])) },
        "a field of another type may be sent as null",
      ),
      ...own.flatMap((field) => [
        invalid(`${type} without ${field}`, without(body, field), requires),
        invalid(`${type} with ${field} null`, { ...body, [field]: null }, `${requires} (not null)`),
        invalid(`${type} with ${field} empty`, { ...body, [field]: "" }, `${requires} (non-empty)`),
      ]),
      ...others.map((field) =>
        invalid(
          `${type} with ${field} set`,
          { ...body, [field]: field === "kafkaAuthentication" ? "SASL_IAM" : "x" },
          `${field} belongs to another type: only null is accepted`,
        ),
      ),
      invalid(`${type} with an unknown field`, { ...body, vpcEndpointServiceNme: "typo" }, "requests are closed: unknown fields are rejected"),
    ];
  });

  const endpoint = { id: "6e1f3a5c-7b9d-4e2f-8a4c-6d8f0b2d4f6a", serviceId, type: "KAFKA_MULTI_VPC", status: "Ready" };
  const fullEndpoint = {
    ...endpoint,
    description: "analytics cluster",
    vpcEndpointServiceName: null,
    vpcResourceConfigurationId: null,
    vpcResourceShareArn: null,
    kafkaClusterArn: complete.KAFKA_MULTI_VPC.kafkaClusterArn,
    kafkaAuthentication: "SASL_IAM",
    endpointId: "vpce-0a1b2c3d4e5f",
    dnsNames: ["vpce-0a1b2c3d4e5f.vpce-svc.eu-west-1.vpce.amazonaws.com"],
    privateDnsNames: ["kafka.analytics.internal"],
  };

  return [
    ...pathParamVectors(operation, ["organizationId", "serviceId"]),
    ...perType,
    valid("SASL_SCRAM authentication", { ...complete.KAFKA_MULTI_VPC, kafkaAuthentication: "SASL_SCRAM" }, "kafkaAuthentication is SASL_IAM or SASL_SCRAM"),
    valid(
      "a 255-character description outside the Basic Multilingual Plane",
      { ...complete.VPC_ENDPOINT_SERVICE, description: "🚀".repeat(255) },
      "lengths count Unicode code points, not UTF-16 units",
    ),
    invalid("PLAIN authentication", { ...complete.KAFKA_MULTI_VPC, kafkaAuthentication: "PLAIN" }, "kafkaAuthentication is SASL_IAM or SASL_SCRAM"),
    invalid("no type", without(complete.VPC_ENDPOINT_SERVICE, "type"), "type is required"),
    invalid("an unknown type", { ...complete.VPC_ENDPOINT_SERVICE, type: "VPC_PEERING" }, "type is VPC_ENDPOINT_SERVICE, VPC_RESOURCE or KAFKA_MULTI_VPC"),
    invalid("a type in lower case", { ...complete.VPC_ENDPOINT_SERVICE, type: "vpc_endpoint_service" }, "request enums are closed and case-sensitive"),
    invalid("a description that is a number", { ...complete.VPC_ENDPOINT_SERVICE, description: 42 }, "description is a string"),
    invalid(
      "a vpcEndpointServiceName that is a number",
      { ...complete.VPC_ENDPOINT_SERVICE, vpcEndpointServiceName: 42 },
      "vpcEndpointServiceName is a string",
    ),
    invalid("a body that is an array", [complete.VPC_ENDPOINT_SERVICE], "the body is an object"),

    response.valid("an endpoint with the guaranteed fields only", envelope(endpoint), "only id, serviceId, type and status are guaranteed"),
    response.valid("an endpoint with every field", envelope(fullEndpoint), "endpoint fields as the seed types them"),
    response.valid("an unknown status", envelope({ ...endpoint, status: "Hibernating" }), "response enums are open: status may take new values"),
    response.valid("an unknown type", envelope({ ...endpoint, type: "PRIVATE_LINK" }), "response enums are open: type may take new values"),
    response.valid("an unknown kafkaAuthentication", envelope({ ...endpoint, kafkaAuthentication: "SASL_OAUTHBEARER" }), "response enums are open"),
    response.valid("kafkaAuthentication null", envelope({ ...endpoint, kafkaAuthentication: null }), "kafkaAuthentication is a string or null in responses"),
    response.valid("unknown fields", envelope({ ...endpoint, region: "eu-west-1" }), "responses are open: clients ignore unknown fields"),
    ...["id", "serviceId", "type", "status"].map((field) =>
      response.invalid(`an endpoint without ${field}`, envelope(without(endpoint, field)), `${field} is always present`),
    ),
    response.invalid("an id that is not a uuid", envelope({ ...endpoint, id: "rpe-1" }), "id is a uuid"),
    response.invalid("a status that is a number", envelope({ ...endpoint, status: 1 }), "status is a string"),
    response.invalid("dnsNames as a string", envelope({ ...endpoint, dnsNames: "a.example.com" }), "dnsNames is an array of string"),
    response.invalid(
      "a vpcEndpointServiceName that is a number",
      envelope({ ...endpoint, vpcEndpointServiceName: 1 }),
      "vpcEndpointServiceName is a string or null",
    ),
  ];
}

function getPipe() {
  const operation = "getPipe";
  const { valid, invalid } = vectorsOf(operation, "response");
  const pipe = { id: pipeId, serviceId, name: "clickstream-from-kafka", state: "Running" };
  const fullPipe = {
    ...pipe,
    scaling: { replicas: 2, concurrency: 4, replicaCpuMillicores: 500, replicaMemoryGb: 0.5 },
    source: {
      objectStorage: {
        url: "s3://landing/events/*.json.gz",
        delimiter: ",",
        compression: "gzip",
        isContinuous: true,
        queueUrl: "https://sqs.eu-west-1.amazonaws.com/123456789012/landing",
        iamRole: "arn:aws:iam::123456789012:role/ingestion-reader",
        connectionString: "",
        path: "events/",
        azureContainerName: "",
      },
    },
    destination: {
      database: "analytics",
      table: "events",
      managedTable: true,
      tableDefinition: { engine: { versionColumnId: "updated_at", columnIds: ["id"] }, sortingKey: ["id"], partitionBy: "toYYYYMM(ts)", primaryKey: "id" },
      columns: [{ name: "id", type: "String" }],
    },
    fieldMappings: [{ sourceField: "id", destinationField: "id" }],
    settings: { ...defaultSettings, streaming_max_insert_wait_ms: 5000 },
    createdAt: "2025-06-01T08:15:00Z",
    updatedAt: "2025-11-02T17:40:12.250+01:00",
  };
  const sources = {
    logStream: {
      brokers: "b-1:9096",
      topics: "clickstream",
      consumerGroup: "g",
      iamRole: "r",
      offset: { timestamp: "2025-06-01T00:00:00Z" },
      schemaRegistry: { url: "https://r", caCertificate: "c" },
      caCertificate: "c",
      reversePrivateEndpointIds: ["x"],
    },
    shardStream: { streamName: "events", region: "eu-west-1", useEnhancedFanOut: false, timestamp: 1735689600, iamRole: "r" },
    relationalDb: {
      host: "db.internal",
      port: 5432,
      database: "app",
      settings: {
        syncIntervalSeconds: 60,
        pullBatchSize: 1000,
        publicationName: "p",
        replicationSlotName: "s",
        allowNullableColumns: true,
        initialLoadParallelism: 4,
        snapshotNumRowsPerPartition: 100000,
        snapshotNumberOfParallelTables: 2,
        enableFailoverSlots: false,
      },
      tableMappings: [
        {
          sourceSchemaName: "public",
          sourceTable: "orders",
          targetTable: "orders",
          excludedColumns: ["secret"],
          useCustomSortingKey: true,
          sortingKeys: ["id"],
        },
      ],
    },
  };
  return [
    ...pathParamVectors(operation, ["organizationId", "serviceId", "pipeId"]),
    valid("a pipe with the guaranteed fields only", envelope(pipe), "only id, serviceId, name and state are guaranteed"),
    valid("an object-storage pipe with every field", envelope(fullPipe), "Pipe fields as the seed types them"),
    ...Object.entries(sources).map(([kind, source]) =>
      valid(`a ${kind} pipe`, envelope({ ...pipe, source: { [kind]: source } }), `source.${kind} fields as the seed types them`),
    ),
    valid("a source with no sub-object", envelope({ ...pipe, source: {} }), "no source sub-object is guaranteed"),
    valid(
      "a source with two sub-objects",
      envelope({ ...pipe, source: { shardStream: sources.shardStream, relationalDb: sources.relationalDb } }),
      "clients accept any subset of source sub-objects",
    ),
    valid("an unknown state", envelope({ ...pipe, state: "Hibernating" }), "response enums are open: state may take new values"),
    valid(
      "an unknown compression",
      envelope({ ...pipe, source: { objectStorage: { compression: "lz4" } } }),
      "response enums are open: compression may take new values",
    ),
    valid("settings all null", envelope({ ...pipe, settings: defaultSettings }), "null means the service default"),
    valid(
      "unknown fields in the pipe, its source and its settings",
      envelope({ ...pipe, owner: "team-a", source: { kafkaConnect: {} }, settings: { ...defaultSettings, engine_new_knob: 1 } }),
      "responses are open: clients ignore unknown fields",
    ),
    ...["id", "serviceId", "name", "state"].map((field) => invalid(`a pipe without ${field}`, envelope(without(pipe, field)), `${field} is always present`)),
    invalid("a state that is a number", envelope({ ...pipe, state: 3 }), "state is a string"),
    valid("settings empty", envelope({ ...pipe, settings: {} }), "no setting is guaranteed: a real pipe answers settings: {}"),
    valid(
      "a log-stream pipe with the real service's nulls",
      envelope({
        ...pipe,
        source: {
          logStream: {
            brokers: "b-1:9092",
            topics: "orders",
            consumerGroup: null,
            iamRole: null,
            offset: null,
            schemaRegistry: null,
            caCertificate: null,
            reversePrivateEndpointIds: null,
          },
          objectStorage: null,
          shardStream: null,
          relationalDb: null,
        },
        destination: { tableDefinition: { engine: { versionColumnId: null } } },
      }),
      "each source sub-object may be null, and so may its optional fields where the real service sends null",
    ),
    valid(
      "an object-storage pipe with the real service's nulls",
      envelope({
        ...pipe,
        source: {
          objectStorage: {
            url: "s3://b/*",
            delimiter: null,
            compression: null,
            isContinuous: null,
            queueUrl: null,
            iamRole: null,
            connectionString: null,
            path: null,
            azureContainerName: null,
          },
        },
      }),
      "objectStorage fields other than url may be null",
    ),
    valid(
      "a shard-stream pipe with the real service's nulls",
      envelope({ ...pipe, source: { shardStream: { streamName: "s", region: "eu-west-1", useEnhancedFanOut: null, timestamp: null, iamRole: null } } }),
      "shardStream fields other than streamName and region may be null",
    ),
    valid(
      "source sub-objects that are null",
      envelope({ ...pipe, source: { objectStorage: null, shardStream: null, relationalDb: null } }),
      "a source sub-object may be null",
    ),
    valid(
      "offset and schema registry with null inside",
      envelope({ ...pipe, source: { logStream: { offset: { timestamp: null }, schemaRegistry: { url: "https://r", caCertificate: null } } } }),
      "offset.timestamp and schemaRegistry.caCertificate may be null",
    ),
    invalid("logStream.brokers null", envelope({ ...pipe, source: { logStream: { brokers: null } } }), "brokers is a string: never null"),
    invalid("relationalDb.port null", envelope({ ...pipe, source: { relationalDb: { port: null } } }), "relationalDb fields are never null"),
    invalid("a source sub-object that is a string", envelope({ ...pipe, source: { logStream: "kafka" } }), "a source sub-object is an object or null"),
    invalid("compression a number", envelope({ ...pipe, source: { objectStorage: { compression: 1 } } }), "compression is a string or null"),
    invalid(
      "settings with engine_max_threads 65",
      envelope({ ...pipe, settings: { ...defaultSettings, engine_max_threads: 65 } }),
      "response settings keep the seed's bounds: engine_max_threads is 0..64",
    ),
    invalid("scaling.replicas as a string", envelope({ ...pipe, scaling: { replicas: "2" } }), "scaling.replicas is a number"),
    invalid(
      "shardStream.timestamp as a date string",
      envelope({ ...pipe, source: { shardStream: { timestamp: "2025-01-01T00:00:00Z" } } }),
      "shardStream.timestamp is a number (Unix seconds)",
    ),
    invalid("fieldMappings as an object", envelope({ ...pipe, fieldMappings: { sourceField: "id" } }), "fieldMappings is an array"),
    invalid("destination.managedTable as a string", envelope({ ...pipe, destination: { managedTable: "yes" } }), "destination.managedTable is a boolean"),
    invalid("a pipe id that is not a uuid", envelope({ ...pipe, id: "pipe-1" }), "Pipe.id is a uuid"),
  ];
}

/** The settings of a response (GET, and the result of PUT): none guaranteed; each one present is its type within bounds, or null. */
function settingsResponseVectors(operation) {
  const { valid, invalid } = vectorsOf(operation, "response");
  return [
    valid("every setting null", envelope(defaultSettings), "each setting is its type or null; null is the service default"),
    valid(
      "every integer setting at its minimum",
      envelope({ ...defaultSettings, ...Object.fromEntries(integerSettings.map(([n, min]) => [n, min])) }),
      "bounds are inclusive",
    ),
    valid(
      "every integer setting at its maximum",
      envelope({ ...defaultSettings, ...Object.fromEntries(integerSettings.map(([n, , max]) => [n, max])) }),
      "bounds are inclusive",
    ),
    valid(
      "every boolean setting set",
      envelope({ ...defaultSettings, ...Object.fromEntries(booleanSettings.map((name) => [name, true])) }),
      "boolean settings are booleans or null",
    ),
    valid("an unknown setting", envelope({ ...defaultSettings, engine_new_knob: 1 }), "responses are open: clients ignore unknown fields"),
    valid("no setting at all", envelope({}), "no setting is guaranteed: a real pipe answers {}"),
    valid("only engine_max_threads", envelope({ engine_max_threads: 8 }), "no setting is guaranteed: a present one keeps its type and bounds"),
    ...settingNames.map((name) => valid(`settings without ${name}`, envelope(without(defaultSettings, name)), "no setting is guaranteed")),
    invalid("only engine_max_threads, at 65", envelope({ engine_max_threads: 65 }), "a present setting keeps its bounds: engine_max_threads is 0..64"),
    ...integerSettings.flatMap(([name, min, max]) => [
      invalid(`${name} below its minimum`, envelope({ ...defaultSettings, [name]: min - 1 }), `${name} is ${min}..${max} in responses too`),
      invalid(`${name} above its maximum`, envelope({ ...defaultSettings, [name]: max + 1 }), `${name} is ${min}..${max} in responses too`),
    ]),
    invalid("a setting as a string", envelope({ ...defaultSettings, engine_max_threads: "8" }), "engine_max_threads is an integer or null"),
    invalid("an envelope without result", without(envelope(defaultSettings), "result"), "envelope A requires status, requestId and result"),
  ];
}

function getPipeSettings() {
  return [...pathParamVectors("getPipeSettings", ["organizationId", "serviceId", "pipeId"]), ...settingsResponseVectors("getPipeSettings")];
}

function updatePipeSettings() {
  const operation = "updatePipeSettings";
  const { valid, invalid } = vectorsOf(operation, "request");
  return [
    ...pathParamVectors(operation, ["organizationId", "serviceId", "pipeId"]),
    valid("an empty body", {}, "every field is optional: {} resets every setting to the service default"),
    valid("every setting null", defaultSettings, "null means the service default"),
    ...integerSettings.flatMap(([name, min, max]) => {
      const bounds = `${name} is an integer from ${min} to ${max} (inclusive) or null`;
      return [
        valid(`${name} at its minimum ${min}`, { [name]: min }, bounds),
        valid(`${name} at its maximum ${max}`, { [name]: max }, bounds),
        valid(`${name} null`, { [name]: null }, bounds),
        invalid(`${name} below its minimum`, { [name]: min - 1 }, bounds),
        invalid(`${name} above its maximum`, { [name]: max + 1 }, bounds),
        invalid(`${name} a fraction`, { [name]: min + 0.5 }, bounds),
        invalid(`${name} a numeric string`, { [name]: String(min) }, bounds),
        invalid(`${name} a boolean`, { [name]: true }, bounds),
      ];
    }),
    ...booleanSettings.flatMap((name) => [
      valid(`${name} true`, { [name]: true }, `${name} is a boolean or null`),
      valid(`${name} false`, { [name]: false }, `${name} is a boolean or null`),
      valid(`${name} null`, { [name]: null }, `${name} is a boolean or null`),
      invalid(`${name} the string "true"`, { [name]: "true" }, `${name} is a boolean or null`),
      invalid(`${name} the number 1`, { [name]: 1 }, `${name} is a boolean or null`),
    ]),
    invalid("a misspelt setting", { streaming_max_insert_wait: 5000 }, "requests are closed: unknown fields are rejected"),
    invalid("a body that is an array", [], "the body is an object"),
    ...settingsResponseVectors(operation),
  ];
}

const operations = [listServices, createReversePrivateEndpoint, getPipe, getPipeSettings, updatePipeSettings];
const gatewayError = { errorBody: { status: 503, error: "Service Unavailable", requestId }, requiredField: "error" };

export const vectors = operations.flatMap((operation) => [...operation(), ...gatewayVectors(operation.name, gatewayError)]);
