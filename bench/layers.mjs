// `npm run bench:layers`: where the SDK's cost over the baseline sits, layer by layer, on the running Node (run
// it under another with `node bench/layers.mjs`). The same canned server and paired blocks as `npm run bench`,
// for GET only, with the request path built up one layer at a time:
//   sendCall          the SDK's sending alone (src/client/send-call.ts), sent a call as a typed call sends it;
//   SDK, validation off / on   the whole typed path, from src/ (bundled here as dist/ is, so it measures the same
//                     code): validation, the URL, sendCall, the mapping;
//   raw               the clients' `raw`: openapi-fetch's client, its Request read into the same sendCall.
// Each layer's ratio is to the baseline run right beside it. Prints a table; judges nothing.
import { fork } from "node:child_process";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";
import { callsPerSecond, interleavePairs, medianRatio, microsecondsPerCall } from "./blocks.mjs";
import { authorization, baselineCalls, keyId, keySecret } from "./contenders.mjs";
import { organizationId, pipeId, serviceId, settingsPath, settingsTemplate } from "./fixtures.mjs";

const plan = { blocks: 12, calls: 400, throughputCalls: 1280, inFlight: 64, warmup: 1000 };
const root = fileURLToPath(new URL("..", import.meta.url));
const bundle = fileURLToPath(new URL("../build/bench-layers.js", import.meta.url));
// sendCall is not exported by the package, so the layers are bundled from src/ with dist/'s settings.
await build({
  absWorkingDir: root,
  stdin: {
    contents:
      'export * from "./src/client/send-call.ts"; export { ownHeaders } from "./src/client/headers.ts"; export { credentialQueue } from "./src/client/credential-queue.ts"; export { processRateLimitStore } from "./src/client/memory-store.ts"; export { createManagementClient } from "./src/index.ts";',
    resolveDir: root,
    loader: "ts",
  },
  bundle: true,
  platform: "neutral",
  format: "esm",
  target: "es2022",
  keepNames: true,
  outfile: bundle,
  logLevel: "warning",
});
const sdk = await import(pathToFileURL(bundle).href);

const server = fork(fileURLToPath(new URL("canned-server.mjs", import.meta.url)), { stdio: "inherit" });
const { port } = await new Promise((resolve, reject) => server.once("message", resolve).once("error", reject));
try {
  const baseUrl = `http://127.0.0.1:${port}`;
  const url = baseUrl + settingsPath;
  const baseline = baselineCalls(baseUrl).get;

  const sender = {
    queue: sdk.credentialQueue(sdk.processRateLimitStore, "layers"),
    rateLimit: undefined,
    maxRateLimitWaitMs: 120_000,
    ownHeaders: sdk.ownHeaders(authorization, {}),
    fetch: globalThis.fetch,
    maxResponseBytes: 16 * 2 ** 20,
    requestIdField: "requestId",
    errorKey: "error",
    log: undefined,
    onQueued: undefined,
    onRequest: undefined,
    onResponse: undefined,
  };
  const policy = { label: "getPipeSettings", operationId: "getPipeSettings", timeoutMs: 60_000, maxRetries: 2 };
  const client = (validate) =>
    sdk.createManagementClient({ baseUrl, keyId, keySecret, organizationId, validateRequests: validate, validateResponses: validate, rateLimit: false });
  const [checked, unchecked] = [client(true), client(false)];
  const ids = { serviceId, pipeId };
  const path = { organizationId, serviceId, pipeId };
  const layers = {
    sendCall: async () => (await sdk.sendCall(sender, { method: "GET", url, body: undefined, headers: undefined, signal: undefined, policy })).body.json.result,
    "SDK, validation off": () => unchecked.pipes.getSettings(ids),
    "SDK, validation on": () => checked.pipes.getSettings(ids),
    raw: async () => (await unchecked.raw.GET(settingsTemplate, { params: { path } })).data.result,
  };

  for (const call of [baseline, ...Object.values(layers)]) {
    await microsecondsPerCall(call, plan.warmup);
    await callsPerSecond(call, plan.warmup, plan.inFlight);
  }
  const kinds = {
    "µs/call": async (call) => (await microsecondsPerCall(call, plan.calls)).wall,
    [`calls/s, ${plan.inFlight} in flight`]: async (call) => (await callsPerSecond(call, plan.throughputCalls, plan.inFlight)).wall,
  };
  const pairs = Object.entries(layers).flatMap(([name, call]) =>
    Object.entries(kinds).map(([kind, measure]) => [
      { key: `baseline ${kind} beside ${name}`, run: () => measure(baseline) },
      { key: `${name} ${kind}`, run: () => measure(call) },
    ]),
  );
  const samples = await interleavePairs(plan.blocks, pairs, () => globalThis.gc?.());
  const lines = [`GET on Node ${process.version}: ratio to raw fetch + AbortController/timer run beside it (median of ${plan.blocks} blocks)`, ""];
  lines.push(
    `| layer | ${Object.keys(kinds).join(" | ")} |`,
    `|---|${Object.keys(kinds)
      .map(() => "--:")
      .join("|")}|`,
  );
  for (const name of Object.keys(layers)) {
    const cells = Object.keys(kinds).map((kind) => `${medianRatio(samples, `${name} ${kind}`, `baseline ${kind} beside ${name}`).toFixed(2)}×`);
    lines.push(`| ${name} | ${cells.join(" | ")} |`);
  }
  console.log(lines.join("\n"));
} finally {
  server.disconnect();
}
