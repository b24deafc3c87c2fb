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
  /** The problem in words, where included: `/result/state must be string`, `header retry-after is required`. */
  text: string;
  /** The part of the answer at fault, as `check-traffic` names it. */
  part: "response status" | "response media type" | "response headers" | "response body";
  /** Where in that part: a JSON pointer into the body, a header's lower-case name, or "". */
  where: string;
  /** The rule broken there, in words: `must be string`. */
  rule: string;
}

/** An answer's headers as its judge reads them: fetch's `Headers`, or a recording's by lower-case name. */
export interface HeaderView extends Iterable<[string, string]> {
  get(name: string): string | null | undefined;
  has(name: string): boolean;
}

/** What an answer's problems are judged from. */
export interface Answer extends Pick<Exchange, "status" | "text" | "json" | "isJson"> {
  headers: HeaderView;
  /** A recording that kept no body (a browser's HAR may leave it out): the body is not judged. */
  bodyNotRecorded?: boolean;
}

/**
 * The media type of a Content-Type, without its parameters (`application/json; charset=utf-8` is
 * `application/json`), lower-case; only HTTP's whitespace (space, tab) is trimmed, as the wheel trims it.
 */
export const mediaTypeOf = (contentType: string | null | undefined) =>
  contentType
    ?.split(";")[0]
    ?.replace(/^[ \t]+|[ \t]+$/g, "")
    .toLowerCase() || undefined;

// The text of a JSON number: what a header declared as a number must hold (Retry-After: 10, X-RateLimit-Reset: 7.5).
const jsonNumber = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/**
 * A header's text read as its schema's type: a number from a JSON number's text of finite value, a boolean from
 * `true` or `false`; any other text stays text, and fails a number's or a boolean's type. The wheel reads them alike.
 */
function headerValue(text: string, types: string[]): unknown {
  if ((types.includes("integer") || types.includes("number")) && jsonNumber.test(text) && Number.isFinite(Number(text))) return Number(text);
  if (types.includes("boolean") && (text === "true" || text === "false")) return text === "true";
  return text;
}

/** A problem; its text names `shownAs`, where it is, before the rule. */
const problem = (about: string, part: AnswerProblem["part"], where: string, rule: string, shownAs = ""): AnswerProblem => ({
  about,
  text: shownAs ? `${shownAs} ${rule}` : rule,
  part,
  where,
  rule,
});

/** The problems of an answer to `operation`: none when it is one the contract declares. */
export function answerProblems(operation: Operation, exchange: Answer): AnswerProblem[] {
  const { status, headers, text, json, isJson, bodyNotRecorded = false } = exchange;
  const found = operation.answer(status);
  if (!found) return [problem(String(status), "response status", "", `${status} is not an answer ${operation.operationId} declares`)];
  const { declaredAs, declared } = found;
  const problems: AnswerProblem[] = [];
  const declaredMedia = Object.keys(declared.content ?? {});
  const media = mediaTypeOf(headers.get("content-type"));
  if (bodyNotRecorded) {
    // Only a media type that is there can be judged: whether a body came is not known.
    if (media !== undefined && declaredMedia.length > 0 && !declaredMedia.includes(media))
      problems.push(problem(String(status), "response media type", "", `${media}, where ${declaredAs} declares ${declaredMedia.join(" or ")}`));
  } else if (declaredMedia.length === 0) {
    if (text !== "") problems.push(problem(String(status), "response body", "", `has a body, where ${operation.operationId} declares none for ${declaredAs}`));
  } else if (media === undefined || !declaredMedia.includes(media)) {
    const seen = media === undefined ? (text === "" ? "no body" : "a body without Content-Type") : media;
    problems.push(problem(String(status), "response media type", "", `${seen}, where ${declaredAs} declares ${declaredMedia.join(" or ")}`));
  } else if (media === "application/json") {
    const validate = operation.bodyValidator(declaredAs);
    const about = `${status} ${media}`;
    if (!isJson) problems.push(problem(about, "response body", "", `the body is not JSON: ${JSON.stringify(text.slice(0, 60))}`));
    else if (validate)
      for (const issue of issuesOf(validate, json)) problems.push(problem(about, "response body", issue.path, issue.message, issue.path || "(body)"));
  }
  const validateHeaders = operation.headersValidator(declaredAs);
  if (validateHeaders) {
    const types = operation.headerTypes(declaredAs);
    const seen = Object.fromEntries([...headers].map(([name, text]) => [name, headerValue(text, types.get(name) ?? [])]));
    for (const issue of issuesOf(validateHeaders, seen)) {
      const name = issue.path.slice(1);
      const sent = name && headers.has(name) ? ` (sent ${JSON.stringify(headers.get(name))})` : "";
      problems.push(problem(String(status), "response headers", name, `${issue.message}${sent}`, `header ${name}`));
    }
  }
  return problems;
}
