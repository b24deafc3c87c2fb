// Spectral function for the `valid-links` rule (.spectral.yaml): an OpenAPI link names an operation that exists,
// only parameters that operation has, and runtime expressions that resolve against the operation it starts from
// (`$request.path.<name>` a path parameter of it, `$response.body#/<pointer>` a property its answer's schema has).
// Neither Redocly nor Spectral's own rules look inside a link, and `ingestion-api verify` follows them.

import { operationsOf, resolveRef } from "../../src/contract/openapi.js";

/** Whether a JSON pointer names a property the schema declares (through references, allOf, oneOf and anyOf). */
function schemaHas(document, schema, pointer) {
  const [first, ...rest] = pointer;
  const resolved = resolveRef(document, schema);
  if (first === undefined) return resolved !== undefined;
  const branches = [...(resolved?.allOf ?? []), ...(resolved?.oneOf ?? []), ...(resolved?.anyOf ?? [])];
  const property = resolved?.properties?.[first];
  return (property !== undefined && schemaHas(document, property, rest)) || branches.some((branch) => schemaHas(document, branch, pointer));
}

export default function validLinks(link, _options, { path, document }) {
  const data = document.data;
  const [, pathKey, method, , status] = path;
  const walked = operationsOf(data);
  const source = walked.find((entry) => entry.path === pathKey && entry.method === method);
  const target = walked.find((entry) => entry.operationId === link?.operationId);
  if (!target) return [{ message: `the link names operationId ${JSON.stringify(link?.operationId)}, which no operation has` }];
  const problems = [];
  const given = link.parameters ?? {};
  const sourcePathNames = (source?.parameters ?? []).filter((p) => p.in === "path").map((p) => p.name);
  const bodySchema = resolveRef(data, source?.operation.responses?.[status])?.content?.["application/json"]?.schema;
  for (const [name, expression] of Object.entries(given)) {
    if (!target.parameters.some((p) => p.name === name)) problems.push({ message: `${link.operationId} has no parameter ${name}` });
    const requestPath = /^\$request\.path\.(.+)$/.exec(String(expression));
    const responseBody = /^\$response\.body#(\/.*)$/.exec(String(expression));
    if (requestPath && !sourcePathNames.includes(requestPath[1]))
      problems.push({ message: `${expression}: the operation has no path parameter ${requestPath[1]}` });
    else if (responseBody && !schemaHas(data, bodySchema, responseBody[1].slice(1).split("/")))
      problems.push({ message: `${expression}: the answer's schema has no such property` });
    else if (!requestPath && !responseBody) problems.push({ message: `${expression}: only $request.path.<name> and $response.body#/<pointer> are used here` });
  }
  if (target.parameters.some((p) => p.required && !(p.name in given)))
    problems.push({ message: `the link leaves out a required parameter of ${link.operationId}` });
  return problems;
}
