// The checks of `ingestion-api check-traffic`: each recorded exchange is matched to its operation by method and
// path, then its parameters, the headers the contract declares, its request body and its answer (status, media
// type, body, headers) are judged with the generated validators, as `verify` and the SDK judge them. The wheel
// (contract/python) makes the same checks in the same order; CONTRACT.md, "Check recorded traffic", states them.
import { issuesOf } from "../client/validation.js";
import { alerts, management } from "../contract/interfaces.js";
import { answerProblems, mediaTypeOf } from "../verify/answers.js";
import { type Operation, operationsOfApi } from "../verify/contract.js";
import { pathAndQuery, type RecordedExchange } from "./recording.js";

/** The parts of an exchange a finding can be about, in the order they are checked. */
export const parts = [
  "operation",
  "path",
  "query",
  "request headers",
  "request body",
  "response status",
  "response media type",
  "response headers",
  "response body",
] as const;
export type Part = (typeof parts)[number];

/** One thing an exchange does that the contract does not allow. */
export interface Finding {
  part: Part;
  /** Where in the part: a JSON pointer into a body, a parameter's or header's name, or "". */
  where: string;
  rule: string;
}

/** What was found in one exchange: its operation (when it has one) and its findings, none when it keeps the contract. */
export interface CheckedExchange {
  exchange: RecordedExchange;
  operation: Operation | undefined;
  findings: Finding[];
}

const operations = [...operationsOfApi(management), ...operationsOfApi(alerts)];
/** Each template as a pattern of its path: a `{name}` stands for one segment. */
const templates = [...new Set(operations.map((operation) => operation.template))].map((template) => ({
  template,
  pattern: new RegExp(`^${template.replace(/\{\w+\}/g, "([^/]+)")}$`),
  names: [...template.matchAll(/\{(\w+)\}/g)].map((match) => match[1] as string),
}));

/** The operation a method and path are, with the path's parameters; or the finding that says why there is none. */
function operationOf(method: string, path: string): { operation: Operation; pathParams: Record<string, string> } | Finding {
  for (const { template, pattern, names } of templates) {
    const match = pattern.exec(path);
    if (!match) continue;
    const operation = operations.find((candidate) => candidate.template === template && candidate.method === method.toUpperCase());
    if (!operation) {
      const declared = operations.filter((candidate) => candidate.template === template).map((candidate) => candidate.method);
      return {
        part: "operation",
        where: "",
        rule: `${method.toUpperCase()} is not declared for ${template} (${declared.join(", ")} ${declared.length === 1 ? "is" : "are"})`,
      };
    }
    const pathParams: Record<string, string> = {};
    for (const [at, name] of names.entries()) pathParams[name] = decodeSegment(match[at + 1] as string);
    return { operation, pathParams };
  }
  return { part: "operation", where: "", rule: `${method.toUpperCase()} ${path} is no operation of the contract` };
}

/** A path segment's value; a malformed escape is kept as sent, for its parameter's rule to judge. */
function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** The parameters as one object, as the params validator takes them: a list parameter gets every value, in order. */
function parametersOf(operation: Operation, pathParams: Record<string, string>, search: URLSearchParams): Record<string, unknown> {
  const params: Record<string, unknown> = { ...pathParams };
  for (const parameter of operation.parameters) {
    if (parameter.in !== "query") continue;
    // A server ignores a query parameter the operation does not declare (DECISIONS.md): only declared ones are read.
    const values = search.getAll(parameter.name);
    if (values.length === 0) continue;
    params[parameter.name] = parameter.list || values.length > 1 ? values : values[0];
  }
  return params;
}

function parameterFindings(operation: Operation, params: Record<string, unknown>): Finding[] {
  const validate = operation.request?.params;
  if (!validate) return [];
  return issuesOf(validate, params).map((issue) => {
    const name = issue.path.split("/")[1] ?? "";
    const inPath = operation.parameters.some((parameter) => parameter.name === name && parameter.in === "path");
    return { part: inPath ? "path" : "query", where: name, rule: issue.message };
  });
}

