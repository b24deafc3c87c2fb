// Test vectors of the alerting interface. On purpose, this is the one place that states the seed's facts a
// second time, from the seed and openapi/DECISIONS.md and never read from the spec: everything else derives
// from the spec, and the spec is held to these. A vector whose verdict the bundle does not reach is a contract
// bug (or a vector bug) either way.
import { gatewayVectors, vectorsOf, without } from "./vector.mjs";

const alertId = "65f1c2d3e4b5a69788796a5b";
const dashboardId = "65f1c2d3e4b5a69788796a10";
const webhookId = "65f1c2d3e4b5a69788796a20";
const savedSearchId = "65f1c2d3e4b5a69788796a30";
const channel = { type: "webhook", webhookId };
const intervals = ["1m", "5m", "15m", "30m", "1h", "6h", "12h", "1d"];
const objectIdRule = "IDs are 24 lower-case hexadecimal characters";

const tileAlert = { source: "tile", dashboardId, tileId: "error-rate", threshold: 100, thresholdType: "above", interval: "5m", channel };
const searchAlert = { source: "search", savedSearchId, threshold: 1, thresholdType: "below", interval: "1h", channel };

function createAlertRequest() {
  const { valid, invalid } = vectorsOf("createAlert", "request");
  const perSource = [
    ["tile", tileAlert, "source tile requires dashboardId and tileId"],
    ["search", searchAlert, "source search requires savedSearchId"],
  ].flatMap(([source, alert, requires]) => [
    valid(`a ${source} alert`, alert, requires),
    valid(
      `a ${source} alert with a name and a message`,
      { ...alert, name: "Error rate too high", message: "More than 100 errors." },
      "name and message are optional",
    ),
    ...Object.keys(alert).map((field) => invalid(`a ${source} alert without ${field}`, without(alert, field), `${field} is required for source ${source}`)),
    ...intervals.map((interval) => valid(`a ${source} alert every ${interval}`, { ...alert, interval }, `interval is one of ${intervals.join(", ")}`)),
    invalid(`a ${source} alert with an unknown field`, { ...alert, severity: "high" }, "requests are closed: unknown fields are rejected"),
  ]);

  return [
    ...perSource,
    ...["7m", "5 m", "5M", "300s", ""].map((interval) =>
      invalid(`interval ${JSON.stringify(interval)}`, { ...tileAlert, interval }, `interval is one of ${intervals.join(", ")}`),
    ),
    valid("thresholdType below", { ...tileAlert, thresholdType: "below" }, "thresholdType is above or below"),
    invalid("thresholdType equal", { ...tileAlert, thresholdType: "equal" }, "thresholdType is above or below"),
    invalid("source metric", { ...tileAlert, source: "metric" }, "source is tile or search"),
    invalid("source in upper case", { ...tileAlert, source: "TILE" }, "request enums are closed and case-sensitive"),
    valid("a negative fractional threshold", { ...tileAlert, threshold: -2.5 }, "threshold is any number"),
    valid("a zero threshold", { ...tileAlert, threshold: 0 }, "threshold is any number"),
    invalid("a threshold as a string", { ...tileAlert, threshold: "100" }, "threshold is a number"),
    invalid("a threshold null", { ...tileAlert, threshold: null }, "threshold is a number"),
    invalid("channel type email", { ...tileAlert, channel: { ...channel, type: "email" } }, "channel.type is webhook"),
    invalid("channel without webhookId", { ...tileAlert, channel: { type: "webhook" } }, "channel requires type and webhookId"),
    invalid("channel without type", { ...tileAlert, channel: { webhookId } }, "channel requires type and webhookId"),
    invalid(
      "channel type null",
      { ...tileAlert, channel: { type: null, webhookId } },
      "a request's channel.type is webhook; null is only what a legacy alert may carry in a response",
    ),
    invalid(
      "channel with an unknown field",
      { ...tileAlert, channel: { ...channel, url: "https://example.com/hook" } },
      "requests are closed: unknown fields are rejected",
    ),
    invalid("channel as a string", { ...tileAlert, channel: webhookId }, "channel is an object"),
    invalid("webhookId in upper case", { ...tileAlert, channel: { ...channel, webhookId: webhookId.toUpperCase() } }, objectIdRule),
    invalid("webhookId of 23 characters", { ...tileAlert, channel: { ...channel, webhookId: webhookId.slice(1) } }, objectIdRule),
    invalid("webhookId of 25 characters", { ...tileAlert, channel: { ...channel, webhookId: `${webhookId}0` } }, objectIdRule),
    invalid("webhookId with a non-hex letter", { ...tileAlert, channel: { ...channel, webhookId: `g${webhookId.slice(1)}` } }, objectIdRule),
    invalid("dashboardId in upper case", { ...tileAlert, dashboardId: dashboardId.toUpperCase() }, objectIdRule),
    invalid("dashboardId of 23 characters", { ...tileAlert, dashboardId: dashboardId.slice(1) }, objectIdRule),
    invalid("savedSearchId not an ID", { ...searchAlert, savedSearchId: "errors-last-hour" }, objectIdRule),
    invalid("an empty tileId", { ...tileAlert, tileId: "" }, "tileId is a non-empty string"),
    invalid("a tileId as a number", { ...tileAlert, tileId: 7 }, "tileId is a string"),
    valid("a tile alert with savedSearchId null", { ...tileAlert, savedSearchId: null }, "a field of the other source may be sent as null"),
    invalid("a tile alert that also names a saved search", { ...tileAlert, savedSearchId }, "source tile: savedSearchId must be absent or null"),
    valid(
      "a search alert with dashboardId and tileId null",
      { ...searchAlert, dashboardId: null, tileId: null },
      "fields of the other source may be sent as null",
    ),
    invalid("a search alert that also names a dashboard", { ...searchAlert, dashboardId }, "source search: dashboardId must be absent or null"),
    invalid("a search alert that also names a tile", { ...searchAlert, tileId: "error-rate" }, "source search: tileId must be absent or null"),
    valid("a name of 1 character", { ...tileAlert, name: "n" }, "name is 1 to 512 characters"),
    valid("a name of 512 characters", { ...tileAlert, name: "n".repeat(512) }, "name is 1 to 512 characters"),
    invalid("an empty name", { ...tileAlert, name: "" }, "name is 1 to 512 characters"),
    invalid("a name of 513 characters", { ...tileAlert, name: "n".repeat(513) }, "name is 1 to 512 characters"),
    invalid("a name as a number", { ...tileAlert, name: 1 }, "name is a string or null"),
    valid("a name and a message null", { ...tileAlert, name: null, message: null }, "name and message are nullish: null means none"),
    valid("a message of 4096 characters", { ...tileAlert, message: "m".repeat(4096) }, "message is 1 to 4096 characters"),
    invalid("an empty message", { ...tileAlert, message: "" }, "message is 1 to 4096 characters"),
    invalid("a message of 4097 characters", { ...tileAlert, message: "m".repeat(4097) }, "message is 1 to 4096 characters"),
    valid("a search alert grouped by a field", { ...searchAlert, groupBy: "service.name" }, "a search alert may carry groupBy"),
    valid("a search alert with groupBy null", { ...searchAlert, groupBy: null }, "groupBy is a string or null"),
    invalid("a search alert with groupBy a number", { ...searchAlert, groupBy: 1 }, "groupBy is a string or null"),
    valid("a tile alert with groupBy null", { ...tileAlert, groupBy: null }, "groupBy belongs to search alerts: a tile alert may send it only as null"),
    invalid(
      "a tile alert grouped by a field",
      { ...tileAlert, groupBy: "service.name" },
      "groupBy belongs to search alerts: a tile alert may send it only as null",
    ),
    invalid("a body that is an array", [tileAlert], "the body is an object"),
  ];
}

