// Whether an answer is one the contract declares: its status (exactly, by range or `default`), its media type for
// that status, its body against the declared schema (the generated validators, as the SDK's validateResponses
// uses them) and its declared headers (Retry-After, X-RateLimit-Reset, WWW-Authenticate).
import { issuesOf } from "../client/validation.js";
import type { Operation } from "./contract.js";
import type { Exchange } from "./sender.js";

/** What is wrong with one answer, each problem stated the same way wherever it is seen, so it is reported once. */
export interface AnswerProblem {
  /** `401`, `200 application/json`: what the problem is about. */
  about: string;
  text: string;
}

/** The media type of an answer, without its parameters (`application/json; charset=utf-8` is `application/json`). */
const mediaTypeOf = (headers: Headers) => headers.get("content-type")?.split(";")[0]?.trim().toLowerCase() || undefined;

/** The problems of an answer to `operation`: none when it is one the contract declares. */
export function answerProblems(operation: Operation, exchange: Exchange): AnswerProblem[] {
  const { status, headers, text, json, isJson } = exchange;
  const found = operation.answer(status);
  if (!found) return [{ about: String(status), text: `${status} is not an answer ${operation.operationId} declares` }];
  const { declaredAs, declared } = found;
  const problems: AnswerProblem[] = [];
  const declaredMedia = Object.keys(declared.content ?? {});
  const media = mediaTypeOf(headers);
  if (declaredMedia.length === 0) {
    if (text !== "") problems.push({ about: String(status), text: `has a body, where ${operation.operationId} declares none for ${declaredAs}` });
  } else if (media === undefined || !declaredMedia.includes(media)) {
    const seen = media === undefined ? (text === "" ? "no body" : "a body without Content-Type") : media;
    problems.push({ about: String(status), text: `${seen}, where ${declaredAs} declares ${declaredMedia.join(" or ")}` });
  } else if (media === "application/json") {
    const validate = operation.bodyValidator(declaredAs);
    if (!isJson) problems.push({ about: `${status} ${media}`, text: `the body is not JSON: ${JSON.stringify(text.slice(0, 60))}` });
    else if (validate)
      for (const issue of issuesOf(validate, json)) problems.push({ about: `${status} ${media}`, text: `${issue.path || "(body)"} ${issue.message}` });
  }
  const validateHeaders = operation.headersValidator(declaredAs);
  if (validateHeaders) {
    const seen = Object.fromEntries(headers);
    for (const issue of issuesOf(validateHeaders, seen)) {
      const name = issue.path.slice(1);
      problems.push({
        about: String(status),
        text: `header ${name} ${issue.message}${name && headers.has(name) ? ` (sent ${JSON.stringify(headers.get(name))})` : ""}`,
      });
    }
  }
  return problems;
}
