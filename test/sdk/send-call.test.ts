// sendCall alone (src/client/send-call.ts, with attempt.ts and read-body.ts), driven by a scripted `fetch` instead
// of a server: the headers it sends, the answers it refuses, the body cap, the log lines, aborts and what it leaves
// behind.
import { getEventListeners } from "node:events";
import { afterEach, describe, expect, it, vi } from "vitest";
import { CredentialQueue } from "../../src/client/credential-queue.js";
import { ConnectionError, RateLimitError, RedirectError, ResponseTooLargeError, ResponseValidationError } from "../../src/client/errors.js";
import { ownHeaders } from "../../src/client/headers.js";
import { createMemoryRateLimitStore, processRateLimitStore } from "../../src/client/memory-store.js";
import type { RateLimitStore } from "../../src/client/rate-limit.js";
import { requestIdOf } from "../../src/client/read-body.js";
import { pathOf } from "../../src/client/routes.js";
import { asAnswer, type OutgoingCall, type Sender, sendCall } from "../../src/client/send-call.js";

type Answer = Response | ((init: RequestInit) => Response | Promise<Response>);

const client = ownHeaders("Basic a2V5OnNlY3JldA==", { "x-team": "ingest" });
let queues = 0;

/** sendCall with a `fetch` that gives the scripted answers in turn, recording what was sent and the log lines. */
function scripted(answers: Answer[] | ((url: string) => Response), config: Partial<Sender> = {}) {
  const sent: { url: string; headers: Record<string, string>; body: unknown }[] = [];
  const lines: string[] = [];
  // The debug lines (each send's method and path) apart: the other lines are what `info` and above show.
  const debugLines: string[] = [];
  const send = async (url: string | URL | Request, init: RequestInit = {}) => {
    sent.push({ url: String(url), headers: { ...(init.headers as Record<string, string>) }, body: init.body });
    if (typeof answers === "function") return answers(String(url));
    const next = answers.shift();
    if (!next) throw new Error("no answer scripted");
    return typeof next === "function" ? next(init) : next;
  };
  const sender: Sender = {
    onQueued: undefined,
    onRequest: undefined,
    onResponse: undefined,
    ownHeaders: client,
    fetch: send as typeof fetch,
    maxResponseBytes: 1_000,
    requestIdField: "requestId",
    errorKey: "error",
    log: (level, message) => (level === "debug" ? debugLines : lines).push(`${level} ${message}`),
    queue: new CredentialQueue(processRateLimitStore, `send-call test ${++queues}`),
    rateLimit: undefined,
    maxRateLimitWaitMs: 60_000,
    ...config,
  };
  return { send: (call: OutgoingCall) => sendCall(sender, call, asAnswer), sent, lines, debugLines };
}

/**
 * `store`, its takes answered later, as a store across a network (Redis) answers them: a turn of the event loop
 * later, or after `roundTripMs` (the take is then made when the answer comes).
 */
function storeAnsweringTakesLater(store: RateLimitStore, roundTripMs?: number): RateLimitStore {
  return {
    take: (...args) =>
      roundTripMs === undefined
        ? Promise.resolve().then(() => store.take(...args))
        : new Promise((resolve) => setTimeout(() => resolve(store.take(...args)), roundTripMs)),
    answered: (...args) => store.answered(...args),
    release: (...args) => store.release(...args),
    limited: (...args) => store.limited(...args),
  };
}

const policy = { label: "getPipe GET /v1/pipes/{pipeId}", operationId: "getPipe", timeoutMs: 5_000, maxRetries: 0 };
function getPipe(overrides: Partial<OutgoingCall> = {}, retries = 0): OutgoingCall {
  return {
    method: "GET",
    url: "https://api.example.test/v1/pipes/p-1?fields=name",
    body: undefined,
    headers: undefined,
    signal: undefined,
    policy: { ...policy, maxRetries: retries },
    ...overrides,
  };
}
const createPipe = (overrides: Partial<OutgoingCall> = {}) =>
  getPipe({
    method: "POST",
    url: "https://api.example.test/v1/pipes",
    body: '{"name":"p"}',
    policy: { ...policy, label: "createPipe POST /v1/pipes", operationId: "createPipe" },
    ...overrides,
  });

const ok = (body: unknown = { requestId: "r-1" }, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status: 200, headers: { "content-type": "application/json", ...headers } });
const answer = (status: number, headers: Record<string, string> = {}) => new Response(null, { status, headers });

/** A body delivered in the given chunks, with whatever headers are given (none by default: length unknown). */
function streamed(chunks: Uint8Array[], headers: Record<string, string> = {}) {
  const state = { canceled: false };
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
    cancel() {
      state.canceled = true;
    },
  });
  return { response: new Response(body, { status: 200, headers }), state };
}
const bytes = (text: string) => new TextEncoder().encode(text);
const jsonOf = (size: number) => `"${"x".repeat(size - 2)}"`;

afterEach(() => {
  vi.useRealTimers();
});

