// The hooks' own rules, against src/client/hooks.ts directly (no client, no socket): what `onRequest` is shown,
// what it may return, and how a hook's failure becomes the call's error.
import { describe, expect, it } from "vitest";
import { IngestionError } from "../../src/client/errors.js";
import { hookedHeaders, runResponseHook } from "../../src/client/hooks.js";

const call = { label: "createPipe POST /v1/pipes", operationId: "createPipe" };
const context = { operationId: "createPipe", attempt: 1 };
const attempt = {
  method: "POST",
  url: "https://api.example.test/v1/pipes",
  headers: { authorization: "Basic a2V5OnNlY3JldA==", "content-type": "application/json", "x-trace": "t-1" },
  body: '{"name":"p"}',
};

describe("onRequest", () => {
  it("sees the attempt's method, URL, headers and body", async () => {
    let seen: { method: string; url: string; trace: string | null; body: string } | undefined;
    await hookedHeaders(
      async (request) => {
        seen = { method: request.method, url: request.url, trace: request.headers.get("x-trace"), body: await request.text() };
      },
      call,
      attempt,
      context,
    );
    expect(seen).toEqual({ method: "POST", url: attempt.url, trace: "t-1", body: '{"name":"p"}' });
  });

  it("sees no body on an attempt that has none", async () => {
    let body: ReadableStream | null = new ReadableStream();
    await hookedHeaders(
      (request) => {
        body = request.body;
      },
      call,
      { ...attempt, method: "GET", body: undefined },
      context,
    );
    expect(body).toBeNull();
  });

  it("fails the call, naming the operation, when it returns something other than a Request", async () => {
    const error = await hookedHeaders(() => new Response() as unknown as Request, call, attempt, context).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(IngestionError);
    expect(error).toMatchObject({ message: "createPipe POST /v1/pipes: onRequest must return a Request or nothing", operationId: "createPipe" });
  });

  it("may not change the method: a Request for the same URL with another method fails the call, naming the operation", async () => {
    const error = await hookedHeaders(() => new Request(attempt.url, { method: "DELETE" }), call, attempt, context).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(IngestionError);
    expect(error).toMatchObject({
      message: "createPipe POST /v1/pipes: onRequest may change headers only; it returned a request for DELETE /v1/pipes",
      operationId: "createPipe",
    });
  });
});

describe("onResponse", () => {
  it("a hook that throws fails the call with an IngestionError naming the hook, its cause and the operation", async () => {
    const cause = new Error("audit log full");
    const error = await runResponseHook(
      () => {
        throw cause;
      },
      call,
      new Response("{}"),
      { ...context, willRetry: false, retryInMs: undefined },
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(IngestionError);
    expect(error).toMatchObject({ message: "createPipe POST /v1/pipes: the onResponse hook failed: audit log full", cause, operationId: "createPipe" });
  });

  it("names what a hook threw that is not an Error", async () => {
    const error = await runResponseHook(() => Promise.reject("no"), call, new Response("{}"), { ...context, willRetry: true, retryInMs: 500 }).catch(
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ message: "createPipe POST /v1/pipes: the onResponse hook failed: no", cause: "no" });
  });
});
