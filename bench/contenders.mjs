// The clients compared, each reduced to `get()` and `put()` resolving to the settings resource: raw fetch as a
// careful hand-written client would use it, with and without a per-call AbortController and timer (the
// guarantee the SDK gives each attempt), and the peers a user would pick instead, each used the way its own
// documentation shows: same server, path, headers and authorization, the body parsed as JSON by each.
// Keep-alive is alike for all: every one of them sends through the runtime's global fetch.
import { existsSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import { organizationId, pipeId, serviceId, settings, settingsPath, settingsTemplate } from "./fixtures.mjs";

/** The credentials every contender sends; the canned server refuses a request without them. */
export const keyId = "bench-key-id";
export const keySecret = "bench-key-secret";
export const authorization = `Basic ${btoa(`${keyId}:${keySecret}`)}`;
// What raw fetch sends, with and without the timer: the headers a careful hand-written client sets.
const getHeaders = { authorization, accept: "application/json" };
const putHeaders = { ...getHeaders, "content-type": "application/json" };
const distEntry = fileURLToPath(new URL("../dist/index.js", import.meta.url));
// ky 2 and openai 7 need Node 22; on Node 20 the newest release that supports it (package.json aliases).
const onNode20 = process.versions.node.startsWith("20.");

/** The SDK's per-call figures are divided by this contender's, in the same block. */
export const baseline = "raw fetch + AbortController/timer";
/** The SDK with validation on: the one the targets are about. */
export const sdkName = "SDK, validation on";
/** The contenders that are neither raw fetch nor this SDK: none may beat the SDK by more than the margin. */
// openapi-fetch and ofetch with the bound on each call that the SDK and the baseline give (their own ways to set one),
// so that no peer is ahead for doing less; ky and openai bound each call by default, @octokit/request has no option.
export const peerNames = ["openapi-fetch + AbortSignal.timeout", "ofetch + timeout", "ky", "@octokit/request", "openai (generic get/put)"];

/**
 * The baseline's calls measured as a contender beside the baseline: the same code, so its ratio would be 1 if the
 * method were exact. How far it is from 1 in a run is the error of that run's ratios.
 */
export const selfCheckName = "the baseline again (A/A)";

/** The baseline's calls: raw fetch with what a hand-written client pays for an abortable timeout on each call, as the SDK has on each attempt. */
export function baselineCalls(baseUrl) {
  const url = baseUrl + settingsPath;
  const withTimeout = async (init) => {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), 60_000);
    try {
      return JSON.parse(await (await fetch(url, { ...init, signal: controller.signal })).text()).result;
    } finally {
      clearTimeout(timer);
    }
  };
  return {
    get: () => withTimeout({ method: "GET", headers: getHeaders }),
    put: () => withTimeout({ method: "PUT", headers: putHeaders, body: JSON.stringify(settings) }),
  };
}

export async function createContenders(baseUrl) {
  if (!existsSync(distEntry)) throw new Error("bench: dist/index.js is missing; run `npm run build` (or `npm run compile`) first");
  const { createManagementClient } = await import(pathToFileURL(distEntry).href);
  const { default: createClient } = await import("openapi-fetch");
  const { ofetch } = await import("ofetch");
  const { default: ky } = await import(onNode20 ? "ky-node20" : "ky");
  const { request } = await import("@octokit/request");
  const { default: OpenAI } = await import(onNode20 ? "openai-node20" : "openai");

  const url = baseUrl + settingsPath;
  const rawFetch = {
    get: async () => JSON.parse(await (await fetch(url, { method: "GET", headers: getHeaders })).text()).result,
    put: async () => JSON.parse(await (await fetch(url, { method: "PUT", headers: putHeaders, body: JSON.stringify(settings) })).text()).result,
  };

  const client = createClient({ baseUrl, headers: { authorization } });
  const path = { organizationId, serviceId, pipeId };
  const openapiFetch = {
    get: async () => (await client.GET(settingsTemplate, { params: { path }, signal: AbortSignal.timeout(60_000) })).data.result,
    put: async () => (await client.PUT(settingsTemplate, { params: { path }, body: settings, signal: AbortSignal.timeout(60_000) })).data.result,
  };

  const ofetchClient = ofetch.create({ baseURL: baseUrl, headers: { authorization }, timeout: 60_000 });
  const ofetchCalls = {
    get: async () => (await ofetchClient(settingsPath)).result,
    put: async () => (await ofetchClient(settingsPath, { method: "PUT", body: settings })).result,
  };

  const kyClient = ky.create(onNode20 ? { prefixUrl: baseUrl, headers: { authorization } } : { baseUrl, headers: { authorization } });
  const kyPath = onNode20 ? settingsPath.slice(1) : settingsPath;
  const kyCalls = {
    get: async () => (await kyClient.get(kyPath).json()).result,
    put: async () => (await kyClient.put(kyPath, { json: settings }).json()).result,
  };

  const octokit = request.defaults({ baseUrl, headers: { authorization } });
  const octokitCalls = {
    get: async () => (await octokit(`GET ${settingsTemplate}`, path)).data.result,
    put: async () => (await octokit(`PUT ${settingsTemplate}`, { ...path, data: settings })).data.result,
  };

  // The Stainless-generated client's generic verbs, as a user would call an endpoint it has no method for.
  const openai = new OpenAI({ apiKey: "unused", baseURL: baseUrl, defaultHeaders: { authorization } });
  const openaiCalls = {
    get: async () => (await openai.get(settingsPath)).result,
    put: async () => (await openai.put(settingsPath, { body: settings })).result,
  };

  const sdk = (validateRequests) => {
    // The canned server has no rate limit: the queue off, as a user's test against a local server would have it.
    const { pipes } = createManagementClient({ baseUrl, keyId, keySecret, organizationId, validateRequests, rateLimit: false });
    const ids = { serviceId, pipeId };
    return { get: () => pipes.getSettings(ids), put: () => pipes.updateSettings(ids, settings) };
  };

  return [
    { name: "raw fetch", calls: rawFetch },
    { name: baseline, calls: baselineCalls(baseUrl) },
    { name: peerNames[0], calls: openapiFetch },
    { name: peerNames[1], calls: ofetchCalls },
    { name: peerNames[2], calls: kyCalls },
    { name: peerNames[3], calls: octokitCalls },
    { name: peerNames[4], calls: openaiCalls },
    { name: sdkName, calls: sdk(true) },
    { name: "SDK, validation off", calls: sdk(false) },
    { name: selfCheckName, calls: baselineCalls(baseUrl) },
  ];
}