describe("the headers it sends", () => {
  it("sends a call without a body with the client's headers and no Content-Type", async () => {
    const { send, sent } = scripted([ok()]);
    await send(getPipe());
    expect(sent[0]?.headers).toEqual(client.withoutBody);
    expect(sent[0]?.headers).not.toHaveProperty("content-type");
  });

  it("sends a call with a body as JSON, the caller's headers under the client's Accept, Authorization and Content-Type", async () => {
    const { send, sent } = scripted([ok()]);
    await send(createPipe({ headers: { "x-trace": "t-1", "x-team": "search", authorization: "Bearer stolen", "content-type": "text/plain" } }));
    expect(sent[0]?.headers).toEqual({ ...client.withBody, "x-trace": "t-1", "x-team": "search" });
    expect(sent[0]?.headers["content-type"]).toBe("application/json");
    expect(sent[0]?.body).toBe('{"name":"p"}');
  });

  it("sends no Content-Type for a call without a body, even with the caller's headers", async () => {
    const { send, sent } = scripted([ok()]);
    await send(getPipe({ headers: { "x-trace": "t-1" } }));
    expect(sent[0]?.headers).toEqual({ ...client.withoutBody, "x-trace": "t-1" });
  });
});

describe("redirects", () => {
  it.each([300, 301, 308, 399])("refuses a %i answer as a RedirectError, without following it", async (status) => {
    const { send, sent } = scripted([answer(status, { location: "https://elsewhere.example.test/" })]);
    const error = await send(getPipe()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RedirectError);
    expect(error).toMatchObject({ status, location: "https://elsewhere.example.test/" });
    expect(sent).toHaveLength(1);
  });

  it("refuses a browser's opaque redirect, which has status 0", async () => {
    const opaque = answer(200);
    Object.defineProperties(opaque, { type: { value: "opaqueredirect" }, status: { value: 0 } });
    await expect(scripted([opaque]).send(getPipe())).rejects.toBeInstanceOf(RedirectError);
  });

  it("takes an answer of status 0 that is no opaque redirect (a network error from a fetch of one's own) for an answer, not a redirect", async () => {
    await expect(scripted([Response.error()]).send(getPipe())).resolves.toMatchObject({ response: { status: 0, type: "error" } });
  });

  it("gives a 400 as an answer, not a redirect", async () => {
    await expect(scripted([answer(400)]).send(getPipe())).resolves.toMatchObject({ response: { status: 400 } });
  });
});

describe("the body cap (maxResponseBytes)", () => {
  it("reads a body of declared length exactly at the cap", async () => {
    const body = jsonOf(1_000);
    const answered = await scripted([new Response(body, { headers: { "content-length": "1000" } })]).send(getPipe());
    expect(answered.body.text).toBe(body);
  });

  it("refuses a body whose declared length passes the cap, without reading it", async () => {
    const { response, state } = streamed([bytes('"short"')], { "content-length": "1001" });
    await expect(scripted([response]).send(getPipe())).rejects.toBeInstanceOf(ResponseTooLargeError);
    expect(state.canceled).toBe(true);
  });

  it("counts a body of unknown length as it streams, and stops reading an endless one past the cap", async () => {
    const state = { canceled: false };
    const endless = new ReadableStream<Uint8Array>({
      pull: (controller) => controller.enqueue(bytes("x".repeat(600))),
      cancel() {
        state.canceled = true;
      },
    });
    const response = new Response(endless, { status: 200 });
    const error = await scripted([response])
      .send(getPipe())
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect(error).toMatchObject({ limitBytes: 1_000, operationId: "getPipe" });
    expect(state.canceled).toBe(true);
  });

  it("counts a compressed body's decoded bytes, whatever its declared length", async () => {
    const small = streamed([bytes(jsonOf(900))], { "content-encoding": "gzip", "content-length": "5000" });
    expect((await scripted([small.response]).send(getPipe())).body.text).toBe(jsonOf(900));
    const bomb = streamed([bytes(jsonOf(2_000))], { "content-encoding": "gzip", "content-length": "40" });
    await expect(scripted([bomb.response]).send(getPipe())).rejects.toBeInstanceOf(ResponseTooLargeError);
  });

  it("reads a streamed body of exactly the cap, and refuses one byte more", async () => {
    const [exactly, oneMore] = [bytes(jsonOf(1_000)), bytes(jsonOf(1_001))];
    const exact = streamed([exactly.slice(0, 600), exactly.slice(600)]);
    expect((await scripted([exact.response]).send(getPipe())).body.text).toBe(jsonOf(1_000));
    const over = streamed([oneMore.slice(0, 600), oneMore.slice(600)]);
    await expect(scripted([over.response]).send(getPipe())).rejects.toBeInstanceOf(ResponseTooLargeError);
  });

  it("decodes a character split across chunks", async () => {
    const encoded = bytes('"café"');
    const { response } = streamed([encoded.slice(0, 5), encoded.slice(5)]);
    expect((await scripted([response]).send(getPipe())).body.json).toBe("café");
  });

  it("reads an answer without a body as empty, and gives it", async () => {
    const answered = await scripted([answer(200)]).send(getPipe());
    expect(answered.body).toEqual({ text: "", json: undefined, isJson: false });
  });
});

