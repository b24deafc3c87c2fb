// pipes.changeSettings: one setting changed and the others kept, over a PUT that replaces them all. It reads the
// settings in force, hands them to the change, and sends back only what an update takes: a field a newer server
// added is read back, and cannot be sent (PipeSettingsUpdate refuses any field it does not name).
import { describe, expect, it } from "vitest";
import { createManagementClient, RequestValidationError } from "../../src/index.js";
import { keyId, keySecret, pipe, settingsEnvelope, settingsResult, storeOfEachTest } from "../support/sdk-fixtures.js";

const store = storeOfEachTest();

/** A server whose settings are `stored` (with a field of a newer contract) until a PUT replaces them. */
function settingsServer(stored: Record<string, unknown> = { ...settingsResult, newer_setting: "kept by the server" }) {
  const sent: { method: string; body?: unknown }[] = [];
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const request = new Request(input, init);
    const body = request.method === "PUT" ? await request.json() : undefined;
    sent.push({ method: request.method, ...(body !== undefined && { body }) });
    return Response.json({ ...settingsEnvelope, result: body ?? stored });
  };
  const client = createManagementClient({ baseUrl: "https://api.example.test", keyId, keySecret, fetch, rateLimitStore: store(), maxRetries: 0 });
  return { client, sent };
}

describe("pipes.changeSettings", () => {
  it("reads the settings, changes one, and sends back every other one an update takes, then resolves to the answer", async () => {
    const { client, sent } = settingsServer();
    const seen: unknown[] = [];
    const after = await client.pipes.changeSettings(pipe, (current) => {
      seen.push(current);
      return { ...current, engine_max_threads: 8 };
    });
    expect(seen).toEqual([{ ...settingsResult, newer_setting: "kept by the server" }]);
    expect(sent).toEqual([{ method: "GET" }, { method: "PUT", body: { ...settingsResult, engine_max_threads: 8 } }]);
    expect(after).toEqual({ ...settingsResult, engine_max_threads: 8 });
  });

  it("sends what the change returns, in the update's order, null included: a field it leaves out goes back to its default", async () => {
    const { client, sent } = settingsServer();
    await client.pipes.changeSettings(pipe, () => ({ engine_parallel_view_processing: null, streaming_max_insert_wait_ms: 500 }));
    expect(JSON.stringify(sent[1]?.body)).toBe('{"streaming_max_insert_wait_ms":500,"engine_parallel_view_processing":null}');
  });

  it("sends nothing when the change breaks the contract, naming the field and its bound", async () => {
    const { client, sent } = settingsServer();
    const error = await client.pipes.changeSettings(pipe, (current) => ({ ...current, engine_max_threads: 65 })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as RequestValidationError).issues).toEqual([{ path: "/engine_max_threads", message: "must be <= 64" }]);
    expect(sent).toEqual([{ method: "GET" }]);
  });

  it("stops before the PUT when its signal aborts during the read, and the change never runs", async () => {
    const { client, sent } = settingsServer();
    const controller = new AbortController();
    let changed = false;
    const call = client.pipes.changeSettings(
      pipe,
      (current) => {
        changed = true;
        return current;
      },
      { signal: controller.signal },
    );
    controller.abort(new Error("the user went away"));
    await expect(call).rejects.toThrow("the user went away");
    expect(changed).toBe(false);
    expect(sent.filter(({ method }) => method === "PUT")).toEqual([]);
  });
});
