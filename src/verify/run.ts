// Runs `ingestion-api verify`'s checks against one or both interfaces, in parallel, each interface's requests
// paced by its credential's queue: the credentials check first, then what must come before every write, the rest
// four at a time, the flows one after another, and what must come after every write. What to run is plan.ts's; what
// was found, tally.ts's.
import type { RateLimit } from "../client/rate-limit.js";
import type { Check } from "./checks.js";
import { type Api, operationsOfApi } from "./contract.js";
import type { PipeIds } from "./flows.js";
import { leftOut, type Mode, plan } from "./plan.js";
import { createSender } from "./sender.js";
import { type CheckResult, type Finding, Tally } from "./tally.js";

export interface Target {
  api: Api;
  baseUrl: string;
  /** What follows the scheme in `Authorization`. */
  credentials: string;
  credentialId: string;
  /** The pace to keep: the contract's limit, another, or none. */
  rateLimit: RateLimit | undefined;
  /** Whether `rateLimit` is the contract's own: a 429 then means the server is stricter than it declares. */
  contractLimit: boolean;
}

export interface RunOptions {
  targets: Target[];
  mode: Mode;
  /** Only these operations' checks, when given. */
  only?: string[] | undefined;
  /** The pipe the flows use, else the examples' ids (which the sandbox has). */
  pipe?: PipeIds | undefined;
  timeoutMs: number;
  /** How many checks of one interface are in flight at once. */
  concurrency?: number;
  onProgress?: (progress: Progress) => void;
}

export interface Progress {
  done: number;
  total: number;
  /** An estimate of the time left, from the pace each interface keeps. */
  leftMs: number;
}

export interface Report {
  servers: Record<string, string>;
  rateLimits: Record<string, string>;
  mode: Mode;
  durationMs: number;
  requests: number;
  checks: CheckResult[];
  findings: Finding[];
  /** 429s answered while the contract's own limit was kept, by interface: a server stricter than it declares, or another client of the key. */
  limitedWhileKept: Record<string, number>;
}

const describeLimit = (target: Target) =>
  target.rateLimit === undefined
    ? "no limit kept: --rate-limit off"
    : `${target.rateLimit.requests} requests per ${target.rateLimit.intervalMs / 1000} s${target.contractLimit ? ", the contract's" : ""}`;

/** Runs `work` over `items`, at most `limit` at once, in order of start. */
async function inPool<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++] as T);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

export async function runVerify(options: RunOptions): Promise<Report> {
  const started = Date.now();
  const tally = new Tally();
  let requests = 0;
  const pace = new Map<Target, { left: number; msPerRequest: number }>();

  // With --only, an interface none of whose operations is named is left alone.
  const targets = options.targets.filter(
    (target) => !options.only || operationsOfApi(target.api).some((operation) => options.only?.includes(operation.operationId)),
  );
  const planned = targets.map((target) => {
    // The credentials check runs whatever --only says: without it, a wrong key would fail every check alike.
    const checks = plan(target.api, options.pipe, options.only).filter(
      (check) => check.kind === "credentials" || !options.only || options.only.includes(check.operation.operationId),
    );
    const kept: Check[] = [];
    for (const check of checks) {
      const why = leftOut(check, options.mode);
      tally.planned(check, why);
      if (!why) kept.push(check);
    }
    return { target, checks: kept };
  });
  const total = planned.reduce((sum, { checks }) => sum + checks.reduce((count, check) => count + check.requests, 0), 0);
  let done = 0;
  const progress = () => {
    const leftMs = Math.max(0, ...[...pace.values()].map(({ left, msPerRequest }) => left * msPerRequest));
    options.onProgress?.({ done, total, leftMs });
  };

  await Promise.all(
    planned.map(async ({ target, checks }) => {
      const interval = target.rateLimit ? target.rateLimit.intervalMs / target.rateLimit.requests : 0;
      const own = { left: checks.reduce((count, check) => count + check.requests, 0), msPerRequest: interval };
      pace.set(target, own);
      const interfaceStarted = Date.now();
      let sent = 0;
      const send = createSender({
        ...target,
        timeoutMs: options.timeoutMs,
        onSent: () => {
          requests++;
          sent++;
          done = Math.min(total, done + 1);
          own.left = Math.max(0, own.left - 1);
          // The pace seen so far, or the limit's, whichever is slower.
          own.msPerRequest = Math.max(interval, (Date.now() - interfaceStarted) / sent);
          progress();
        },
      });
      const runOne = async (check: Check) => {
        const outcome = await check.run(send);
        tally.ran(check, outcome, checks.indexOf(check), target.contractLimit);
        return outcome.reasons.length === 0;
      };
      const [first, ...rest] = checks;
      if (first && !(await runOne(first))) {
        for (const check of rest) tally.planned(check, "the credentials check failed");
        own.left = 0;
        return;
      }
      // What must come before every write; the rest four at a time; flows, which write and read back the same
      // resources, one after another; then what must come after every write.
      const inPhase = (phase: Check["phase"]) => rest.filter((check) => check.phase === phase);
      for (const check of inPhase("first")) await runOne(check);
      const anytime = inPhase(undefined);
      await inPool(
        anytime.filter((check) => check.kind !== "flow"),
        options.concurrency ?? 4,
        async (check) => void (await runOne(check)),
      );
      for (const check of anytime.filter((candidate) => candidate.kind === "flow")) await runOne(check);
      for (const check of inPhase("last")) await runOne(check);
    }),
  );

  return {
    servers: Object.fromEntries(targets.map((target) => [target.api.name, target.baseUrl])),
    rateLimits: Object.fromEntries(targets.map((target) => [target.api.name, describeLimit(target)])),
    mode: options.mode,
    durationMs: Date.now() - started,
    requests,
    checks: tally.checks(),
    findings: tally.findings(targets.map((target) => target.api)),
    limitedWhileKept: tally.limitedWhileKept,
  };
}