describe("a successful answer that is not JSON", () => {
  it("is a ResponseValidationError naming its content type, its first 80 characters and its request id", async () => {
    const page = `<html>${"x".repeat(200)}</html>`;
    const response = new Response(page, { headers: { "content-type": "text/html", "x-request-id": "r-9" } });
    const error = await scripted([response])
      .send(getPipe())
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error).toMatchObject({ issues: [{ path: "", message: `is not JSON (text/html): ${JSON.stringify(page.slice(0, 80))}` }], requestId: "r-9" });
  });

  it("says when it has no content type", async () => {
    const response = new Response("fine");
    response.headers.delete("content-type");
    await expect(scripted([response]).send(getPipe())).rejects.toMatchObject({
      issues: [{ path: "", message: 'is not JSON (no content type): "fine"' }],
    });
  });

  it("is given to onResponse with its text, and json() refusing it", async () => {
    let seen: { text: string; json: unknown } | undefined;
    const onResponse = async (response: Response) => {
      seen = { text: await response.text(), json: await response.json().catch((e: unknown) => e) };
    };
    await scripted([new Response("down", { status: 500 })], { onResponse }).send(getPipe());
    expect(seen?.text).toBe("down");
    expect(seen?.json).toBeInstanceOf(SyntaxError);
    expect(seen?.json).toMatchObject({ message: "the body is not JSON" });
  });
});

