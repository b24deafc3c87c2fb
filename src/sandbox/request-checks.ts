// A request checked by the generated validators, as the SDK checks it before sending: a 400 whose body names
// every violated field and its rule, in the SDK's own words.
import type { ValidationIssue } from "../client/errors.js";
import { issuesOf } from "../client/validation.js";
import { type Answer, failure } from "./answers.js";
import type { Operation } from "./contract.js";

/** `/channel/webhookId` reads `channel/webhookId`; the root of a part reads as the part. */
const describe = (part: string, { path, message }: ValidationIssue) => `${path ? path.slice(1) : part} ${message}`;

/** The 400 for what breaks the contract in the parameters and the body, or undefined when nothing does. */
export function rejection(operation: Operation, params: Record<string, unknown>, body: unknown): Answer | undefined {
  const { validators } = operation;
  const problems = [
    ...(validators.params ? issuesOf(validators.params, params).map((issue) => describe("parameters", issue)) : []),
    ...(validators.body ? issuesOf(validators.body, body).map((issue) => describe("body", issue)) : []),
  ];
  return problems.length === 0 ? undefined : failure(operation.api, 400, `Invalid request: ${problems.join("; ")}`);
}
