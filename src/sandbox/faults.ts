// Faults on request, beside state: a rule makes an operation (or every one) answer a declared error, or drop its
// connection before or in the middle of the answer, after a delay, a number of times or with a probability. Every
// injected body is the status's declared example, checked against the declared schema when the rule is added.
import { type Answer, declaredAnswerFor, declaresWait, maxRetryAfterSeconds } from "./answers.js";
import { type DeclaredCode, declaredStatuses, type Operation, type OperationId, operations } from "./contract.js";

/**
 * A fault rule, as `faults.add()` takes it: for one operation, whose declared statuses its `status` may name, or for
 * every one (`*`, a status each of them declares). `POST /_sandbox/faults` takes the same in JSON.
 */
export type FaultRule = { [Target in OperationId | "*"]: FaultRuleFor<Target> }[OperationId | "*"];

/** A fault rule for `Target`: an operation id, or `*` for every one. */
export interface FaultRuleFor<Target extends OperationId | "*"> {
  /** The operation it applies to, or `*` for every one. */
  operation: Target;
  /**
   * A status the operation declares (each code of a range: 500 to 599 under `5XX`), answered with its declared
   * example; or `reset` (the connection is dropped before any answer) or `truncate` (the answer's headers and half
   * its body, then the connection is dropped).
   */
  status: DeclaredCode<Target extends OperationId ? Target : OperationId> | "reset" | "truncate";
  /** Milliseconds to wait before it plays, 0 to 60 000. */
  delayMs?: number;
  /** How many times it plays before it is gone; every time by default. */
  count?: number;
  /** The chance it plays on a matching request, above 0 and at most 1 (the default). */
  probability?: number;
  /**
   * With a status that says how long to wait (429): the wait it names, in whole seconds from 0 to 3600, in every
   * wait header it declares (`Retry-After`, and on management `X-RateLimit-Reset`) and in its message. By default
   * the declared `Retry-After` example's (10 s on management, 30 s on alerting).
   */
  retryAfterSeconds?: number;
  /** Headers added to its answer, over the declared ones (and over the wait of `retryAfterSeconds`). */
  headers?: Record<string, string>;
}

/** A rule as listed: what was asked, an id, and how many plays it has left (undefined: no end). */
export type ListedFault = FaultRule & { id: number; remaining: number | undefined };

/** What a rule makes of a request: an answer to send, or a connection to drop; after `delayMs`. */
export interface FaultPlay {
  answer: Answer | undefined;
  drop: "reset" | "truncate" | undefined;
  delayMs: number;
}

const headerName = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const headerValue = /^[\x20-\x7e\t]*$/;

/** The problems of a rule, in words naming the field and the rule; none when it can be played. */
function problemsOf(rule: Partial<FaultRule>): string[] {
  const problems: string[] = [];
  const known = ["operation", "status", "delayMs", "count", "probability", "retryAfterSeconds", "headers"];
  for (const key of Object.keys(rule)) if (!known.includes(key)) problems.push(`${key} is not a field of a fault rule (${known.join(", ")})`);
  const targets = targetsOf(rule.operation);
  if (targets.length === 0) problems.push(`operation must be an operation id (${operations.map(({ operationId }) => operationId).join(", ")}) or "*"`);
  const { status } = rule;
  if (status !== "reset" && status !== "truncate") {
    if (!Number.isInteger(status)) problems.push('status must be a status the operation declares, "reset" or "truncate"');
    for (const operation of Number.isInteger(status) ? targets : []) {
      const answer = declaredAnswerFor(operation, status as number);
      if (!answer) {
        problems.push(`status ${status} is not one ${operation.operationId} declares (${declaredStatuses(operation).join(", ")})`);
        continue;
      }
      // Stryker disable next-line OptionalChaining: the generated module has a validator for every declared JSON body.
      if (typeof answer.body !== "string" && !operation.answers[answer.declared]?.(answer.body)) {
        problems.push(`the declared example of ${operation.operationId} ${answer.declared} breaks its schema`);
      }
    }
  }
  const { retryAfterSeconds } = rule;
  if (retryAfterSeconds !== undefined) {
    if (!(Number.isInteger(retryAfterSeconds) && retryAfterSeconds >= 0 && retryAfterSeconds <= maxRetryAfterSeconds)) {
      problems.push(`retryAfterSeconds must be an integer from 0 to ${maxRetryAfterSeconds}`);
    } else if (!Number.isInteger(status) || targets.some((operation) => !declaresWait(operation, status as number))) {
      problems.push("retryAfterSeconds goes with status 429, the answer that says how long to wait");
    }
  }
  if (rule.delayMs !== undefined && !(Number.isInteger(rule.delayMs) && rule.delayMs >= 0 && rule.delayMs <= 60_000)) {
    problems.push("delayMs must be an integer from 0 to 60000");
  }
  if (rule.count !== undefined && !(Number.isInteger(rule.count) && rule.count >= 1)) problems.push("count must be an integer of 1 or more");
  if (rule.probability !== undefined && !(typeof rule.probability === "number" && rule.probability > 0 && rule.probability <= 1)) {
    problems.push("probability must be a number above 0 and at most 1");
  }
  if (rule.headers !== undefined) {
    if (typeof rule.headers !== "object" || rule.headers === null || Array.isArray(rule.headers))
      problems.push("headers must be an object of header names and values");
    else {
      for (const [name, value] of Object.entries(rule.headers)) {
        if (!headerName.test(name) || typeof value !== "string" || !headerValue.test(value))
          problems.push(`headers.${name} must be a header name with a visible-ASCII value`);
      }
    }
  }
  return problems;
}

