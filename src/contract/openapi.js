// Reading a bundled OpenAPI 3.1 document: its local references, its operations and their examples. The one
// walker the sandbox, the build scripts and the tests share, so "what the operations are" is always read from the
// bundle. Plain JavaScript, so the scripts can run it with Node alone; it ships inside the sandbox command.

/** The methods a path item may hold, in the order OpenAPI lists them. */
export const httpMethods = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

/**
 * Follows local references (`#/components/...`) to the value they name; other values come back as they are.
 * Keywords beside a `$ref` (3.1 allows a `description` there) are kept and win over the target's.
 */
export function resolveRef(bundle, node, seen = new Set()) {
  if (typeof node?.$ref !== "string") return node;
  if (!node.$ref.startsWith("#/")) throw new Error(`external reference ${node.$ref} is not supported`);
  if (seen.has(node.$ref)) throw new Error(`reference cycle at ${node.$ref}`);
  const target = node.$ref
    .slice(2)
    .split("/")
    .reduce((at, part) => at?.[part.replaceAll("~1", "/").replaceAll("~0", "~")], bundle);
  if (target === undefined) throw new Error(`unresolved reference ${node.$ref}`);
  const { $ref, ...siblings } = node;
  const resolved = resolveRef(bundle, target, seen.add($ref));
  return Object.keys(siblings).length === 0 ? resolved : { ...resolved, ...siblings };
}

/**
 * The key an operation's `responses` declares an answer of `status` under: the status itself, else its range (`5XX`
 * for 503), else `default`; undefined when none covers it.
 * @param {Record<string, unknown>} responses
 * @param {number} status
 * @returns {string | undefined}
 */
export function declaredStatus(responses, status) {
  return [String(status), `${String(status)[0]}XX`, "default"].find((key) => key in responses);
}

/**
 * Every operation of a bundle in document order: `{ key, path, method, pathItem, operation, operationId, parameters }`,
 * `key` being `"GET /path/{template}"` and `parameters` resolved, an operation's own replacing the path item's
 * parameter of the same name and location.
 */
export function operationsOf(bundle) {
  return Object.entries(bundle.paths ?? {}).flatMap(([path, item]) => {
    const pathItem = resolveRef(bundle, item);
    return httpMethods
      .filter((method) => pathItem[method])
      .map((method) => {
        const operation = pathItem[method];
        const parameters = new Map();
        for (const parameter of [...(pathItem.parameters ?? []), ...(operation.parameters ?? [])].map((p) => resolveRef(bundle, p))) {
          parameters.set(`${parameter.in} ${parameter.name}`, parameter);
        }
        return {
          key: `${method.toUpperCase()} ${path}`,
          path,
          method,
          pathItem,
          operation,
          operationId: operation.operationId,
          parameters: [...parameters.values()],
        };
      });
  });
}

/** The `application/json` media of a request body or response (references resolved), if it has one. */
export function jsonMedia(bundle, bodyOrResponse) {
  return resolveRef(bundle, bodyOrResponse)?.content?.["application/json"];
}

/** The value of a parameter's or media type's `example`, else of its first named example. */
export function firstExample(bundle, node) {
  if (node?.example !== undefined) return node.example;
  const [first] = Object.values(node?.examples ?? {});
  return first === undefined ? undefined : resolveRef(bundle, first).value;
}

/**
 * A request made of an operation's first examples: `path` and `query` parameters by name, the JSON `body`
 * (undefined without one), and `url`, the path template filled in with its query string.
 * @returns {{ path: Record<string, string>, query: Record<string, unknown>, body: unknown, url: string }}
 */
export function exampleRequest(bundle, { operationId, path: template, operation, parameters }) {
  const exampleOf = (parameter) => firstExample(bundle, parameter) ?? firstExample(bundle, parameter.schema);
  const pathParams = {};
  const query = {};
  for (const parameter of parameters) {
    const value = exampleOf(parameter);
    if (parameter.in === "path" && value === undefined) throw new Error(`${operationId}: path parameter ${parameter.name} has no example`);
    if (value !== undefined && parameter.in === "path") pathParams[parameter.name] = value;
    if (value !== undefined && parameter.in === "query") query[parameter.name] = value;
  }
  const media = jsonMedia(bundle, operation.requestBody);
  return { path: pathParams, query, body: media && firstExample(bundle, media), url: requestUrl(template, pathParams, query) };
}

/**
 * A path template filled in with `path`'s values and followed by `query` (an array value repeats its name), each
 * value percent-encoded: the URL after the base.
 * @param {string} template
 * @param {Record<string, unknown>} path
 * @param {Record<string, unknown>} query
 */
export function requestUrl(template, path, query) {
  const filled = template.replace(/\{(\w+)\}/g, (_, name) => encodeURIComponent(String(path[name] ?? "")));
  const search = Object.entries(query)
    .flatMap(([name, value]) => [value].flat().map((item) => `${name}=${encodeURIComponent(String(item))}`))
    .join("&");
  return search ? `${filled}?${search}` : filled;
}

/** The base URL of a bundle's first server with its variables' defaults: what its samples call unless told otherwise. */
export function defaultBaseUrl(bundle) {
  const server = bundle.servers[0];
  return server.url.replace(/\{(\w+)\}/g, (_, name) => server.variables[name].default);
}

/** The first example of an operation's response of `status` (JSON), if it has one. */
export function exampleResponse(bundle, { operation }, status = "200") {
  return firstExample(bundle, jsonMedia(bundle, operation.responses?.[status]));
}

/**
 * An operation's named request examples, in document order: those of its JSON request body, else those of its
 * parameters (`listServices`' `filter`). Each is `{ key, summary, request }`: the key under `examples`, its summary
 * (else the key) and the request of the operation's first examples with that one in place. Empty when the
 * operation names none: its only request is `exampleRequest`'s.
 * @returns {{ key: string, summary: string, request: ReturnType<typeof exampleRequest> }[]}
 */
export function namedExamples(bundle, entry) {
  const base = exampleRequest(bundle, entry);
  const named = (examples, replace) =>
    Object.entries(examples ?? {}).map(([key, example]) => {
      const { summary, value } = resolveRef(bundle, example);
      return { key, summary: summary ?? key, request: replace(value) };
    });
  const media = jsonMedia(bundle, entry.operation.requestBody);
  if (media?.examples) return named(media.examples, (body) => ({ ...base, body }));
  const parameter = entry.parameters.find((candidate) => candidate.examples);
  if (!parameter) return [];
  return named(parameter.examples, (value) =>
    exampleRequest(bundle, { ...entry, parameters: entry.parameters.map((p) => (p === parameter ? { ...p, examples: undefined, example: value } : p)) }),
  );
}