/** The alert envelope `{data: Alert}` both operations answer with. */
function alertResponse(operation) {
  const { valid, invalid } = vectorsOf(operation, "response");
  // What the description does not guarantee and the real service may leave out: name, message (0.3.0: its own
  // published examples leave them out) and channel (0.3.0: left out when a legacy channel no longer resolves).
  const required = {
    id: alertId,
    threshold: 100,
    interval: "5m",
    thresholdType: "above",
    source: "tile",
    state: "inactive",
    createdAt: "2025-01-01T10:20:30.000Z",
    updatedAt: "2025-01-01T10:20:30.000Z",
  };
  const usual = { ...required, name: null, message: null, channel };
  const tile = {
    ...usual,
    name: "Error rate too high",
    message: "More than 100 errors.",
    team: "65f1c2d3e4b5a69788796a00",
    tileId: "error-rate",
    dashboard: dashboardId,
    silenced: false,
  };
  const search = { ...usual, source: "search", state: "active", savedSearch: savedSearchId, groupBy: "service", silenced: true };
  return [
    valid("a tile alert", { data: tile }, "Alert fields as the seed types them"),
    valid("a search alert", { data: search }, "Alert fields as the seed types them"),
    valid("name and message null", { data: usual }, "name and message are a string or null"),
    valid(
      "the guaranteed fields only: no name, message or channel",
      { data: required },
      "id, threshold, interval, thresholdType, source, state, createdAt and updatedAt are always present; name, message and channel may be left out",
    ),
    valid(
      "a legacy channel of type null",
      { data: { ...required, channel: { type: null } } },
      "a legacy channel that no longer resolves may come as {type: null}",
    ),
    valid("an unknown state", { data: { ...required, state: "snoozed" } }, "response enums are open: state may take new values"),
    valid("an unknown interval", { data: { ...required, interval: "2h" } }, "response enums are open: interval may take new values"),
    valid("an unknown thresholdType", { data: { ...required, thresholdType: "outside" } }, "response enums are open"),
    valid("an unknown source", { data: { ...required, source: "metric" } }, "response enums are open"),
    valid("an unknown channel type", { data: { ...required, channel: { type: "email", webhookId } } }, "response enums are open"),
    invalid("a channel type that is a number", { data: { ...required, channel: { type: 1, webhookId } } }, "channel.type is a string or null"),
    valid(
      "unknown fields in the envelope and the alert",
      { data: { ...required, severity: "high" }, meta: {} },
      "responses are open: clients ignore unknown fields",
    ),
    invalid("no data", {}, "envelope B requires data"),
    ...Object.keys(required).map((field) => invalid(`an alert without ${field}`, { data: without(required, field) }, `${field} is always present`)),
    invalid("silenced as a string", { data: { ...required, silenced: "no" } }, "silenced is a boolean"),
    invalid("a threshold as a string", { data: { ...required, threshold: "100" } }, "threshold is a number"),
    invalid("a state that is a number", { data: { ...required, state: 1 } }, "state is a string"),
    invalid("a channel that is a string", { data: { ...required, channel: webhookId } }, "channel is an object"),
    invalid("a name that is a number", { data: { ...required, name: 1 } }, "name is a string or null"),
    valid(
      "tileId, dashboard, savedSearch and groupBy null",
      { data: { ...required, tileId: null, dashboard: null, savedSearch: null, groupBy: null } },
      "the real service sends null for the source-specific fields of the other source",
    ),
    invalid("a groupBy that is a number", { data: { ...required, groupBy: 1 } }, "groupBy is a string or null"),
    invalid("an id that is a number", { data: { ...required, id: 1 } }, "id is a string"),
  ];
}

function getAlertParams() {
  const { valid, invalid } = vectorsOf("getAlert", "params");
  return [
    valid("a 24-hex id", { id: alertId }, objectIdRule),
    invalid("no id", {}, "id is a required path parameter"),
    invalid("an id in upper case", { id: alertId.toUpperCase() }, objectIdRule),
    invalid("an id of 23 characters", { id: alertId.slice(1) }, objectIdRule),
    invalid("an id of 25 characters", { id: `${alertId}0` }, objectIdRule),
    invalid("an id that is a uuid", { id: "7b1e3f0a-5c2d-4e8f-9a6b-1c3d5e7f9a0b" }, objectIdRule),
    invalid("an id that is a number", { id: 42 }, "id is a string"),
  ];
}

const gatewayError = { errorBody: { message: "Service Unavailable" }, requiredField: "message" };

export const vectors = [
  ...createAlertRequest(),
  ...alertResponse("createAlert"),
  ...gatewayVectors("createAlert", gatewayError),
  ...getAlertParams(),
  ...alertResponse("getAlert"),
  ...gatewayVectors("getAlert", gatewayError),
];
