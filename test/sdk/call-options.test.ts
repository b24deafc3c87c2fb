// A call's own options win over its client's, for that call only: retries, the attempt's timeout, headers and signal.
import { afterEach, expect, it } from "vitest";
import { createManagementClient, IngestionError, InternalServerError, TimeoutError } from "../../src/index.js";
import { hang, json, type ScriptedServer, type Step, startScriptedServer } from "../support/scripted-server.js";
import { keyId, keySecret, pipe, settingsEnvelope } from "../support/sdk-fixtures.js";

let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const unavailable = json(503, { status: 503, error: "busy", requestId: "1c9a2f5e-7b3d-4e8a-9c6f-0d2e4b6a8c1e" }, { "retry-after": "0" });

async function management(steps: Step[], options: { maxRetries?: number; timeoutMs?: number } = {}) {
  server = await startScriptedServer(...steps);
  return createManagementClient({ baseUrl: server.url, keyId, keySecret, rateLimit: false, ...options });
}

it("maxRetries: 0 on a call sends it once, where its client would retry", async () => {
  const client = await management([unavailable, json(200, settingsEnvelope)], { maxRetries: 2 });
  await expect(client.pipes.getSettings(pipe, { maxRetries: 0 })).rejects.toBeInstanceOf(InternalServerError);
  expect(server?.requests).toHaveLength(1);
  // The client's own default is untouched for the next call.
  await expect(client.pipes.getSettings(pipe)).resolves.toEqual(settingsEnvelope.result);
  expect(server?.requests).toHaveLength(2);
});

it("maxRetries on a call retries it that often, where its client would not", async () => {
  const client = await management([unavailable, unavailable, unavailable, json(200, settingsEnvelope)], { maxRetries: 0 });
  await expect(client.pipes.getSettings(pipe, { maxRetries: 3 })).resolves.toEqual(settingsEnvelope.result);
  expect(server?.requests).toHaveLength(4);
});

it("timeoutMs on a call bounds its attempts, where its client's would wait longer", async () => {
  const client = await management([hang], { timeoutMs: 10_000, maxRetries: 0 });
  const started = Date.now();
  const error = await client.pipes.get(pipe, { timeoutMs: 100 }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(TimeoutError);
  expect((error as Error).message).toContain("timed out after 100 ms");
  expect(Date.now() - started).toBeLessThan(2_000);
});

it("timeoutMs and maxRetries together on a call: each attempt bounded, that many retries", async () => {
  const client = await management([hang], { timeoutMs: 10_000, maxRetries: 0 });
  const error = await client.pipes.get(pipe, { timeoutMs: 50, maxRetries: 1 }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(TimeoutError);
  expect(server?.requests).toHaveLength(2);
});

it.each([
  [{ maxRetries: -1 }, "maxRetries must be an integer from 0 to 100, got -1"],
  [{ maxRetries: 101 }, "maxRetries must be an integer from 0 to 100, got 101"],
  [{ maxRetries: 1.5 }, "maxRetries must be an integer from 0 to 100, got 1.5"],
  [{ timeoutMs: 0 }, "timeoutMs must be an integer from 1 to"],
])("refuses a call's %j before sending, naming the option and the rule", async (options, words) => {
  const client = await management([json(200, settingsEnvelope)]);
  const error = await client.pipes.getSettings(pipe, options).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(IngestionError);
  expect((error as Error).message).toContain(words);
  expect(server?.requests).toHaveLength(0);
});
