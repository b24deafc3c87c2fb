// The curl commands `npm start` and `npm run mock` print: each block works as pasted into a POSIX shell. Against
// the sandbox they show state: a create followed by a read, a replacement read back, and a 400 naming the field.
// Bodies are the operations' own examples; the bad setting is one above its maximum in the spec.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { jsonMedia, operationsOf, resolveRef } from "../../src/contract/openapi.js";
import { curlSample } from "./code-samples.mjs";
import { root } from "./toolchain.mjs";

const bundles = Object.fromEntries(
  ["management", "alerts"].map((api) => [api, JSON.parse(readFileSync(join(root, "generated", "openapi", `${api}.json`), "utf8"))]),
);

function curl(api, operationId, baseUrl, options = {}) {
  const entry = operationsOf(bundles[api]).find(({ operation }) => operation.operationId === operationId);
  return curlSample(bundles[api], entry, { baseUrl, sandboxCredentials: true, newline: true, ...options });
}

/** The first named example of an operation's request body that passes `test`. */
function requestExample(api, operationId, test) {
  const { operation } = operationsOf(bundles[api]).find((entry) => entry.operationId === operationId);
  const examples = Object.values(jsonMedia(bundles[api], operation.requestBody).examples).map((example) => resolveRef(bundles[api], example).value);
  const found = examples.find(test);
  if (!found) throw new Error(`${operationId} has no request example for the tour`);
  return found;
}

/** The settings the sandbox starts with on the example pipe: those of the getPipe example. */
function examplePipeSettings() {
  const { operation } = operationsOf(bundles.management).find((entry) => entry.operationId === "getPipe");
  const [first] = Object.values(jsonMedia(bundles.management, operation.responses["200"]).examples);
  return resolveRef(bundles.management, first).value.result.settings ?? {};
}

/** One field of the settings update past its maximum, e.g. `{ engine_max_threads: 65 }`. */
function settingAboveMaximum() {
  const { operation } = operationsOf(bundles.management).find((entry) => entry.operationId === "updatePipeSettings");
  const schema = resolveRef(bundles.management, jsonMedia(bundles.management, operation.requestBody).schema);
  for (const [name, property] of Object.entries(schema.properties)) {
    const { maximum } = resolveRef(bundles.management, property);
    if (typeof maximum === "number" && name.startsWith("engine_")) return { [name]: maximum + 1 };
  }
  throw new Error("no bounded engine setting in the settings update");
}

// Reads the created resource's id from the JSON answer on stdin; Node is there wherever npm start runs.
const idOf = (field) => `node -pe 'JSON.parse(require("fs").readFileSync(0, "utf8")).${field}.id'`;
const indent = (command) => `  ${command.replaceAll("\n", "\n  ")}`;
const block = (title, commands) => `${title}\n${commands.map(indent).join("\n")}`;
const placeholder = "__created_id__";
// The id is a shell variable: the quoted URL is closed around it.
const withId = (command) => command.replace(placeholder, `'"$id"'`);

/** The blocks printed by `npm start`: the proxies in front of the sandbox, and the sandbox's own read of an endpoint. */
export function sandboxTour(managementUrl, alertsUrl, sandboxUrl) {
  const kafka = requestExample("management", "createReversePrivateEndpoint", (body) => body.type === "KAFKA_MULTI_VPC");
  // A replacement the read shows: settings other than those the pipe starts with.
  const current = JSON.stringify(examplePipeSettings());
  const settings = requestExample("management", "updatePipeSettings", (body) => Object.keys(body).length > 0 && JSON.stringify(body) !== current);
  return [
    block("Try the sandbox: create a KAFKA_MULTI_VPC endpoint, then read it back (the contract has no read of an endpoint; the sandbox's own route does it)", [
      `id=$(${curl("management", "createReversePrivateEndpoint", managementUrl, { body: kafka })} | ${idOf("result")})`,
      `curl -sS -w '\\n' --fail-with-body "${sandboxUrl}/_sandbox/reversePrivateEndpoints/$id"`,
    ]),
    block("Try the settings: replace them, then read them back (also in GET of the pipe)", [
      curl("management", "updatePipeSettings", managementUrl, { body: settings }),
      curl("management", "getPipeSettings", managementUrl),
    ]),
    block("Try a setting out of bounds: 400, naming it", [
      curl("management", "updatePipeSettings", managementUrl, { body: settingAboveMaximum(), failWithBody: false }),
    ]),
    block("Try the alerts: create one, then read it back", [
      `id=$(${curl("alerts", "createAlert", alertsUrl)} | ${idOf("data")})`,
      withId(curl("alerts", "getAlert", alertsUrl, { url: `/api/v2/alerts/${placeholder}` })),
    ]),
  ];
}

/** The blocks printed by `npm run mock`: one call per static mock. */
export function staticMockTour(managementUrl, alertsUrl) {
  return [
    block("Try the management mock:", [curl("management", "getPipeSettings", managementUrl)]),
    block("Try the alerts mock:", [curl("alerts", "getAlert", alertsUrl)]),
  ];
}