/** The request's `Authorization` scheme and, with a body, its media type. */
function requestHeaderFindings(operation: Operation, exchange: RecordedExchange): Finding[] {
  const findings: Finding[] = [];
  const { scheme } = operation.api;
  const authorization = exchange.request.headers.get("authorization");
  const described = scheme === "Basic" ? "HTTP Basic" : "a Bearer token";
  if (authorization === undefined) findings.push({ part: "request headers", where: "authorization", rule: `Authorization is required (${described})` });
  else {
    // The scheme is what comes before the first space (the value's own whitespace is trimmed as it is read).
    const sent = authorization.split(" ")[0] ?? "";
    if (sent.toLowerCase() !== scheme.toLowerCase()) {
      const used = sent ? `uses the ${sent} scheme` : "is empty";
      findings.push({ part: "request headers", where: "authorization", rule: `Authorization ${used}; this interface takes ${scheme}` });
    }
  }
  const hasBody = exchange.request.text !== undefined && exchange.request.text !== "";
  if (operation.requestMediaTypes.length > 0 && hasBody) {
    const media = mediaTypeOf(exchange.request.headers.get("content-type"));
    if (media === undefined || !operation.requestMediaTypes.includes(media))
      findings.push({
        part: "request headers",
        where: "content-type",
        rule: `Content-Type is ${media ?? "missing"}; ${operation.operationId} takes ${operation.requestMediaTypes.join(" or ")}`,
      });
  }
  return findings;
}

/** The body read as JSON: the value the recording holds parsed, or its text parsed; undefined when it is not JSON. */
function jsonOf({ text, parsed }: RecordedExchange["request"]): { value: unknown } | undefined {
  if (parsed) return parsed;
  try {
    return { value: JSON.parse(text ?? "") };
  } catch {
    return undefined;
  }
}

function requestBodyFindings(operation: Operation, exchange: RecordedExchange): Finding[] {
  if (operation.requestMediaTypes.length === 0) return [];
  const { text } = exchange.request;
  if (text === undefined || text === "") return [{ part: "request body", where: "", rule: `is required: ${operation.operationId} takes a JSON body` }];
  const body = jsonOf(exchange.request);
  if (!body) return [{ part: "request body", where: "", rule: `is not JSON: ${JSON.stringify(text.slice(0, 60))}` }];
  const validate = operation.request?.body;
  return validate ? issuesOf(validate, body.value).map((issue) => ({ part: "request body", where: issue.path, rule: issue.message })) : [];
}

function responseFindings(operation: Operation, response: NonNullable<RecordedExchange["response"]>): Finding[] {
  const text = response.text ?? "";
  const body = jsonOf({ ...response, text });
  const answer = {
    status: response.status,
    headers: response.headers,
    text,
    json: body?.value ?? null,
    isJson: body !== undefined,
    bodyNotRecorded: response.bodyNotRecorded === true,
  };
  return answerProblems(operation, answer).map(({ part, where, rule }) => ({ part, where, rule }));
}

/** Checks one exchange against the contract. */
export function checkExchange(exchange: RecordedExchange): CheckedExchange {
  const { path, query } = pathAndQuery(exchange.url);
  const found = operationOf(exchange.method, path);
  if (!("operation" in found)) return { exchange, operation: undefined, findings: [found] };
  const { operation, pathParams } = found;
  const findings = [
    ...parameterFindings(operation, parametersOf(operation, pathParams, new URLSearchParams(query))),
    ...requestHeaderFindings(operation, exchange),
    ...requestBodyFindings(operation, exchange),
    ...(exchange.response ? responseFindings(operation, exchange.response) : []),
  ];
  return { exchange, operation, findings: findings.sort((a, b) => parts.indexOf(a.part) - parts.indexOf(b.part)) };
}
