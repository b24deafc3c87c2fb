// `import { createSandbox } from "ingestion-api/sandbox"`: the sandbox in the test's own process, as a `fetch` to
// give the clients. The same engine as `npx ingestion-api sandbox` (state, validation, Prefer, fault rules, rate
// limits) with no socket and no `node:` import, so it runs in Node, browsers and jsdom test environments.

import type { RateLimit } from "../client/rate-limit.js";
import { alerts, management } from "../contract/interfaces.js";
import type { SandboxState } from "./control.js";
import { defaultCredentials, type SandboxCredentials } from "./credentials.js";
import { createEngine, type EngineAnswer } from "./engine.js";
import type { Faults } from "./faults.js";
import { exampleSeed, type SandboxData, seedFrom } from "./seed.js";

export type { SandboxCredentials } from "./credentials.js";
export type { FaultRule, ListedFault } from "./faults.js";
export type { SandboxData } from "./seed.js";

export interface InProcessSandboxOptions {
  /** The data to start with and to go back to on `reset()`, in the seed's shape; checked. Default: the specs' examples. */
  seed?: unknown;
  /** Default: the sandbox's printed defaults (`sandbox-key-id`, `sandbox-key-secret`, `sandbox-token`). */
  credentials?: Partial<SandboxCredentials>;
  /** Answer 429 past this many requests per credential in any window of `intervalMs`, as the services do. None by default. */
  rateLimit?: RateLimit;
  /** Milliseconds every answer waits: a fixed delay, or `[min, max]`. */
  latencyMs?: number | [number, number];
  /** The most reverse private endpoints, and alerts, that creates may add. Default 10 000. */
  maxResources?: number;
}

export interface InProcessSandbox {
  /** Pass as the clients' `fetch`: every request is answered in this process. */
  fetch: typeof fetch;
  /** A base URL for both clients, this sandbox's own (the host is never looked up). */
  baseUrl: string;
  /** The credentials it accepts: give them to the clients. */
  credentials: SandboxCredentials;
  /** Puts the data back as it started: call it between test cases. */
  reset(): void;
  /** The data now, in the seed's shape. */
  readonly state: SandboxData;
  /**
   * Fault rules: `add({ operation: "getPipe", status: 503, count: 1 })`, `list()`, `clear()`. A client retries a GET
   * answered 503 (twice by default), so such a fault reaches the caller only with `maxRetries: 0` or a `count` beyond
   * the retries; a POST is not retried.
   */
  faults: Pick<Faults, "add" | "list" | "clear">;
  /** Stops answering: later requests fail as a closed server's would, and waiting answers are dropped. */
  close(): Promise<void>;
}

// Each sandbox has a base URL of its own, so the clients of two sandboxes never share a rate-limit queue (a 429 one
// of them answers pauses only its own credential's calls).
let sandboxes = 0;

/** The sandbox in process. Give `fetch`, `baseUrl` and `credentials` to the clients, with `rateLimit: false`. */
export function createSandbox(options: InProcessSandboxOptions = {}): InProcessSandbox {
  const credentials: SandboxCredentials = { ...defaultCredentials, ...options.credentials };
  const engine = createEngine({
    seed: options.seed === undefined ? exampleSeed() : seedFrom(options.seed),
    credentials,
    ...(options.rateLimit && { rateLimits: new Map([management, alerts].map((api) => [api, options.rateLimit as RateLimit])) }),
    ...(options.latencyMs !== undefined && { latencyMs: options.latencyMs }),
    ...(options.maxResources !== undefined && { maxResources: options.maxResources }),
  });
  const state: SandboxState = engine.state;
  const waiting = new Set<() => void>();
  let closed = false;

  async function sandboxFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
    if (closed) throw new TypeError("fetch failed", { cause: new Error("the in-process sandbox is closed") });
    const request = new Request(input, init);
    const url = new URL(request.url);
    // What a server reads from the connection: the host the call named (a refusal's command shows it).
    const headers = { host: url.host, ...Object.fromEntries(request.headers) };
    const received = engine.receive({ method: request.method, target: url.pathname + url.search, headers });
    const answer = typeof received === "function" ? received(await request.text()) : received;
    await delay(answer.delayMs, request.signal);
    if (answer.drop === "reset") throw new TypeError("fetch failed", { cause: Object.assign(new Error("socket hang up"), { code: "ECONNRESET" }) });
    return responseOf(answer);
  }

  /** Waits for an answer's delay, unless the caller aborts or the sandbox closes. */
  function delay(ms: number, signal: AbortSignal): Promise<void> {
    if (ms <= 0) return signal.aborted ? Promise.reject(signal.reason) : Promise.resolve();
    return new Promise((resolve, reject) => {
      const done = () => {
        clearTimeout(timer);
        waiting.delete(stop);
        signal.removeEventListener("abort", aborted);
      };
      const aborted = () => {
        done();
        reject(signal.reason);
      };
      const stop = () => {
        done();
        reject(new TypeError("fetch failed", { cause: new Error("the in-process sandbox is closed") }));
      };
      const timer = setTimeout(() => {
        done();
        resolve();
      }, ms);
      waiting.add(stop);
      signal.addEventListener("abort", aborted, { once: true });
    });
  }

  return {
    fetch: sandboxFetch,
    baseUrl: `https://sandbox-${++sandboxes}.invalid`,
    credentials,
    reset: () => state.reset(),
    get state() {
      return structuredClone(state.data);
    },
    faults: { add: (rule) => engine.faults.add(rule), list: () => engine.faults.list(), clear: () => engine.faults.clear() },
    async close() {
      closed = true;
      for (const stop of [...waiting]) stop();
    },
  };
}

/** The Response of an answer: its body as JSON or text, or, for `truncate`, half of it and then a failed read. */
function responseOf(answer: EngineAnswer): Response {
  const { status, body, headers = {} } = answer;
  const text = body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body);
  const all = new Headers(headers);
  if (text !== undefined && typeof body !== "string" && !all.has("content-type")) all.set("content-type", "application/json");
  const requestId = typeof body === "object" && body !== null ? (body as { requestId?: unknown }).requestId : undefined;
  if (typeof requestId === "string" && !all.has("x-request-id")) all.set("x-request-id", requestId);
  if (text === undefined || status === 204) return new Response(null, { status, headers: all });
  const bytes = new TextEncoder().encode(text);
  all.set("content-length", String(bytes.length));
  if (answer.drop !== "truncate") return new Response(bytes, { status, headers: all });
  // A connection dropped half-way through the body: the read fails as fetch's does.
  const cut = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(bytes.subarray(0, bytes.length >> 1));
      controller.error(new TypeError("terminated", { cause: Object.assign(new Error("other side closed"), { code: "UND_ERR_SOCKET" }) }));
    },
  });
  return new Response(cut, { status, headers: all });
}
