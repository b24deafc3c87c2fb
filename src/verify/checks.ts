// The checks `ingestion-api verify` makes, each a request (or a flow of them) with what the contract says must
// come back. From the vectors: every invalid request must be refused with 400 (refusals), every valid one must not
// be (acceptances). From the contract: each operation answers 401 to no credentials, made-up ones and the other
// interface's scheme (authentication). And the flows its links describe (flows.ts). Whether each answer is one the
// contract declares is judged apart, for every answer (answers.ts).
import { printable } from "../client/errors.js";
import type { Api, Operation, Vector } from "./contract.js";
import type { Credentials, Exchange, Outgoing } from "./sender.js";

export type Send = (request: Outgoing) => Promise<Exchange>;

export type CheckKind = "credentials" | "refusal" | "acceptance" | "authentication" | "flow";

/** What one check found: its own reasons to fail, and every answer it got (each judged against the contract). */
export interface CheckOutcome {
  reasons: string[];
  exchanges: { operation: Operation; exchange: Exchange }[];
}

export interface Check {
  /** Unique in a run: `<api>/<operationId>/<kind>/<name>`. */
  id: string;
  api: Api;
  /** The operation the check is reported under (a flow's first write). */
  operation: Operation;
  kind: CheckKind;
  name: string;
  /** The rule the check holds the server to, in words. */
  rule: string;
  /** How many requests it sends, 429s aside: for the progress line. */
  requests: number;
  /** Whether it sends a request the contract lets change anything (a POST or PUT the server should take). */
  writes: boolean;
  /** Whether it sends a POST or PUT at all, even one the contract guarantees is refused before any change. */
  posts: boolean;
  /** A check that must run before every other write ("first") or after all of them ("last"); else in any order. */
  phase?: "first" | "last";
  run(send: Send): Promise<CheckOutcome>;
}

/** What a server said, for a reason: its status and its own words when it gave some. */
export function answered({ status, json, text, failure }: Exchange, api: Api): string {
  if (failure) return `got no answer (${failure})`;
  const words = json !== null && typeof json === "object" ? (json as Record<string, unknown>)[api.errorKey] : text;
  return `answered ${status}${typeof words === "string" && words.trim() ? ` (${JSON.stringify(printable(words.trim(), 120))})` : ""}`;
}

/** The vector's request: its path, query, headers and body as stated. */
function vectorRequest(operation: Operation, http: Exclude<Vector["http"], false>): Outgoing {
  return { operationId: operation.operationId, method: http.method, path: http.path, query: http.query, headers: http.headers, body: http.body };
}

/** The operation's example request (its first examples), with `credentials`. */
function exampleRequest(operation: Operation, credentials: Credentials = "valid"): Outgoing {
  const { example } = operation;
  const [path = "", query] = example.url.split("?");
  const body = example.body !== undefined && { headers: { "content-type": "application/json" }, body: example.body };
  return { operationId: operation.operationId, method: operation.method, path, query, ...body, credentials };
}

/**
 * A check of one request: `expect` gives the reason the answer fails it, if it does. An answer with a status the
 * operation does not declare fails no expectation here: the answers' check reports it, once.
 */
function oneRequest(
  operation: Operation,
  { kind, name, rule, writes, posts }: Pick<Check, "kind" | "name" | "rule" | "writes" | "posts">,
  request: Outgoing,
  expect: (exchange: Exchange) => string | undefined,
): Check {
  return {
    id: `${operation.api.name}/${operation.operationId}/${kind}/${name}`,
    api: operation.api,
    operation,
    kind,
    name,
    rule,
    requests: 1,
    writes,
    posts,
    async run(send) {
      const exchange = await send(request);
      const undeclared = !exchange.failure && !operation.answer(exchange.status);
      const reason = undeclared ? undefined : expect(exchange);
      return { reasons: reason === undefined ? [] : [reason], exchanges: [{ operation, exchange }] };
    },
  };
}

/** A valid request vector must not be refused: 2xx, or the declared 404 or 424 for ids the server does not have. */
export function acceptance(operation: Operation, vector: Vector & { http: object }): Check {
  const { name, rule } = vector;
  return oneRequest(
    operation,
    { kind: "acceptance", name, rule, writes: operation.writes, posts: operation.writes },
    vectorRequest(operation, vector.http),
    (exchange) => {
      const { status, failure } = exchange;
      const taken = !failure && ((status >= 200 && status < 300) || status === 404 || status === 424);
      return taken ? undefined : `${answered(exchange, operation.api)}; the contract accepts this request`;
    },
  );
}

/** An invalid request vector must get the declared 400 (its body is judged with every answer). */
export function refusal(operation: Operation, vector: Vector & { http: object }): Check {
  const { name, rule } = vector;
  return oneRequest(operation, { kind: "refusal", name, rule, writes: false, posts: operation.writes }, vectorRequest(operation, vector.http), (exchange) =>
    exchange.status === 400 ? undefined : `${answered(exchange, operation.api)}; the contract refuses this request with 400`,
  );
}

const credentialCases: { credentials: Credentials; name: string }[] = [
  { credentials: "none", name: "no credentials" },
  { credentials: "wrong", name: "credentials the server does not know" },
  { credentials: "other-scheme", name: "the other interface's scheme" },
];

/** The operation's example request without valid credentials must get the declared 401. */
export function authentication(operation: Operation): Check[] {
  const rule = `a request without valid ${operation.api.scheme} credentials gets 401`;
  return credentialCases.map(({ credentials, name }) =>
    oneRequest(operation, { kind: "authentication", name, rule, writes: false, posts: operation.writes }, exampleRequest(operation, credentials), (exchange) =>
      exchange.status === 401 ? undefined : `${answered(exchange, operation.api)}; expected 401`,
    ),
  );
}

/**
 * The first check of an interface: its first read with the given credentials is not refused. When it is (401,
 * 403, no connection), the interface's other checks are not run: each would fail for the same reason.
 */
export function credentialsAccepted(operation: Operation): Check {
  const check = {
    kind: "credentials" as const,
    name: "the server is reachable and takes the credentials",
    rule: "a read with the given credentials is neither refused (401, 403) nor unanswered",
    writes: false,
    posts: false,
  };
  return oneRequest(operation, check, exampleRequest(operation), (exchange) => {
    const refused = exchange.failure !== undefined || exchange.status === 401 || exchange.status === 403;
    return refused ? `${answered(exchange, operation.api)}: check the URL and the credentials` : undefined;
  });
}

/** The vector checks of an interface's operations: each request vector with an HTTP form, in the vectors' order. */
export function vectorChecks(operations: Operation[], vectors: Vector[]): Check[] {
  return vectors.flatMap((vector) => {
    const operation = operations.find((candidate) => candidate.operationId === vector.operation);
    if (!operation || vector.part === "response" || vector.http === false) return [];
    const withHttp = vector as Vector & { http: object };
    return [vector.verdict === "invalid" ? refusal(operation, withHttp) : acceptance(operation, withHttp)];
  });
}
