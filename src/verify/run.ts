// Runs `ingestion-api verify`'s checks against one or both interfaces, in parallel, each interface's requests
// paced by its credential's queue, and gathers what they found: the checks' own reasons, and every problem of the
// answers, each problem once however many answers showed it.
import type { RateLimit } from "../client/rate-limit.js";
import { answerProblems } from "./answers.js";
import { authentication, type Check, credentialsAccepted, vectorChecks } from "./checks.js";
import { type Api, type Operation, operationsOfApi, vectorsOf } from "./contract.js";
import { flowChecks, type PipeIds } from "./flows.js";
import { createSender } from "./sender.js";

/** What may be sent: GETs only; also POST and PUT requests the contract says are refused before any change; or anything. */
export type Mode = "read-only" | "refusals" | "writes";

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

export interface CheckResult {
  id: string;
  api: string;
  operationId: string;
  kind: Check["kind"];
  name: string;
  rule: string;
  status: "passed" | "failed" | "skipped";
  reasons: string[];
  /** Why it was not run. */
  skipped?: string;
}

/** A problem of the answers: one per distinct problem, with where it was first seen and how often. */
export interface Finding {
  api: string;
  operationId: string;
  about: string;
  problem: string;
  firstSeenIn: { kind: string; name: string };
  answers: number;
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

/** Why a planned check is left out in a mode, or undefined when it runs. */
function leftOut(check: Check, mode: Mode): string | undefined {
  if (mode === "read-only" && check.posts) return "they send a POST or PUT, which --read-only leaves out";
  if (mode !== "writes" && check.writes) return "they need --allow-writes: a valid POST or PUT, or a flow";
  return undefined;
}

/**
 * Every check of an interface, in order: the credentials first, then the vectors, authentication, the flows. The
 * credentials check reads with a GET of `only` when it names one, so that `--only getPipe` runs getPipe's checks alone.
 */
function plan(api: Api, pipe: PipeIds | undefined, only?: string[]): Check[] {
  const operations = operationsOfApi(api);
  const operationOf = (operationId: string) => operations.find((operation) => operation.operationId === operationId) as Operation;
  const reads = operations.filter((operation) => operation.method === "GET");
  const firstRead = (reads.find((operation) => only?.includes(operation.operationId)) ?? reads[0]) as Operation;
  const has = (operationId: string) => operations.some((operation) => operation.operationId === operationId);
  const update = has("updatePipeSettings") ? operationOf("updatePipeSettings").example.path : {};
  const pipeIds = pipe ?? { organizationId: update.organizationId ?? "", serviceId: update.serviceId ?? "", pipeId: update.pipeId ?? "" };
  const vectors = vectorsOf(api);
  const settingsPuts = vectors.flatMap((vector) =>
    vector.operation === "updatePipeSettings" && vector.part !== "response" && vector.verdict === "valid" && vector.http ? [vector.http.path] : [],
  );
  return [
    credentialsAccepted(firstRead),
    ...vectorChecks(operations, vectors),
    ...operations.flatMap(authentication),
    ...flowChecks(operationOf, has, pipeIds, settingsPuts),
  ];
}

/**
 * How many resources --allow-writes may create through each POST operation of an interface (its valid vectors and
 * its flows): the contract has no delete, so `--help` says how many stay on the server.
 */
export function createdByWrites(api: Api): Record<string, number> {
  const created: Record<string, number> = {};
  for (const check of plan(api, undefined)) {
    if (check.writes && check.operation.method === "POST") created[check.operation.operationId] = (created[check.operation.operationId] ?? 0) + 1;
  }
  return created;
}

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
  const results = new Map<string, CheckResult>();
  const findings = new Map<string, Finding>();
  /** Where in its interface's plan each finding's first-named check stands. */
  const firstSeenAt = new Map<string, number>();
  const limitedWhileKept: Record<string, number> = {};
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
    for (const check of checks) {
      const reason = leftOut(check, options.mode);
      results.set(check.id, { ...resultOf(check), status: reason ? "skipped" : "passed", ...(reason && { skipped: reason }) });
    }
    return { target, checks: checks.filter((check) => !leftOut(check, options.mode)) };
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
        results.set(check.id, { ...resultOf(check), status: outcome.reasons.length > 0 ? "failed" : "passed", reasons: outcome.reasons });
        for (const { operation, exchange } of outcome.exchanges) {
          for (const answer of [...exchange.limited, exchange]) {
            if (answer.failure) continue;
            if (answer.status === 429 && target.contractLimit) limitedWhileKept[target.api.name] = (limitedWhileKept[target.api.name] ?? 0) + 1;
            for (const { about, text } of answerProblems(operation, answer)) {
              const key = `${target.api.name} ${about} ${text}`;
              const known = findings.get(key);
              const order = checks.indexOf(check);
              // Checks run four at a time: the first check in the plan's order names the problem, not the first to
              // finish, so the same server gets the same report every run.
              if (known) {
                known.answers++;
                if (order < (firstSeenAt.get(key) ?? Number.POSITIVE_INFINITY)) {
                  known.firstSeenIn = { kind: check.kind, name: check.name };
                  firstSeenAt.set(key, order);
                }
              } else {
                findings.set(key, {
                  api: target.api.name,
                  operationId: operation.operationId,
                  about,
                  problem: text,
                  firstSeenIn: { kind: check.kind, name: check.name },
                  answers: 1,
                });
                firstSeenAt.set(key, order);
              }
            }
          }
        }
        return outcome.reasons.length === 0;
      };
      const [first, ...rest] = checks;
      if (first && !(await runOne(first))) {
        for (const check of rest) results.set(check.id, { ...resultOf(check), status: "skipped", skipped: "the credentials check failed" });
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
    checks: [...results.values()],
    // In the plan's order, interface by interface, whichever check finished first.
    findings: [...findings]
      .sort(
        ([a, first], [b, second]) =>
          targets.findIndex((target) => target.api.name === first.api) - targets.findIndex((target) => target.api.name === second.api) ||
          (firstSeenAt.get(a) ?? 0) - (firstSeenAt.get(b) ?? 0),
      )
      .map(([, finding]) => finding),
    limitedWhileKept,
  };
}

function resultOf(check: Check): CheckResult {
  return {
    id: check.id,
    api: check.api.name,
    operationId: check.operation.operationId,
    kind: check.kind,
    name: check.name,
    rule: check.rule,
    status: "passed",
    reasons: [],
  };
}
