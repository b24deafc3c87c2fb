// The clients compared, each reduced to `get()` and `put()` resolving to the settings resource:
// raw fetch as a careful hand-written client would use it (also with a per-call timeout, the part of
// the SDK's policy that costs most), bare openapi-fetch, and this SDK (dist/).
import { existsSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import createClient from "openapi-fetch";
import { organizationId, pipeId, serviceId, settings, settingsPath, settingsTemplate } from "./fixtures.mjs";

const keyId = "bench-key-id";
const keySecret = "bench-key-secret";
const authorization = `Basic ${btoa(`${keyId}:${keySecret}`)}`;
const distEntry = fileURLToPath(new URL("../dist/index.js", import.meta.url));

export async function createContenders(baseUrl) {
  if (!existsSync(distEntry)) throw new Error("bench: dist/index.js is missing; run `npm run build` (or `npm run compile`) first");
  const { createManagementClient } = await import(pathToFileURL(distEntry).href);

  const url = baseUrl + settingsPath;
  const getHeaders = { authorization, accept: "application/json" };
  const putHeaders = { ...getHeaders, "content-type": "application/json" };
  const rawFetch = {
    get: async () => JSON.parse(await (await fetch(url, { method: "GET", headers: getHeaders })).text()).result,
    put: async () => JSON.parse(await (await fetch(url, { method: "PUT", headers: putHeaders, body: JSON.stringify(settings) })).text()).result,
  };

  // What a hand-written client pays for an abortable timeout on each call, as the SDK has on each attempt.
  const withTimeout = async (init) => {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), 60_000);
    try {
      return JSON.parse(await (await fetch(url, { ...init, signal: controller.signal })).text()).result;
    } finally {
      clearTimeout(timer);
    }
  };
  const rawFetchWithTimeout = {
    get: () => withTimeout({ method: "GET", headers: getHeaders }),
    put: () => withTimeout({ method: "PUT", headers: putHeaders, body: JSON.stringify(settings) }),
  };

  const client = createClient({ baseUrl, headers: { authorization } });
  const path = { organizationId, serviceId, pipeId };
  const openapiFetch = {
    get: async () => (await client.GET(settingsTemplate, { params: { path } })).data.result,
    put: async () => (await client.PUT(settingsTemplate, { params: { path }, body: settings })).data.result,
  };

  const sdk = (validateRequests) => {
    const { pipes } = createManagementClient({ baseUrl, keyId, keySecret, organizationId, validateRequests });
    const ids = { serviceId, pipeId };
    return { get: () => pipes.getSettings(ids), put: () => pipes.updateSettings(ids, settings) };
  };

  return [
    { name: "raw fetch + JSON.parse", calls: rawFetch },
    { name: "raw fetch + timeout", calls: rawFetchWithTimeout },
    { name: "bare openapi-fetch", calls: openapiFetch },
    { name: "SDK, validation on", calls: sdk(true) },
    { name: "SDK, validation off", calls: sdk(false) },
  ];
}