function targetsOf(operation: unknown): Operation[] {
  return operation === "*" ? operations : operations.filter(({ operationId }) => operationId === operation);
}

/** The fault rules of a sandbox. */
export function createFaults(random: () => number = Math.random) {
  let rules: ListedFault[] = [];
  let nextId = 1;
  /** Adds a rule once it is checked; throws an Error naming every problem when it cannot be played. */
  const addChecked = (rule: unknown): ListedFault => {
    const candidate = (typeof rule === "object" && rule !== null && !Array.isArray(rule) ? rule : {}) as Partial<FaultRule>;
    const problems = typeof rule === "object" && rule !== null && !Array.isArray(rule) ? problemsOf(candidate) : ["a fault rule must be a JSON object"];
    if (problems.length > 0) throw new Error(problems.join("; "));
    const listed = { ...(candidate as FaultRule), id: nextId++, remaining: candidate.count };
    rules.push(listed);
    return listed;
  };
  return {
    /**
     * Adds a rule; throws an Error naming every problem when it cannot be played (its declared example breaks its
     * schema, or a cast let a wrong field through).
     */
    add: (rule: FaultRule): ListedFault => addChecked(rule),
    /** Adds a rule read from JSON (`POST /_sandbox/faults`), which no type vouches for: the same checks as add(). */
    addUntyped: addChecked,
    list(): ListedFault[] {
      return rules.map((rule) => ({ ...rule }));
    },
    clear(): void {
      rules = [];
    },
    /** What the first rule that applies to `operation` makes of this request, if one plays. */
    play(operation: Operation): FaultPlay | undefined {
      const rule = rules.find(({ operation: target }) => target === "*" || target === operation.operationId);
      if (!rule || random() >= (rule.probability ?? 1)) return undefined;
      if (rule.remaining !== undefined) {
        rule.remaining--;
        if (rule.remaining === 0) rules = rules.filter((other) => other !== rule);
      }
      const delayMs = rule.delayMs ?? 0;
      if (rule.status === "reset" || rule.status === "truncate") {
        // A truncated answer is the operation's own success, cut: what a proxy dropping the connection leaves.
        return { answer: undefined, drop: rule.status, delayMs };
      }
      // Checked when the rule was added, for every operation it targets.
      const declared = declaredAnswerFor(operation, rule.status, { retryAfterSeconds: rule.retryAfterSeconds }) as Answer & { headers: Record<string, string> };
      return {
        answer: { status: declared.status, body: declared.body, headers: { ...declared.headers, ...lowercased(rule.headers) } },
        drop: undefined,
        delayMs,
      };
    },
  };
}

export type Faults = ReturnType<typeof createFaults>;

const lowercased = (headers: Record<string, string> | undefined) =>
  Object.fromEntries(Object.entries(headers ?? {}).map(([name, value]) => [name.toLowerCase(), value]));