describe("log lines", () => {
  const took = (line: string | undefined) => Number(/ (?:in|after) (\d+) ms/.exec(line ?? "")?.[1]);

  it("logs an answer led by its operation and attempt, then its status, time and request id; the path at debug only, never the query", async () => {
    const { send, lines, debugLines } = scripted([ok({ requestId: "r-1" })]);
    await send(getPipe());
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^info getPipe #1 of 1: 200 in \d+ ms, request r-1$/);
    expect(took(lines[0])).toBeLessThan(1_000);
    expect(debugLines).toEqual(["debug getPipe #1 of 1: GET /v1/pipes/p-1"]);
  });

  it("names a call without an operation (raw) by its method and path template", async () => {
    const { send, lines } = scripted([ok()]);
    await send(getPipe({ policy: { ...policy, label: "GET /v1/pipes/{pipeId}", operationId: undefined } }));
    expect(lines[0]).toMatch(/^info GET \/v1\/pipes\/\{pipeId\} #1 of 1: 200 in \d+ ms, request r-1$/);
  });

  it("logs an error answer it gives up on as an error, and one it retries as a warning", async () => {
    const { send, lines } = scripted([answer(503, { "retry-after": "0" }), answer(404)]);
    await send(getPipe({}, 1));
    expect(lines).toEqual([
      expect.stringMatching(/^warn getPipe #1 of 2: 503 in \d+ ms, retrying$/),
      expect.stringMatching(/^error getPipe #2 of 2: 404 in \d+ ms$/),
    ]);
  });

  it("logs a failure without an answer, with its time, retried as a warning and given up on as an error", async () => {
    const reset = () => Promise.reject(new TypeError("fetch failed", { cause: new Error("read ECONNRESET") }));
    const { send, lines } = scripted([reset, reset]);
    const error = await send(getPipe({}, 1)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    const failure = "getPipe GET /v1/pipes/{pipeId} got no complete response: fetch failed: read ECONNRESET";
    expect(lines).toEqual([
      `warn getPipe #1 of 2: ${failure} after ${took(lines[0])} ms, retrying`,
      `error getPipe #2 of 2: ${failure} after ${took(lines[1])} ms`,
    ]);
    expect(took(lines[0])).toBeLessThan(1_000);
  });

  it("names a failure that has no cause by its own message", async () => {
    const { send, lines } = scripted([() => Promise.reject(new Error("boom"))]);
    await expect(send(createPipe())).rejects.toMatchObject({ message: "createPipe POST /v1/pipes got no complete response: boom" });
    expect(lines).toEqual([expect.stringMatching(/^error createPipe #1 of 1: createPipe POST \/v1\/pipes got no complete response: boom after \d+ ms$/)]);
  });

  it("names a failure that is not an Error by its text", async () => {
    const { send } = scripted([() => Promise.reject("socket closed")]);
    await expect(send(createPipe())).rejects.toMatchObject({ message: "createPipe POST /v1/pipes got no complete response: socket closed" });
  });

  it("logs how long a call waited for its turn in the rate-limit queue", async () => {
    const { send, lines } = scripted([ok(), ok()], { rateLimit: { requests: 1, intervalMs: 100 } });
    await send(getPipe());
    await send(getPipe());
    expect(lines).toContain("info getPipe #1 of 1: waits for its turn in the rate-limit queue, 1 call waiting: about 0.1 s at 1 per 0.1 s");
    const waited = lines.find((line) => line.includes("waited"));
    expect(waited).toMatch(/^info getPipe #1 of 1: waited \d+ ms for its turn in the rate-limit queue$/);
    expect(Number(/waited (\d+) ms/.exec(waited ?? "")?.[1])).toBeLessThan(1_000);
  });
});

describe("an abort as a 429's pause is written", () => {
  it("rejects at once with the abort's reason when the caller aborts as the 429's body is read, and the pause is still recorded", async () => {
    const memory = createMemoryRateLimitStore();
    // A store whose pause write takes 200 ms, as one across a network may.
    let written = false;
    const store: RateLimitStore = {
      take: (...args) => memory.take(...args),
      answered: (...args) => memory.answered(...args),
      release: (...args) => memory.release(...args),
      limited: (...args) =>
        new Promise<void>((resolve) =>
          setTimeout(() => {
            memory.limited(...args);
            written = true;
            resolve();
          }, 200),
        ),
    };
    const queue = new CredentialQueue(store, "send-call abort-at-pause");
    const caller = new AbortController();
    const reason = new Error("the caller gave up");
    // A body whose last read aborts the call: the signal is already aborted when the pause's write begins.
    const body = new ReadableStream<Uint8Array>({
      pull(stream) {
        stream.enqueue(new TextEncoder().encode('{"error":"slow down"}'));
        stream.close();
        caller.abort(reason);
      },
    });
    const limited = new Response(body, { status: 429, headers: { "content-type": "application/json", "retry-after": "3" } });
    const { send } = scripted([limited], { queue });
    await expect(send(getPipe({ signal: caller.signal }, 1))).rejects.toBe(reason);
    // At once: before the write has answered; and the write goes on, for the credential's other calls.
    expect(written).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(written).toBe(true);
    expect(memory.take("send-call abort-at-pause", undefined)).toMatchObject({ paused: true });
  });
});

describe("retries", () => {
  it("retries a 503 whose Retry-After is exactly maxRateLimitWaitMs", async () => {
    const { send, sent } = scripted([answer(503, { "retry-after": "0" }), ok()], { maxRateLimitWaitMs: 0 });
    await expect(send(getPipe({}, 1))).resolves.toMatchObject({ response: { status: 200 } });
    expect(sent).toHaveLength(2);
  });

  it("resolves a successful answer with an empty body", async () => {
    await expect(scripted([answer(204)]).send(getPipe())).resolves.toMatchObject({ response: { status: 204 } });
  });
});

describe("the credential's queue", () => {
  // Slow enough that a 429 is answered before the next call's turn, even on a busy machine.
  const paced = { rateLimit: { requests: 1, intervalMs: 100 } };
  /** Three calls made at once, to /a, /b and /c; /a's first answer is `first`; resolves to the paths in the order sent. */
  async function sendOrder(first: Response) {
    let answeredA = false;
    const { send, sent } = scripted((url) => {
      if (!url.endsWith("/a") || answeredA) return ok();
      answeredA = true;
      return first;
    }, paced);
    const to = (path: string) => getPipe({ url: `https://api.example.test/v1/pipes/${path}` }, 1);
    await Promise.all([send(to("a")), send(to("b")), send(to("c"))]);
    return sent.map(({ url }) => url.slice(-1));
  }

  it("sends calls in the order they were made, and a retry after a 503 behind those already waiting", async () => {
    expect(await sendOrder(answer(503, { "retry-after": "0" }))).toEqual(["a", "b", "c", "a"]);
  });

  it("puts a call answered 429 back at the head of the queue, to leave first once the pause is over", async () => {
    expect(await sendOrder(answer(429, { "retry-after": "0" }))).toEqual(["a", "a", "b", "c"]);
  });
});

describe("aborts", () => {
  it("an abort during an attempt rejects with the caller's reason, not a timeout", async () => {
    const caller = new AbortController();
    const reason = new Error("the user left");
    const hang = (init: RequestInit) =>
      new Promise<Response>((_, reject) => {
        init.signal?.addEventListener("abort", () => reject(init.signal?.reason));
        caller.abort(reason);
      });
    await expect(scripted([hang]).send(getPipe({ signal: caller.signal }))).rejects.toBe(reason);
  });

  it("an abort before the wait for a retry ends the call at once with the caller's reason", async () => {
    const caller = new AbortController();
    const reason = new Error("the user left");
    const onResponse = () => caller.abort(reason);
    const started = Date.now();
    const call = scripted([answer(503, { "retry-after": "30" })], { onResponse }).send(getPipe({ signal: caller.signal }, 1));
    await expect(call).rejects.toBe(reason);
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it("leaves no timer behind after an answer, or after an abort during the wait for a retry", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    await scripted([ok()]).send(getPipe());
    expect(vi.getTimerCount()).toBe(0);

    const caller = new AbortController();
    const sent = vi.fn(() => answer(503, { "retry-after": "30" }));
    // Told once the answer is read: the one timer after that is the wait's (before it, the attempt's own).
    const answered = vi.fn();
    const call = scripted([sent], { onResponse: answered }).send(getPipe({ signal: caller.signal }, 1));
    await vi.waitFor(() => expect(answered).toHaveBeenCalled());
    await vi.waitFor(() => expect(vi.getTimerCount()).toBe(1));
    caller.abort(new Error("the user left"));
    await expect(call).rejects.toThrow("the user left");
    expect(vi.getTimerCount()).toBe(0);
  });

  it("leaves no listener on the caller's signal after the call, retries and their waits included", async () => {
    const caller = new AbortController();
    await scripted([answer(503, { "retry-after": "0" }), ok()]).send(getPipe({ signal: caller.signal }, 1));
    expect(getEventListeners(caller.signal, "abort")).toHaveLength(0);
  });

  it("leaves no listener on the caller's signal after an onRequest hook ran for each attempt", async () => {
    const caller = new AbortController();
    const onRequest = async () => undefined;
    await scripted([answer(503, { "retry-after": "0" }), ok()], { onRequest }).send(getPipe({ signal: caller.signal }, 1));
    expect(getEventListeners(caller.signal, "abort")).toHaveLength(0);
  });

  it("ends a call aborted while its onRequest hook runs at once, sending nothing after the hook, and gives its turn back", async () => {
    const caller = new AbortController();
    let hookRuns = false;
    let finishHook = () => {};
    const onRequest = () => {
      hookRuns = true;
      return new Promise<undefined>((resolve) => (finishHook = () => resolve(undefined)));
    };
    const released: string[] = [];
    const store = { ...processRateLimitStore, take: () => "the call's ticket", release: (_key: string, ticket: string) => void released.push(ticket) };
    const { send, sent } = scripted([ok()], { onRequest, queue: new CredentialQueue(store, "hook abort") });
    const call = send(getPipe({ signal: caller.signal }));
    await vi.waitFor(() => expect(hookRuns).toBe(true));
    caller.abort(new Error("the user left"));
    await expect(call).rejects.toThrow("the user left");
    finishHook();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(sent).toEqual([]);
    expect(released).toEqual(["the call's ticket"]);
  });
});

describe("helpers", () => {
  it("pathOf gives a URL's path without its query, and / for a URL without one", () => {
    expect(pathOf("https://api.example.test/v1/pipes?limit=5")).toBe("/v1/pipes");
    expect(pathOf("https://api.example.test/v1/pipes")).toBe("/v1/pipes");
    expect(pathOf("https://api.example.test")).toBe("/");
  });

  it("requestIdOf takes the header where the interface's bodies carry no request id", () => {
    const { headers } = new Response(null, { headers: { "x-request-id": "from-header" } });
    expect(requestIdOf(headers, { text: "", json: { undefined: "from-body" }, isJson: true }, undefined)).toBe("from-header");
    expect(requestIdOf(headers, { text: "", json: { requestId: "from-body" }, isJson: true }, "requestId")).toBe("from-body");
  });
});

describe("a 429 the policy does not retry", () => {
  it("says why: maxRetries reached, or the wait longer than what is left of the bound; any other answer says nothing", async () => {
    const spent = await scripted([answer(429, { "retry-after": "0" })]).send(getPipe());
    expect(spent.notRetried).toBe("maxRetries (0) reached");
    const tooLong = await scripted([answer(429, { "retry-after": "2" })], { maxRateLimitWaitMs: 1_000 }).send(getPipe({}, 1));
    expect(tooLong.notRetried).toBe("the wait (2000 ms) is longer than maxRateLimitWaitMs (1000 ms)");
    const missing = await scripted([answer(404)]).send(getPipe());
    expect(missing.notRetried).toBeUndefined();
  });

  it("leaves the 429 it got to the calls it keeps in the queue: no body as undefined, the headers as they came", async () => {
    const { send } = scripted([answer(429, { "retry-after": "2", "x-request-id": "r-9" })], { maxRateLimitWaitMs: 1_000 });
    await send(getPipe());
    const kept = (await send(getPipe()).catch((error: unknown) => error)) as RateLimitError;
    expect(kept).toBeInstanceOf(RateLimitError);
    expect({ body: kept.body, requestId: kept.requestId, retryAfterMs: kept.retryAfterMs, retryAfter: kept.headers.get("retry-after") }).toEqual({
      body: undefined,
      requestId: "r-9",
      retryAfterMs: 2_000,
      retryAfter: "2",
    });
    expect(kept.message).toMatch(/was not sent: .*; the last 429 was another call's answer: HTTP 429 \(request id r-9\); retry after 2 s$/);
  });

  it("logs a call that queues behind a 429 without a limit of its own as paused or slowed by it", async () => {
    const { send, lines } = scripted([answer(429, { "x-ratelimit-reset": "0.05" }), ok()]);
    await send(getPipe({}, 1));
    expect(lines).toContain("info getPipe #2 of 2: waits for its turn in the rate-limit queue, 1 call waiting, paused or slowed by a 429");
  });
});

describe("what the hooks are told of the waits", () => {
  afterEach(() => vi.useRealTimers());

  type Seen = { status: number; attempt: number; willRetry: boolean; retryInMs: number | undefined };
  const seenBy =
    (seen: Seen[]) =>
    (response: Response, { attempt, willRetry, retryInMs }: { attempt: number; willRetry: boolean; retryInMs: number | undefined }) => {
      seen.push({ status: response.status, attempt, willRetry, retryInMs });
    };

  it("onResponse's retryInMs is the wait a 503's Retry-After asks for, and the retry goes after it, not before", async () => {
    vi.useFakeTimers();
    const seen: Seen[] = [];
    const { send, sent } = scripted([answer(503, { "retry-after": "2" }), ok()], { onResponse: seenBy(seen) });
    const call = send(getPipe({}, 1));
    await vi.advanceTimersByTimeAsync(1_999);
    expect(sent).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    await call;
    expect(sent).toHaveLength(2);
    expect(seen).toEqual([
      { status: 503, attempt: 1, willRetry: true, retryInMs: 2_000 },
      { status: 200, attempt: 2, willRetry: false, retryInMs: undefined },
    ]);
  });

  it("onResponse's retryInMs is the backoff it then waits, when the answer names no wait", async () => {
    vi.useFakeTimers();
    const seen: Seen[] = [];
    const { send, sent } = scripted([answer(502), ok()], { onResponse: seenBy(seen) });
    const call = send(getPipe({}, 1));
    await vi.advanceTimersByTimeAsync(0);
    const [first] = seen;
    // The first backoff: 500 ms less up to a quarter of it, at random.
    expect(first?.retryInMs).toBeGreaterThanOrEqual(375);
    expect(first?.retryInMs).toBeLessThanOrEqual(500);
    await vi.advanceTimersByTimeAsync((first?.retryInMs as number) - 1);
    expect(sent).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    await call;
    expect(sent).toHaveLength(2);
  });

  it("onResponse's retryInMs is a 429's pause; undefined on the answer it will not retry", async () => {
    const seen: Seen[] = [];
    const { send } = scripted([answer(429, { "retry-after": "0" }), answer(429, { "retry-after": "0" })], { onResponse: seenBy(seen) });
    await send(getPipe({}, 1));
    expect(seen).toEqual([
      { status: 429, attempt: 1, willRetry: true, retryInMs: 0 },
      { status: 429, attempt: 2, willRetry: false, retryInMs: undefined },
    ]);
  });

  it("onQueued tells of an attempt that waits for its turn: how many wait, about how long, and what is left of the bound", async () => {
    const queued: unknown[] = [];
    const { send, sent } = scripted(() => ok(), {
      rateLimit: { requests: 2, intervalMs: 200 },
      onQueued: (context) => queued.push(context),
    });
    vi.useFakeTimers();
    const calls = [1, 2, 3, 4, 5].map(() => send(getPipe()));
    // The first two go at once and never call it.
    expect(queued).toEqual([
      { operationId: "getPipe", attempt: 1, waiting: 1, aboutMs: 200, maxRateLimitWaitMs: 60_000 },
      { operationId: "getPipe", attempt: 1, waiting: 2, aboutMs: 200, maxRateLimitWaitMs: 60_000 },
      { operationId: "getPipe", attempt: 1, waiting: 3, aboutMs: 400, maxRateLimitWaitMs: 60_000 },
    ]);
    await vi.advanceTimersByTimeAsync(1_000);
    await Promise.all(calls);
    expect(sent).toHaveLength(5);
  });

  // A store across a network (Redis) answers every take later: a call under the limit waits for that answer, not for
  // its turn, and is neither told nor logged as waiting. One the store refuses is, before it sleeps.
  it("onQueued and the log tell only of a wait the limit asks for, with a store that answers takes later", async () => {
    const later = storeAnsweringTakesLater(createMemoryRateLimitStore());
    const queued: unknown[] = [];
    const { send, sent, lines } = scripted(() => ok(), {
      queue: new CredentialQueue(later, `send-call test ${++queues}`),
      rateLimit: { requests: 2, intervalMs: 200 },
      onQueued: (context) => queued.push(context),
    });
    vi.useFakeTimers();
    await Promise.all([send(getPipe()), send(getPipe())]);
    expect(queued).toEqual([]);
    expect(lines.filter((line) => line.includes("for its turn"))).toEqual([]);
    // The third is refused (two in 200 ms): told once, with how many wait, before its wait.
    const third = send(getPipe());
    await vi.advanceTimersByTimeAsync(0);
    expect(queued).toEqual([{ operationId: "getPipe", attempt: 1, waiting: 1, aboutMs: 200, maxRateLimitWaitMs: 60_000 }]);
    expect(lines.filter((line) => line.includes("waits for its turn"))).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1_000);
    await third;
    expect(sent).toHaveLength(3);
    expect(queued).toHaveLength(1);
    expect(lines.filter((line) => line.includes("waited"))).toHaveLength(1);
  });

  it("onQueued does not tell of a refusal the calls before got, once none of them waits", async () => {
    const later = storeAnsweringTakesLater(createMemoryRateLimitStore());
    const queued: number[] = [];
    const { send, sent } = scripted(() => ok(), {
      queue: new CredentialQueue(later, `send-call test ${++queues}`),
      rateLimit: { requests: 1, intervalMs: 1_000 },
      onQueued: ({ waiting }) => queued.push(waiting),
    });
    vi.useFakeTimers();
    await send(getPipe());
    // Refused, told, then cancelled: the queue is empty again.
    const cancel = new AbortController();
    const refused = send(getPipe({ signal: cancel.signal })).catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(0);
    expect(queued).toEqual([1]);
    cancel.abort(new Error("cancelled"));
    await refused;
    // Windows later (the store widens one a little) the next call goes at once, after the store's answer: it never
    // waited for the limit.
    await vi.advanceTimersByTimeAsync(3_000);
    await send(getPipe());
    expect(queued).toEqual([1]);
    expect(sent).toHaveLength(2);
  });

  // Without a log, too: the hook alone is told.
  it("onQueued tells a call behind a refused one at once, and not one that queues after the refused one got its turn", async () => {
    vi.useFakeTimers();
    const queued: number[] = [];
    let last: Promise<unknown> | undefined;
    const { send, sent } = scripted(
      () => {
        // The fourth call's send, the turn just given, and the fifth's take still under way: a sixth call queues.
        if (sent.length === 4) last = send(getPipe());
        return ok();
      },
      {
        queue: new CredentialQueue(storeAnsweringTakesLater(createMemoryRateLimitStore(), 1), `send-call test ${++queues}`),
        rateLimit: { requests: 3, intervalMs: 200 },
        onQueued: ({ waiting }) => queued.push(waiting),
        log: undefined,
      },
    );
    const first = [send(getPipe()), send(getPipe()), send(getPipe())];
    await vi.advanceTimersByTimeAsync(10);
    await Promise.all(first);
    // The fourth is refused, and told; the fifth queues behind it while it waits, and is told at once.
    const fourth = send(getPipe());
    await vi.advanceTimersByTimeAsync(10);
    expect(queued).toEqual([1]);
    const fifth = send(getPipe());
    expect(queued).toEqual([1, 2]);
    await vi.advanceTimersByTimeAsync(1_000);
    await Promise.all([fourth, fifth, last]);
    expect(sent).toHaveLength(6);
    // The sixth went after the store's answer, its window free: no wait for the limit.
    expect(queued).toEqual([1, 2]);
  });

  it("onQueued is not told of a call that left the line while the calls before it were told", async () => {
    vi.useFakeTimers();
    const second = new AbortController();
    const queued: number[] = [];
    const { send, sent } = scripted(() => ok(), {
      queue: new CredentialQueue(storeAnsweringTakesLater(createMemoryRateLimitStore()), `send-call test ${++queues}`),
      rateLimit: { requests: 1, intervalMs: 1_000 },
      // The first call told cancels the second, which waits behind it untold: the refusal tells them in turn.
      onQueued: ({ waiting }) => {
        queued.push(waiting);
        second.abort(new Error("cancelled"));
      },
    });
    await send(getPipe());
    const calls = [send(getPipe()), send(getPipe({ signal: second.signal })).catch((error: unknown) => error)];
    await vi.advanceTimersByTimeAsync(3_000);
    await Promise.all(calls);
    expect(queued).toEqual([1]);
    expect(sent).toHaveLength(2);
  });

  it("a call that onQueued cancels as the only one waiting leaves no wait behind it", async () => {
    vi.useFakeTimers();
    const own = new AbortController();
    const { send } = scripted(() => ok(), {
      queue: new CredentialQueue(storeAnsweringTakesLater(createMemoryRateLimitStore()), `send-call test ${++queues}`),
      rateLimit: { requests: 1, intervalMs: 20_000 },
      onQueued: () => own.abort(new Error("cancelled")),
    });
    await send(getPipe());
    const cancelled = send(getPipe({ signal: own.signal })).catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(0);
    expect(await cancelled).toMatchObject({ message: "cancelled" });
    // Nobody waits: no 20 s timer keeps the process alive.
    expect(vi.getTimerCount()).toBe(0);
  });

  it("a log that throws as a call starts to wait fails that call when its turn comes, and the line goes on", async () => {
    vi.useFakeTimers();
    let throws = 1;
    const { send, sent } = scripted(() => ok(), {
      queue: new CredentialQueue(storeAnsweringTakesLater(createMemoryRateLimitStore()), `send-call test ${++queues}`),
      rateLimit: { requests: 1, intervalMs: 200 },
      log: (_level, message) => {
        if (message.includes("waits for its turn") && throws-- > 0) throw new Error("the logger is full");
      },
    });
    await send(getPipe());
    const calls = [send(getPipe()).catch((error: unknown) => error), send(getPipe())];
    await vi.advanceTimersByTimeAsync(1_000);
    const [failed] = await Promise.all(calls);
    expect(failed).toMatchObject({ message: "the logger is full" });
    // The failed call's turn went back, and the one behind it was sent.
    expect(sent).toHaveLength(2);
  });

  it("onQueued's maxRateLimitWaitMs is what is left of the bound after the pauses the call already waited", async () => {
    vi.useFakeTimers();
    const queued: number[] = [];
    const { send, sent } = scripted([answer(429, { "retry-after": "1" }), answer(429, { "retry-after": "1" }), ok()], {
      onQueued: ({ maxRateLimitWaitMs }) => queued.push(maxRateLimitWaitMs),
    });
    const call = send(getPipe({}, 2));
    await vi.advanceTimersByTimeAsync(5_000);
    await call;
    expect(sent).toHaveLength(3);
    // Each retry waits out its 429's pause (1 s and up to a tenth more) in the queue: the second, after the first's.
    expect(queued).toHaveLength(2);
    expect(queued[0]).toBe(60_000);
    expect(queued[1]).toBeGreaterThanOrEqual(60_000 - 1_100);
    expect(queued[1]).toBeLessThanOrEqual(60_000 - 1_000);
  });

  it("onResponse's retryInMs after a 429 is the pause the queue set: the wait asked for and its spread", async () => {
    vi.useFakeTimers();
    const seen: Seen[] = [];
    const { send, sent } = scripted([answer(429, { "retry-after": "1" }), ok()], { onResponse: seenBy(seen) });
    const call = send(getPipe({}, 1));
    await vi.advanceTimersByTimeAsync(0);
    const pause = seen[0]?.retryInMs as number;
    // 1 s, and up to a tenth more.
    expect(pause).toBeGreaterThanOrEqual(1_000);
    expect(pause).toBeLessThanOrEqual(1_100);
    await vi.advanceTimersByTimeAsync(pause - 1);
    expect(sent).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    await call;
    expect(sent).toHaveLength(2);
  });

  it("a 429's pause is spread by up to a tenth of its wait, within what the call's bound leaves, so that processes sharing the credential do not all come back at once", async () => {
    const random = vi.spyOn(Math, "random").mockReturnValue(0.5);
    try {
      const seen: Seen[] = [];
      const reset = () => answer(429, { "x-ratelimit-reset": "0.4" });
      const { send } = scripted([reset(), ok()], { onResponse: seenBy(seen) });
      const { send: sendBounded } = scripted([reset(), ok()], { onResponse: seenBy(seen), maxRateLimitWaitMs: 410 });
      await send(getPipe({}, 1));
      await sendBounded(getPipe({}, 1));
      // Half of the most: of a tenth of 400 ms (20 ms); with 410 ms of bound, of the 10 ms left after the wait (5 ms).
      expect(seen.filter(({ status }) => status === 429).map(({ retryInMs }) => retryInMs)).toEqual([420, 405]);
    } finally {
      random.mockRestore();
    }
  });

  it("onQueued is not told of a call that never joins the queue: one aborted before its turn", async () => {
    const queued: unknown[] = [];
    const { send } = scripted(() => ok(), { rateLimit: { requests: 1, intervalMs: 100 }, onQueued: (context) => queued.push(context) });
    vi.useFakeTimers();
    const first = send(getPipe());
    const reason = new Error("gone");
    const aborted = send(getPipe({ signal: AbortSignal.abort(reason) })).catch((error: unknown) => error);
    expect(await aborted).toBe(reason);
    await first;
    expect(queued).toEqual([]);
  });

  it("onQueued whose promise rejects fails its call when its turn comes, and the rejection is not left unhandled", async () => {
    vi.useFakeTimers();
    const { send, sent } = scripted(() => ok(), {
      rateLimit: { requests: 1, intervalMs: 100 },
      onQueued: async () => {
        throw new Error("the page went away");
      },
    });
    const first = send(getPipe());
    const failing = send(getPipe()).catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(150);
    expect(await failing).toMatchObject({ message: "getPipe GET /v1/pipes/{pipeId}: the onQueued hook failed: the page went away" });
    await first;
    expect(sent).toHaveLength(1);
  });

  it("onQueued that throws fails its call when its turn comes, sending nothing, and the turn goes to the next call", async () => {
    const cause = new Error("no room on the page");
    let throws = true;
    const { send, sent } = scripted(() => ok(), {
      rateLimit: { requests: 1, intervalMs: 100 },
      onQueued: () => {
        if (throws) {
          throws = false;
          throw cause;
        }
      },
    });
    vi.useFakeTimers();
    const first = send(getPipe());
    const failing = send(getPipe()).catch((error: unknown) => error);
    let thirdSent = false;
    const third = send(getPipe()).then(() => {
      thirdSent = true;
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(sent).toHaveLength(1);
    // One window (100 ms and the 50 ms margin): the failing call's turn comes, and goes on to the third.
    await vi.advanceTimersByTimeAsync(150);
    expect(await failing).toMatchObject({
      message: "getPipe GET /v1/pipes/{pipeId}: the onQueued hook failed: no room on the page",
      cause,
      operationId: "getPipe",
    });
    expect(thirdSent).toBe(true);
    await Promise.all([first, third]);
    expect(sent).toHaveLength(2);
  });
});
