// `npm run validate:proxy` in front of a small local server: a conforming response passes through unchanged, a
// non-conforming one is reported, and an invalid request never reaches the server.
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { setTimeout as delay } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, expect, it } from "vitest";
import { freePort } from "../../scripts/lib/mock-servers.mjs";
import { operation } from "../support/operations.js";
import { type ScriptedServer, startScriptedServer } from "../support/scripted-server.js";
import { settingsEnvelope } from "../support/sdk-fixtures.js";

const root = fileURLToPath(new URL("../..", import.meta.url));
const pipeSettingsPath = operation("getPipeSettings").example.url;
const brokenPipeId = "0e0e0e0e-0e0e-4e0e-8e0e-0e0e0e0e0e0e";
const brokenPath = pipeSettingsPath.replace(/pipes\/[^/]+/, `pipes/${brokenPipeId}`);
// engine_max_threads is 0..64, in responses too.
const brokenEnvelope = { ...settingsEnvelope, result: { ...settingsEnvelope.result, engine_max_threads: 65 } };

let upstream: ScriptedServer;
let proxy: ChildProcess;
let proxyUrl: string;
let proxyOutput = "";

beforeAll(async () => {
  upstream = await startScriptedServer((request, response) => {
    const body = request.url?.includes(brokenPipeId) ? brokenEnvelope : settingsEnvelope;
    response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body));
  });
  const port = await freePort();
  proxyUrl = `http://127.0.0.1:${port}`;
  proxy = spawn(process.execPath, [`${root}scripts/validate-proxy.mjs`, upstream.url, "--api", "management", "--port", String(port)], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  proxy.stdout?.setEncoding("utf8").on("data", (chunk: string) => (proxyOutput += chunk));
  proxy.stderr?.setEncoding("utf8").on("data", (chunk: string) => (proxyOutput += chunk));
  for (let deadline = Date.now() + 20_000; ; await delay(50)) {
    if (proxy.exitCode !== null) throw new Error(`validate:proxy exited early:\n${proxyOutput}`);
    if (Date.now() > deadline) throw new Error(`validate:proxy did not answer:\n${proxyOutput}`);
    if (
      await fetch(proxyUrl).then(
        () => true,
        () => false,
      )
    )
      break;
  }
}, 30_000);

afterAll(async () => {
  if (proxy?.exitCode === null) {
    const exited = once(proxy, "exit");
    proxy.kill("SIGTERM");
    await exited;
  }
  await upstream?.close();
});

const get = (path: string) => fetch(proxyUrl + path, { headers: { authorization: `Basic ${btoa("key-id:key-secret")}` } });

it("says what it checks, against which upstream", () => {
  expect(proxyOutput).toContain(`validate:proxy: checking ${upstream.url} against management on ${proxyUrl}`);
});

it("passes a conforming response through unchanged", async () => {
  const response = await get(pipeSettingsPath);
  expect(response.status).toBe(200);
  expect(response.headers.get("sl-violations")).toBeNull();
  expect(await response.json()).toEqual(settingsEnvelope);
});

it("reports a non-conforming response as 500 problem+json naming the violated rule", async () => {
  const response = await get(brokenPath);
  expect(response.status).toBe(500);
  expect(response.headers.get("content-type")).toContain("application/problem+json");
  const violation = { location: ["response", "body", "result", "engine_max_threads"], code: "maximum" };
  expect(JSON.parse(response.headers.get("sl-violations") ?? "[]")).toContainEqual(expect.objectContaining(violation));
  expect((await response.json()).validation).toContainEqual(expect.objectContaining(violation));
});

it("refuses an invalid request with 422 without forwarding it", async () => {
  const before = upstream.requests.length;
  const response = await fetch(proxyUrl + pipeSettingsPath, {
    method: "PUT",
    headers: { authorization: `Basic ${btoa("key-id:key-secret")}`, "content-type": "application/json" },
    body: JSON.stringify({ engine_max_threads: 65 }),
  });
  expect(response.status).toBe(422);
  expect(upstream.requests.length).toBe(before);
});
