// The page's sandbox and the two clients that call it: made once, kept for the life of the page, and made again on
// a reset or a new sandbox rate limit. Each send records every attempt the SDK made, through its hooks.
import { createAlertsClient } from "../client/alerts-client.js";
import type { CommonClientOptions } from "../client/client-options.js";
import { createManagementClient } from "../client/management-client.js";
import type { RateLimit } from "../client/rate-limit.js";
import { createSandbox, type InProcessSandbox } from "../sandbox/in-process.js";
import type { Clients, EditedRequest, PlaygroundOperation } from "./operations.js";

/** What the SDK options the reader sets are. */
export interface ClientSettings {
  /** The SDK paces its own calls at the contract's limit (its default); otherwise it sends at once (`rateLimit: false`). */
  paced: boolean;
  maxRetries: number;
  maxRateLimitWaitMs: number;
}

/** One attempt as it went over the in-page wire (`request` is filled as the SDK's fetch sends it). */
export interface Attempt {
  attempt: number;
  /** When the SDK sent it, in ms from the call: a retry's pause and a turn waited in the queue show between attempts. */
  at: number;
  request: { method: string; url: string; headers: [string, string][]; body: string };
  response?: { status: number; statusText: string; headers: [string, string][]; body: string; ms: number; willRetry: boolean };
}

/** One call: its attempts, and what the SDK gave back: a value, or the error it threw. */
export interface CallRecord {
  attempts: Attempt[];
  outcome: { value: unknown } | { error: unknown };
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
   * The seed back, in a new sandbox without a rate limit: what the SDK held for the old one's address (a 429's pause)
   * goes with it, and calls still waiting on it are aborted.
   */
  reset(): void {
    this.sandboxLimit = undefined;
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
   * `prefer` asks the sandbox for a status the operation declares. Undefined when the sandbox was replaced (reset, or
   * a new rate limit) before the calls ended: they were aborted, and their records tell of a sandbox that is gone.
   */
  async sendMany(operation: PlaygroundOperation, request: EditedRequest, prefer: number | undefined, times: number): Promise<CallRecord[] | undefined> {
    const sandbox = this.sandbox;
    const { signal } = this.calls;
    const records = await Promise.all(Array.from({ length: times }, () => this.send(operation, request, prefer, signal)));
    return this.sandbox === sandbox ? records : undefined;
  }

  private async send(operation: PlaygroundOperation, request: EditedRequest, prefer: number | undefined, signal: AbortSignal): Promise<CallRecord> {
    const attempts: Attempt[] = [];
    const clients = this.clientsRecordingInto(attempts, performance.now());
    try {
      const value = await operation.call(clients, request, { signal, ...(prefer !== undefined && { headers: { Prefer: `code=${prefer}` } }) });
      return { attempts, outcome: { value } };
    } catch (error) {
      return { attempts, outcome: { error } };
    }
  }

  private start(seed?: unknown): void {
    this.calls.abort(new Error("the sandbox was replaced"));
    this.calls = new AbortController();
    void this.sandbox?.close();
    this.sandbox = createSandbox({ ...(seed !== undefined && { seed }), ...(this.sandboxLimit && { rateLimit: this.sandboxLimit }) });
  }

  /**
   * Clients of one call, so its attempts are its own when calls overlap. They share the sandbox's address, and with
   * it the SDK's rate-limit queue and pauses, as one process's clients do. The hooks number the attempts and say
   * whether the SDK will send again; the fetch between the SDK and the sandbox sees each exactly as it went.
   */
  private clientsRecordingInto(attempts: Attempt[], started: number): Clients {
    const sandbox = this.sandbox;
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
      const response = await sandbox.fetch(request);
      if (current) {
        current.response = {
          status: response.status,
          statusText: response.statusText,
          headers: [...response.headers],
          body: await response.clone().text(),
          ms: Math.round(performance.now() - sentAt),
          willRetry: false,
        };
      }
      return response;
    };
    const common: CommonClientOptions = {
      baseUrl: sandbox.baseUrl,
      fetch: recordingFetch,
      maxRetries: this.settings.maxRetries,
      maxRateLimitWaitMs: this.settings.maxRateLimitWaitMs,
      ...(!this.settings.paced && { rateLimit: false }),
      onRequest: (_request, { attempt }) => {
        attempts.push({ attempt, at: Math.round(performance.now() - started), request: { method: "", url: "", headers: [], body: "" } });
      },
      onResponse: (_response, { willRetry }) => {
        const current = attempts.at(-1)?.response;
        if (current) current.willRetry = willRetry;
      },
    };
    return {
      management: createManagementClient({ ...common, keyId: sandbox.credentials.keyId, keySecret: sandbox.credentials.keySecret }),
      alerts: createAlertsClient({ ...common, token: sandbox.credentials.token }),
    };
  }
}
