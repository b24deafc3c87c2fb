// `Prefer: code=404` and `Prefer: example=<name>`, as Prism reads them: a test asks the sandbox for any answer the
// operation declares, with its declared example as the body and its headers' examples, so the same test runs against
// the static mock and the sandbox. A status the operation does not declare gets a 400 naming the ones it does.
// The sandbox's own: `retry-after=N` asks a 429 to name a wait of N seconds (`Prefer: code=429, retry-after=1`), so a
// test of a client's back-off takes a second, not the example's 10 or 30; Prism ignores it.
import { type Answer, declaredAnswerFor, declaresWait, failure, maxRetryAfterSeconds } from "./answers.js";
import { declaredStatuses, declaredStatusOf, type Operation } from "./contract.js";

/**
 * `code`, `example` and `retry-after` of a Prefer header (`code=404, example=NotFound`); other preferences are read
 * and left alone.
 */
function preferences(header: string): { code?: string; example?: string; "retry-after"?: string } {
  const found: Record<string, string> = {};
  for (const part of header.split(/[,;]/)) {
    const pieces = part.split("=");
    // Stryker disable next-line StringLiteral: split() always yields a first piece, so the default never applies.
    const [name = "", ...value] = pieces;
    found[name.trim().toLowerCase()] = value
      .join("=")
      .trim()
      .replace(/^"(.*)"$/, "$1");
  }
  return found;
}

/** The answer a Prefer header asks for, or undefined when it asks for none. */
export function preferredAnswer(operation: Operation, header: string | undefined): Answer | undefined {
  if (!header) return undefined;
  const { code, example, "retry-after": retryAfter } = preferences(header);
  if (code === undefined && example === undefined && retryAfter === undefined) return undefined;
  const statuses = declaredStatuses(operation);
  if (code !== undefined && !declaredStatusOf(operation, Number(code))) {
    return failure(operation.api, 400, `Prefer: code=${code} is not a status ${operation.operationId} declares; it declares ${statuses.join(", ")}`);
  }
  let retryAfterSeconds: number | undefined;
  if (retryAfter !== undefined) {
    retryAfterSeconds = Number(retryAfter);
    if (!/^\d+$/.test(retryAfter) || retryAfterSeconds > maxRetryAfterSeconds) {
      return failure(operation.api, 400, `Prefer: retry-after must be whole seconds from 0 to ${maxRetryAfterSeconds}, not ${retryAfter}`);
    }
    if (code === undefined || !declaresWait(operation, Number(code))) {
      return failure(
        operation.api,
        400,
        `Prefer: retry-after=${retryAfter} goes with code=429, the answer of ${operation.operationId} that says how long to wait`,
      );
    }
  }
  // With no code, the example is looked for in the success answer first, then in the others; a range (5XX) is then
  // answered with the first code it covers.
  const candidates =
    code !== undefined ? [Number(code)] : ["200", ...statuses.filter((status) => status !== "200")].map((status) => firstCodeOf(operation, status));
  for (const candidate of candidates) {
    const answer = declaredAnswerFor(operation, candidate, { example, retryAfterSeconds });
    if (answer) return answer;
  }
  // Stryker disable next-line OptionalChaining,ArrayDeclaration: every candidate is a code the operation declares, so its answer is there.
  const named = candidates.flatMap((candidate) => declaredAnswerFor(operation, candidate)?.exampleNames ?? []);
  return failure(
    operation.api,
    400,
    `Prefer: example=${example} is not an example of ${operation.operationId}${code ? ` ${code}` : ""}; it has ${named.join(", ")}`,
  );
}

/**
 * The first code a declared status covers, as declaredStatusOf() reads it: itself, or the first of a range's codes no
 * status of its own takes (501 under 5XX beside a declared 500, whose answer is not the range's).
 */
function firstCodeOf(operation: Operation, status: string): number {
  const hundred = Number(status[0]) * 100;
  const codes = Array.from({ length: 100 }, (_, offset) => hundred + offset);
  return codes.find((code) => declaredStatusOf(operation, code) === status) ?? Number.NaN;
}
