// The page's sandbox and the two clients that call it: made once, kept for the life of the page, and made again on
// a reset or a new sandbox rate limit. Each send records every attempt the SDK made, through its hooks.
import { createAlertsClient } from "../client/alerts-client.js";
import type { CommonClientOptions } from "../client/client-options.js";
import { createManagementClient } from "../client/management-client.js";
import type { RateLimit } from "../client/rate-limit.js";
import { defaultCredentials } from "../sandbox/credentials.js";
import { createSandbox, type InProcessSandbox } from "../sandbox/in-process.js";
import type { Clients, EditedRequest, PlaygroundOperation } from "./operations.js";

/**
 * Where the calls go: the sandbox in this page, `npx ingestion-api sandbox` (its published credentials), or a
 * server with the reader's credentials, held here only.
 */
export type Target =
  | { kind: "page" }
  | { kind: "sandbox"; origin: string }
  | { kind: "server"; origin: string; credentials: { keyId: string; keySecret: string; token: string } };

/** What the SDK options the reader sets are, and where the calls go. */
export interface ClientSettings {
  target: Target;
  /** The SDK paces its own calls at the contract's limit (its default); otherwise it sends at once (`rateLimit: false`). */
  paced: boolean;
  maxRetries: number;
  maxRateLimitWaitMs: number;
}

/**
 * One attempt, as the SDK's hooks and the in-page wire tell of it while it goes: its wait for a turn in the rate-limit
 * queue (`onQueued`), its send (`onRequest`, then the request as the SDK's fetch sends it), its answer, and whether
 * and when the SDK sends it again (`onResponse`).
 */
export interface Attempt {
  attempt: number;
  /** It waited for its turn: from when, in ms from the call, how many calls waited, about how long at the pace. */
  queued?: { at: number; waiting: number; aboutMs: number | undefined };
  /** When the SDK sent it, in ms from the call: a retry's pause and a turn waited in the queue show between attempts. */
  at?: number;
  request?: { method: string; url: string; headers: [string, string][]; body: string };
  response?: { status: number; statusText: string; headers: [string, string][]; body: string; ms: number; willRetry: boolean; retryInMs: number | undefined };
}

/** One call: its attempts, and what the SDK gave back (a value, or the error it threw); no outcome while it runs. */
export interface CallRecord {
  attempts: Attempt[];
  outcome?: { value: unknown } | { error: unknown };
}

/** How a send is followed and stopped: `progress` is told each step of every call, `signal` cancels them all. */
export interface SendControl {
  signal: AbortSignal;
  progress: (records: CallRecord[]) => void;
}

// The credential's secret never shows: its scheme stays, so the reader sees which one was sent.
const masked = (name: string, value: string) => (name.toLowerCase() === "authorization" ? value.replace(/ .*/, " ••••••••") : value);

export class PlaygroundSession {
  private sandbox!: InProcessSandbox;
  private sandboxLimit: RateLimit | undefined;
  /** Aborts the calls made to the sandbox in use when it is replaced. */
  private calls = new AbortController();

  constructor(private settings: ClientSettings) {
    this.start();
  }

  /** The sandbox's data now, as `/_sandbox/state` answers it. */
  get state(): unknown {
    return this.sandbox.state;
  }

  /**
   * The seed back, in a new sandbox with the same rate limit: what the SDK held for the old one's address (a 429's
   * pause) goes with it, and calls still waiting on it are aborted.
   */
  reset(): void {
    this.start();
  }

  /** The sandbox answers 429 past `limit` (or never, undefined), keeping its data; calls still waiting are aborted. */
  limitSandbox(limit: RateLimit | undefined): void {
    this.sandboxLimit = limit;
    this.start(this.sandbox.state);
  }

  configure(settings: ClientSettings): void {
    this.settings = settings;
  }

  /**
   * Sends `request` through the SDK's method for `operation`, `times` calls at once, each with its own record;
   * `prefer` asks the sandbox for a status the operation declares. Undefined when the page's sandbox, which the calls
   * went to, was replaced (reset, or a new rate limit) before they ended: they were aborted, and their records tell
   * of a sandbox that is gone. Calls to any other server go on: replacing the page's sandbox is nothing to them.
   */
  async sendMany(
    operation: PlaygroundOperation,
    request: EditedRequest,
    prefer: number | undefined,
    times: number,
    control: SendControl,
  ): Promise<CallRecord[] | undefined> {
    const sandbox = this.settings.target.kind === "page" ? this.sandbox : undefined;
    // The reader's Cancel, or the page's sandbox they go to replaced: either stops every call of the send.
    const { signal, dispose } = sandbox ? eitherSignal(this.calls.signal, control.signal) : { signal: control.signal, dispose() {} };
    const records: CallRecord[] = Array.from({ length: times }, () => ({ attempts: [] }));
    const progress = () => control.progress(records);
    try {
      await Promise.all(records.map((record) => this.send(operation, request, prefer, signal, record, progress)));
    } finally {
      dispose();
    }
    return sandbox === undefined || this.sandbox === sandbox ? records : undefined;
  }

