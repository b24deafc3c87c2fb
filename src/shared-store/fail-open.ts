// A shared store that fails open: when it cannot answer (refused, lost, silent past its deadline, an error reply),
// this process counts the credential's sends in its own memory, under the same limits, and goes on; it says so once,
// tries the shared store again once a second, and says so once more when it answers again. A store that paces
// calls must never be why they fail: the server itself may be up the whole time.
import { createMemoryRateLimitStore } from "../client/memory-store.js";
import { marginMs, type RateLimit, type RateLimitStore } from "../client/rate-limit.js";
import type { SharedRateLimitStore } from "./redis-store.js";

/** Where the store says it fell back and came back: `console` by default. */
export interface StoreLogger {
  warn(message: string): void;
}

export interface FailOpenOptions {
  logger: StoreLogger;
  /** How long a command may take before the store counts in memory instead. */
  commandTimeoutMs: number;
  /** What the log lines call the shared store. */
  name: string;
}

/** The key a probe takes a send for: hashed like any other, and no credential's. */
// Stryker disable next-line StringLiteral: any key does, as long as no credential's key is it.
const probeKey = "ingestion-api store probe";

/** How often, at most, a store counting in memory asks the shared one whether it answers again. */
export const probeIntervalMs = 1_000;

export function failingOpen(shared: SharedRateLimitStore, { logger, commandTimeoutMs, name }: FailOpenOptions): Required<RateLimitStore> {
  const local = createMemoryRateLimitStore();
  // When the store fell back (0 while the shared store answers), and when it last came back.
  let downSince = 0;
  let upSince = 0;

  /** A command of the shared store, or undefined when it failed: the caller then asks the memory store. */
  async function attempt<T>(command: () => T | Promise<T>): Promise<{ value: T } | undefined> {
    const startedAt = Date.now();
    try {
      return { value: await withDeadline(command(), commandTimeoutMs) };
    } catch (error) {
      // A command sent before the store came back says nothing of it now.
      if (downSince === 0 && startedAt >= upSince) {
        downSince = Date.now();
        logger.warn(`ingestion-api: ${name} failed (${reasonOf(error)}); counting each credential's sends in this process until it answers again`);
        probeLater();
      }
      return undefined;
    }
  }

  /**
   * While down, asks the shared store once per interval whether it answers again, with a take for a key of its own,
   * which runs a script and writes as every call does (a Redis that answers PING but refuses writes is still down).
   * The timer does not keep the process alive.
   */
  function probeLater(): void {
    const timer = setTimeout(() => {
      withDeadline(shared.take(probeKey, undefined), commandTimeoutMs).then(() => {
        logger.warn(`ingestion-api: ${name} answers again after ${Math.round((Date.now() - downSince) / 1000)} s; sharing each credential's count again`);
        downSince = 0;
        upSince = Date.now();
      }, probeLater);
    }, probeIntervalMs) as unknown as { unref?(): void };
    // Stryker disable next-line OptionalChaining: Node's timers have unref, which is what matters here; Deno's are numbers.
    timer.unref?.();
  }

  return {
    async take(key, limit) {
      if (downSince === 0) {
        // Just back, a send must fit this process's share too for a window: a Redis that restarted knows nothing of
        // the sends made apart, which the server still counts.
        const justBack = limit !== undefined && Date.now() - upSince < limit.intervalMs + marginMs(limit);
        if (justBack) {
          const own = local.take(key, shareOf(limit, shared.sharers(key)));
          if (own !== 0) return own;
        }
        const turn = await attempt(() => shared.take(key, limit));
        // A send the shared store took is kept in memory too: counting alone then starts from this process's own.
        if (turn?.value === 0 && !justBack) local.take(key, undefined);
        if (turn) return turn.value;
      }
      return local.take(key, shareOf(limit, shared.sharers(key)));
    },
    async limited(key, limit, waitMs, elapsedMs) {
      // The pause holds this process's calls at once, whatever the shared store does.
      local.limited(key, limit, waitMs, elapsedMs);
      if (downSince === 0) await attempt(() => shared.limited(key, limit, waitMs, elapsedMs));
    },
    async answered(key, limit, elapsedMs) {
      if (downSince === 0 && (await attempt(() => shared.answered(key, limit, elapsedMs)))) return;
      local.answered(key, limit, elapsedMs);
    },
  };
}

/**
 * A process's share of a limit while it counts alone: the limit split between the stores last seen sharing the
 * credential, so that the fleet apart keeps about the limit it kept together (the client's own limit without others).
 */
function shareOf(limit: RateLimit | undefined, sharers: number): RateLimit | undefined {
  return limit && sharers > 1 ? { requests: Math.max(1, Math.floor(limit.requests / sharers)), intervalMs: limit.intervalMs } : limit;
}

/** A command's promise, rejected at the deadline if it has not settled by then; the timer goes when it settles. */
async function withDeadline<T>(command: T | Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([command, deadline]).finally(() => clearTimeout(timer));
}

function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
