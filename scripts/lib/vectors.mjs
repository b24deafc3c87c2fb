// The shared test vectors, contract/vectors/<api>/<operationId>.json, from the hand-written cases in
// contract/cases/<api>.mjs: written by `npm run generate`, compared by check-generated.mjs.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { declaredStatus, exampleRequest, operationsOf, resolveRef } from "../../src/contract/openapi.js";
import { apis, root } from "./toolchain.mjs";

const parts = ["params", "request", "response"];
const verdicts = ["valid", "invalid"];

/**
 * The vector files as `{ "<api>/<operationId>.json": text }`, each vector with its HTTP form, after checking
 * every vector's shape. The HTTP forms are built against the bundles in `bundleDir`.
 */
export async function vectorFiles(bundleDir = join(root, "generated", "openapi")) {
  const files = {};
  for (const api of apis) {
    const { vectors } = await import(pathToFileURL(join(root, "contract", "cases", `${api}.mjs`)).href);
    const bundle = JSON.parse(readFileSync(join(bundleDir, `${api}.json`), "utf8"));
    const operations = new Map(operationsOf(bundle).map((entry) => [entry.operationId, entry]));
    for (const operationId of new Set(vectors.map((vector) => vector.operation))) {
      const entry = operations.get(operationId);
      if (!entry) throw new Error(`vectors name operation ${operationId}, which ${api} does not have`);
      const list = vectors.filter((vector) => vector.operation === operationId);
      const seen = new Set();
      for (const { part, name, verdict, rule, value, status = 200, mediaType = "application/json" } of list) {
        const id = `${operationId} ${part} "${name}"`;
        if (!parts.includes(part) || !verdicts.includes(verdict) || !name || !rule || value === undefined) throw new Error(`vector ${id} is malformed`);
        if (part === "response" && !declaredMedia(bundle, entry, status, mediaType))
          throw new Error(`vector ${id}: ${operationId} declares no ${status} ${mediaType} answer`);
        if (seen.has(`${part} ${name}`)) throw new Error(`vector ${id} appears twice`);
        seen.add(`${part} ${name}`);
      }
      const withHttp = list.map((vector) => ({ ...inOrder(vector), ...httpForm(bundle, entry, vector) }));
      files[`${api}/${operationId}.json`] = `${JSON.stringify(withHttp, null, 2)}\n`;
    }
  }
  return files;
}

/** A response vector states the answer it is the body of: its status and media type (200 and JSON unless given). */
function inOrder({ operation, part, status, mediaType, ...rest }) {
  if (part !== "response") return { operation, part, ...rest };
  return { operation, part, status: status ?? 200, mediaType: mediaType ?? "application/json", ...rest };
}

/** The media type entry the operation declares for an answer of `status` (exactly, by its range such as `5XX`, or `default`). */
function declaredMedia(bundle, { operation }, status, mediaType) {
  const declared = declaredStatus(operation.responses, status);
  return declared === undefined ? undefined : resolveRef(bundle, operation.responses[declared])?.content?.[mediaType];
}

/**
 * How a vector travels over HTTP: the request (method, path with its parameters filled in, query, headers,
 * JSON body), and for a response vector the status of the answer whose body is the vector's value. The
 * parts a vector does not test come from the operation's first examples. A vector that HTTP cannot carry
 * is `http: false` with the reason.
 */
function httpForm(bundle, entry, { part, value, status = 200 }) {
  const example = exampleRequest(bundle, entry);
  const params = part === "params" ? value : { ...example.path, ...example.query };
  const notHttp = part === "params" && whyNotHttp(entry, value);
  if (notHttp) return { http: false, httpReason: notHttp };
  const path = entry.path.replace(/\{(\w+)\}/g, (_, name) => encodeURIComponent(params[name]));
  const query = entry.parameters
    .filter((parameter) => parameter.in === "query" && params[parameter.name] !== undefined)
    .flatMap((parameter) => [params[parameter.name]].flat().map((item) => `${parameter.name}=${encodeURIComponent(item)}`))
    .join("&");
  const body = part === "request" ? value : example.body;
  return {
    http: {
      method: entry.method.toUpperCase(),
      path,
      ...(query && { query }),
      ...(body !== undefined && { headers: { "content-type": "application/json" }, body }),
      ...(part === "response" && { status }),
    },
  };
}

/** Why a parameters vector cannot be sent over HTTP, or false: parameters travel as text in a URL. */
function whyNotHttp({ parameters }, params) {
  const undeclared = Object.keys(params).find((name) => !parameters.some((parameter) => parameter.name === name));
  if (undeclared) {
    return `a server ignores a query parameter the operation does not declare (DECISIONS.md): ${undeclared} would be answered as if left out; the verdict is the client's`;
  }
  for (const parameter of parameters) {
    const value = params[parameter.name];
    if (parameter.in === "path" && (value === undefined || value === "")) return `a URL cannot leave out the path parameter ${parameter.name}`;
    if (value === undefined) continue;
    const isArray = parameter.schema?.type === "array";
    if (isArray && !Array.isArray(value)) return `a URL cannot tell one ${parameter.name} from a list of one`;
    if (!isArray && Array.isArray(value)) return `a URL cannot carry a list as the single value ${parameter.name}`;
    if ([value].flat().some((item) => typeof item !== "string"))
      return `a URL carries ${parameter.name} as text: it cannot tell ${JSON.stringify(value)} from its string form`;
  }
  return false;
}