  private async send(
    operation: PlaygroundOperation,
    request: EditedRequest,
    prefer: number | undefined,
    signal: AbortSignal,
    record: CallRecord,
    progress: () => void,
  ): Promise<void> {
    try {
      // Made in the try: a client refuses credentials left empty, and the call then ends with its error.
      const clients = this.clientsRecordingInto(record.attempts, performance.now(), progress);
      const value = await operation.call(clients, request, { signal, ...(prefer !== undefined && { headers: { Prefer: `code=${prefer}` } }) });
      record.outcome = { value };
    } catch (error) {
      record.outcome = { error };
    }
    progress();
  }

  private start(seed?: unknown): void {
    this.calls.abort(new Error("the sandbox was replaced"));
    this.calls = new AbortController();
    void this.sandbox?.close();
    this.sandbox = createSandbox({ ...(seed !== undefined && { seed }), ...(this.sandboxLimit && { rateLimit: this.sandboxLimit }) });
  }

  /**
   * Clients of one call, so its attempts are its own when calls overlap. They share the sandbox's address, and with
   * it the SDK's rate-limit queue and pauses, as one process's clients do. The hooks tell of each attempt's wait, its
   * send and whether and when the SDK sends again; the fetch between the SDK and the sandbox sees each exactly as it
   * went. Each step is told to `progress` as it happens.
   */
  private clientsRecordingInto(attempts: Attempt[], started: number, progress: () => void): Clients {
    const sandbox = this.sandbox;
    const { target } = this.settings;
    const since = () => Math.round(performance.now() - started);
    // The page's sandbox answers in the page; any other server over the network, as the browser allows.
    const wire = target.kind === "page" ? (request: Request) => sandbox.fetch(request) : (request: Request) => fetch(request);
    const credentials = target.kind === "page" ? sandbox.credentials : target.kind === "sandbox" ? defaultCredentials : target.credentials;
    const recordingFetch: typeof fetch = async (input, init) => {
      const request = new Request(input, init);
      const current = attempts.at(-1);
      const sentAt = performance.now();
      const sent = {
        method: request.method,
        url: request.url,
        headers: [...request.headers].map(([name, value]): [string, string] => [name, masked(name, value)]),
        body: await request.clone().text(),
      };
      if (current) current.request = sent;
      progress();
      const response = await wire(request);
      if (current) {
        current.response = {
          status: response.status,
          statusText: response.statusText,
          headers: [...response.headers],
          body: await response.clone().text(),
          ms: Math.round(performance.now() - sentAt),
          willRetry: false,
          retryInMs: undefined,
        };
      }
      return response;
    };
    const common: CommonClientOptions = {
      baseUrl: target.kind === "page" ? sandbox.baseUrl : target.origin,
      fetch: recordingFetch,
      maxRetries: this.settings.maxRetries,
      maxRateLimitWaitMs: this.settings.maxRateLimitWaitMs,
      ...(!this.settings.paced && { rateLimit: false }),
      onQueued: ({ attempt, waiting, aboutMs }) => {
        attempts.push({ attempt, queued: { at: since(), waiting, aboutMs } });
        progress();
      },
      onRequest: (_request, { attempt }) => {
        const waited = attempts.at(-1);
        if (waited?.attempt === attempt && waited.at === undefined) waited.at = since();
        else attempts.push({ attempt, at: since() });
      },
      onResponse: (_response, { willRetry, retryInMs }) => {
        const current = attempts.at(-1)?.response;
        if (current) Object.assign(current, { willRetry, retryInMs });
        progress();
      },
    };
    // Each made when the call asks for it: a reader may give one interface's credentials only.
    return {
      get management() {
        return createManagementClient({ ...common, keyId: credentials.keyId, keySecret: credentials.keySecret });
      },
      get alerts() {
        return createAlertsClient({ ...common, token: credentials.token });
      },
    };
  }
}

/**
 * A signal that aborts with the first of `a` and `b` (AbortSignal.any, which browsers before 2024 lack: Safari 17.3,
 * Chrome 115), with its reason.
 */
function eitherSignal(a: AbortSignal, b: AbortSignal): { signal: AbortSignal; dispose(): void } {
  const either = new AbortController();
  // Stops listening once the send is over: the session's own signal lives as long as its sandbox.
  const listening = new AbortController();
  for (const signal of [a, b]) {
    if (signal.aborted) either.abort(signal.reason);
    else signal.addEventListener("abort", () => either.abort(signal.reason), { once: true, signal: listening.signal });
  }
  return { signal: either.signal, dispose: () => listening.abort() };
}
