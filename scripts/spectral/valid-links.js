// Spectral function for the `valid-links` rule (.spectral.yaml): an OpenAPI link names an operation that exists,
// only parameters that operation has, and runtime expressions that resolve against the operation it starts from
// (`$request.path.<name>` a path parameter of it, `$response.body#/<pointer>` a property its answer's schema has).
// Neither Redocly nor Spectral's own rules look inside a link, and `ingestion-api verify` follows them.

const methods = ["get", "put", "post", "delete", "patch", "options", "head", "trace"];

/** Follows local references ("#/components/...") in the document. */
function resolve(document, node) {
  let resolved = node;
  for (let depth = 0; typeof resolved?.$ref === "string" && depth < 50; depth++) {
    resolved = resolved.$ref
      .slice(2)
      .split("/")
      .reduce((at, part) => at?.[part.replaceAll("~1", "/").replaceAll("~0", "~")], document);
  }
  return resolved;
}

function operations(document) {
  return Object.entries(document.paths ?? {}).flatMap(([path, item]) =>
    methods.filter((method) => item?.[method]).map((method) => ({ path, item, operation: item[method] })),
  );
}

const parametersOf = (document, { item, operation }) => [...(item.parameters ?? []), ...(operation.parameters ?? [])].map((p) => resolve(document, p));

/** Whether a JSON pointer names a property the schema declares (through references, allOf, oneOf and anyOf). */
function schemaHas(document, schema, pointer) {
  const [first, ...rest] = pointer;
  const resolved = resolve(document, schema);
  if (first === undefined) return resolved !== undefined;
  const branches = [...(resolved?.allOf ?? []), ...(resolved?.oneOf ?? []), ...(resolved?.anyOf ?? [])];
  const property = resolved?.properties?.[first];
  return (property !== undefined && schemaHas(document, property, rest)) || branches.some((branch) => schemaHas(document, branch, pointer));
}

export default function validLinks(link, _options, { path, document }) {
  const data = document.data;
  const [, pathKey, method, , status] = path;
  const source = operations(data).find((entry) => entry.path === pathKey && entry.operation === data.paths[pathKey][method]);
  const target = operations(data).find((entry) => entry.operation.operationId === link?.operationId);
  if (!target) return [{ message: `the link names operationId ${JSON.stringify(link?.operationId)}, which no operation has` }];
  const problems = [];
  const targetNames = parametersOf(data, target).map((p) => p.name);
  const sourcePathNames = source
    ? parametersOf(data, source)
        .filter((p) => p.in === "path")
        .map((p) => p.name)
    : [];
  const response = resolve(data, source?.operation.responses?.[status]);
  const bodySchema = response?.content?.["application/json"]?.schema;
  for (const [name, expression] of Object.entries(link.parameters ?? {})) {
    if (!targetNames.includes(name)) problems.push({ message: `${link.operationId} has no parameter ${name}` });
    const requestPath = /^\$request\.path\.(.+)$/.exec(String(expression));
    const responseBody = /^\$response\.body#(\/.*)$/.exec(String(expression));
    if (requestPath && !sourcePathNames.includes(requestPath[1]))
      problems.push({ message: `${expression}: the operation has no path parameter ${requestPath[1]}` });
    else if (responseBody && !schemaHas(data, bodySchema, responseBody[1].slice(1).split("/")))
      problems.push({ message: `${expression}: the answer's schema has no such property` });
    else if (!requestPath && !responseBody) problems.push({ message: `${expression}: only $request.path.<name> and $response.body#/<pointer> are used here` });
  }
  if (targetNames.some((name) => parametersOf(data, target).find((p) => p.name === name)?.required && !(name in (link.parameters ?? {}))))
    problems.push({ message: `the link leaves out a required parameter of ${link.operationId}` });
  return problems;
}
