// What a verify run found, as its checks end, in whatever order they end: each check's result, the 429s met while
// the contract's limit was kept, and each problem of the answers once, named by the first check in the plan's order
// that met it (checks run four at a time), so the same server gets the same report every run.
import { answerProblems } from "./answers.js";
import type { Check, CheckOutcome } from "./checks.js";
import type { Api } from "./contract.js";

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

export class Tally {
  readonly #results = new Map<string, CheckResult>();
  readonly #findings = new Map<string, Finding>();
  /** Where in its interface's plan each finding's first-named check stands. */
  readonly #firstSeenAt = new Map<string, number>();
  /** 429s answered while the contract's own limit was kept, by interface. */
  readonly limitedWhileKept: Record<string, number> = {};

  /** A check as planned: to run (passed until it says otherwise), or left out, with why. */
  planned(check: Check, skipped: string | undefined): void {
    this.#results.set(check.id, { ...resultOf(check), status: skipped ? "skipped" : "passed", ...(skipped && { skipped }) });
  }

  /**
   * A check that ran: its reasons, and the problems of every answer it got; `order` is its place in its interface's
   * plan, `contractLimit` whether the pace kept was the contract's own.
   */
  ran(check: Check, outcome: CheckOutcome, order: number, contractLimit: boolean): void {
    this.#results.set(check.id, { ...resultOf(check), status: outcome.reasons.length > 0 ? "failed" : "passed", reasons: outcome.reasons });
    const api = check.api.name;
    for (const { operation, exchange } of outcome.exchanges) {
      for (const answer of [...exchange.limited, exchange]) {
        if (answer.failure) continue;
        if (answer.status === 429 && contractLimit) this.limitedWhileKept[api] = (this.limitedWhileKept[api] ?? 0) + 1;
        for (const { about, text } of answerProblems(operation, answer)) {
          const key = `${api} ${about} ${text}`;
          const known = this.#findings.get(key);
          if (!known) {
            this.#findings.set(key, {
              api,
              operationId: operation.operationId,
              about,
              problem: text,
              firstSeenIn: { kind: check.kind, name: check.name },
              answers: 1,
            });
            this.#firstSeenAt.set(key, order);
            continue;
          }
          known.answers++;
          if (order < (this.#firstSeenAt.get(key) ?? Number.POSITIVE_INFINITY)) {
            known.firstSeenIn = { kind: check.kind, name: check.name };
            this.#firstSeenAt.set(key, order);
          }
        }
      }
    }
  }

  /** Every check's result, in the order they were planned. */
  checks(): CheckResult[] {
    return [...this.#results.values()];
  }

  /** The problems found, in the plan's order, interface by interface as `apis` lists them, whichever check finished first. */
  findings(apis: Api[]): Finding[] {
    const place = (name: string) => apis.findIndex((api) => api.name === name);
    return [...this.#findings]
      .sort(([a, first], [b, second]) => place(first.api) - place(second.api) || (this.#firstSeenAt.get(a) ?? 0) - (this.#firstSeenAt.get(b) ?? 0))
      .map(([, finding]) => finding);
  }
}
