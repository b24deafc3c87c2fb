// A shared store that fails open: when it cannot answer (refused, lost, silent past its deadline, an error reply),
// this process counts the credential's sends in its own memory, under the same limits, and goes on; it says so once,
// tries the shared store again once a second, and says so once more when it answers again. A store that paces
// calls must never be why they fail: the server itself may be up the whole time.
import { createMemoryRateLimitStore } from "../client/memory-store.js";
import { marginMs, type RateLimit, type RateLimitStore, type Ticket, type Turn } from "../client/rate-limit.js";
import type { SharedRateLimitStore } from "./redis-store.js";
import { UnusableStoreError } from "./unusable-store.js";

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

export function failingOpen(shared: SharedRateLimitStore, { logger, commandTimeoutMs, name }: FailOpenOptions): RateLimitStore {
  const local = createMemoryRateLimitStore();
  // When the store fell back (undefined while the shared store answers), and when it last came back (never, at first:
  // on the monotonic clock a process starts near 0, and a store that never fell back is not just back).
  let downSince: number | undefined;
  let upSince = Number.NEGATIVE_INFINITY;

  /** A command of the shared store, or undefined when it failed: the caller then asks the memory store. */
  async function attempt<T>(command: () => T | Promise<T>): Promise<{ value: T } | undefined> {
    const startedAt = performance.now();
    try {
      return { value: await withDeadline(command(), commandTimeoutMs) };
    } catch (error) {
      // A command sent before the store came back says nothing of it now.
      if (downSince === undefined && startedAt >= upSince) {
        downSince = performance.now();
        if (error instanceof UnusableStoreError) {
          logger.warn(`ingestion-api: ${name} cannot be used: ${error.message}; counting each credential's sends in this process from now on`);
        } else {
          logger.warn(`ingestion-api: ${name} failed (${reasonOf(error)}); counting each credential's sends in this process until it answers again`);
          probeLater();
        }
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
        logger.warn(
          `ingestion-api: ${name} answers again after ${Math.round((performance.now() - (downSince as number)) / 1000)} s; sharing each credential's count again`,
        );
        downSince = undefined;
        upSince = performance.now();
      }, probeLater);
    }, probeIntervalMs) as unknown as { unref?(): void };
    // Stryker disable next-line OptionalChaining: Node's timers have unref, which is what matters here; Deno's are numbers.
    timer.unref?.();
  }

  // A ticket of this store names the send in both: the memory store's ticket (the mirror of a shared send, or the
  // send itself while counting alone; empty when there is none), "|", and the shared store's (empty while down).
  return {
    async take(key, limit) {
      const share = shareOf(limit, shared.sharers(key));
      if (downSince !== undefined) return joined(local.take(key, share), "");
      // Just back, a send must fit this process's share too for a window: a Redis that restarted knows nothing of
      // the sends made apart, which the server still counts.
      let mirror: Ticket | undefined;
      if (limit !== undefined && performance.now() - upSince < limit.intervalMs + marginMs(limit)) {
        const own = local.take(key, share);
        if (typeof own !== "string") return own;
        mirror = own;
      }
      const turn = await attempt(() => shared.take(key, limit));
      if (!turn) return mirror === undefined ? joined(local.take(key, share), "") : joined(mirror, "");
      if (typeof turn.value !== "string") {
        if (mirror !== undefined) local.release(key, mirror);
        return turn.value;
      }
      // A send the shared store took is kept in memory too: counting alone then starts from this process's own.
      if (mirror === undefined) {
        const own = local.take(key, undefined);
        mirror = typeof own === "string" ? own : "";
      }
      return joined(mirror, turn.value);
    },
    async answered(key, limit, ticket) {
      const [mine, theirs] = parts(ticket);
      if (mine) local.answered(key, limit, mine);
      if (theirs && downSince === undefined) await attempt(() => shared.answered(key, limit, theirs));
    },
    async limited(key, limit, waitMs, ticket) {
      const [mine, theirs] = parts(ticket);
      // The pause holds this process's calls at once, whatever the shared store does.
      local.limited(key, limit, waitMs, mine);
      if (downSince === undefined) await attempt(() => shared.limited(key, limit, waitMs, theirs));
    },
    async release(key, ticket) {
      const [mine, theirs] = parts(ticket);
      if (mine) local.release(key, mine);
      if (theirs && downSince === undefined) await attempt(() => shared.release(key, theirs));
    },
  };
}

/** This store's ticket for a turn of the memory store's and the shared store's ticket; a wait as it is. */
function joined(local: Turn, theirs: Ticket): Turn {
  return typeof local === "string" ? `${local}|${theirs}` : local;
}

/** A ticket's parts, on either side of its bar: the memory store's and the shared store's, each empty when there is none. */
function parts(ticket: Ticket): [mine: Ticket, theirs: Ticket] {
  const bar = ticket.indexOf("|");
  return [ticket.slice(0, bar), ticket.slice(bar + 1)];
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
