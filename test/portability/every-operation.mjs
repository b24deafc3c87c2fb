// A consumer's ES module that calls each of the seven operations once through the installed package, imported by
// name, against a sandbox over a real socket, plus the failures a user meets: a 404 of each interface as
// NotFoundError, and a body each interface's validator refuses before sending. Plain JavaScript with no `node:`
// import, so Deno and Bun (test/portability/deno-bun.test.ts) run it as they run a user's app, and Node too.
// It checks nothing itself: it prints one JSON line, each call's result or error by name, and the test compares
// those with what the sandbox holds. `instanceof` is the one check made here, where the runtime's classes are.
// Usage: <runtime> every-operation.mjs '<JSON of the sandbox URL, its credentials, the IDs and the bodies>'
import * as sdk from "ingestion-api";

const input = JSON.parse(globalThis.process?.argv?.at(-1) ?? globalThis.Deno?.args?.at(-1) ?? "{}");
const { url, credentials, organizationId, pipe, filter, endpoint, settings, alert, missingPipeId, missingAlertId } = input;

/** The runtime the calls run in, as it names itself: the test checks it is the one it started. */
const runtime = globalThis.Deno
  ? `deno ${globalThis.Deno.version.deno}`
  : globalThis.Bun
    ? `bun ${globalThis.Bun.version}`
    : `node ${globalThis.process.versions.node}`;

/** The error classes a failure is checked against, this runtime's copy of them. */
const { IngestionError, ApiError, NotFoundError, RequestValidationError } = sdk;
const classes = { IngestionError, ApiError, NotFoundError, RequestValidationError };

/** What a failed call threw, with its `instanceof` checks. */
function described(error) {
  return {
    name: error?.name,
    message: String(error?.message ?? error),
    status: error?.status,
    body: error?.body,
    requestId: error?.requestId,
    issues: error?.issues?.map(({ path, message }) => ({ path, message })),
    instanceOf: Object.keys(classes).filter((name) => error instanceof classes[name]),
  };
}

const results = {};
/** Runs one call, recording its value or its error under `label`: a failure never stops the calls after it. */
async function call(label, run) {
  try {
    results[label] = { value: await run() };
  } catch (error) {
    results[label] = { error: described(error) };
  }
  return results[label].value;
}

/** A fetch that counts what it is asked to send: the refused bodies must leave it at 0. */
let sent = 0;
const counting = (...args) => {
  sent += 1;
  return globalThis.fetch(...args);
};

const common = { baseUrl: url, maxRetries: 0, timeoutMs: 10_000 };
const management = createManagement();
const alerts = sdk.createAlertsClient({ ...common, token: credentials.token });
function createManagement(options = {}) {
  return sdk.createManagementClient({ ...common, keyId: credentials.keyId, keySecret: credentials.keySecret, organizationId, ...options });
}

await call("listServices", () => management.services.list({ filter }));
await call("createReversePrivateEndpoint", () => management.reversePrivateEndpoints.create({ serviceId: pipe.serviceId }, endpoint));
await call("getPipe", async () => {
  const { data, requestId, response } = await management.pipes.get(pipe).withResponse();
  return { data, requestId, status: response.status };
});
await call("getPipeSettings", () => management.pipes.getSettings(pipe));
await call("updatePipeSettings", () => management.pipes.updateSettings(pipe, settings));
await call("getPipeSettings after updatePipeSettings", () => management.pipes.getSettings(pipe));
const created = await call("createAlert", () => alerts.create(alert));
await call("getAlert", () => alerts.get(created?.id ?? "createAlert failed"));

await call("getPipe of an unknown pipe", () => management.pipes.get({ ...pipe, pipeId: missingPipeId }));
await call("getAlert of an unknown alert", () => alerts.get(missingAlertId));
const refusing = {
  management: createManagement({ fetch: counting }),
  alerts: sdk.createAlertsClient({ ...common, token: credentials.token, fetch: counting }),
};
await call("updatePipeSettings with a value out of bounds", () =>
  refusing.management.pipes.updateSettings(pipe, { ...settings, streaming_max_insert_wait_ms: 60_001 }),
);
await call("createAlert with an unknown interval", () => refusing.alerts.create({ ...alert, interval: "2m" }));

console.log(JSON.stringify({ runtime, results, sentByRefusingClients: sent }));
