// Standalone JSON Schemas, one per part of each operation (contract/schemas/<api>/<operationId>.<part>.json):
// plain Draft 2020-12 documents with every referenced component in `$defs` and no other reference, so a team
// can check a body with any JSON Schema validator without walking the OpenAPI document first. Written by
// `npm run generate`, compared by check-generated.mjs.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { jsonMedia, operationsOf, resolveRef } from "../../src/contract/openapi.js";
import { apis, root } from "./toolchain.mjs";

const componentPrefix = "#/components/schemas/";
// OpenAPI's own keywords: annotations a plain JSON Schema validator does not know, and some refuse in strict mode.
const openApiOnly = new Set(["discriminator", "example", "externalDocs", "xml"]);

/** `{ "<api>/<operationId>.<part>.json": text }` for the bundles in `bundleDir`. */
export function standaloneSchemaFiles(bundleDir = join(root, "generated", "openapi")) {
  const files = {};
  for (const api of apis) {
    const bundle = JSON.parse(readFileSync(join(bundleDir, `${api}.json`), "utf8"));
    for (const entry of operationsOf(bundle)) {
      for (const [part, schema, title] of partsOf(bundle, entry)) {
        files[`${api}/${entry.operationId}.${part}.json`] = `${JSON.stringify(standalone(bundle, schema, `${api} ${entry.key}: ${title}`), null, 2)}\n`;
      }
    }
  }
  return files;
}

/** `[part, schema, title]` for the parameters (as one object, as the vectors state them), the body and each response. */
function partsOf(bundle, { operation, parameters }) {
  const parts = [];
  if (parameters.length > 0) {
    parts.push([
      "params",
      {
        type: "object",
        properties: Object.fromEntries(parameters.map((parameter) => [parameter.name, parameter.schema])),
        required: parameters.filter((parameter) => parameter.required).map((parameter) => parameter.name),
        additionalProperties: false,
      },
      "the path and query parameters as one object, by name",
    ]);
  }
  const body = jsonMedia(bundle, operation.requestBody)?.schema;
  if (body) parts.push(["body", body, "the JSON request body"]);
  for (const [status, response] of Object.entries(operation.responses ?? {})) {
    const content = resolveRef(bundle, response).content ?? {};
    const [mediaType, media] = Object.entries(content).find(([type]) => type === "application/json") ?? Object.entries(content)[0] ?? [];
    if (media?.schema) parts.push([`response-${status}`, media.schema, `the ${status} response body (${mediaType})`]);
  }
  return parts;
}

/** The schema with every component it reaches copied into `$defs`, references pointing there. */
function standalone(bundle, schema, title) {
  const defs = {};
  const pending = [];
  const rewrite = (node) => {
    if (Array.isArray(node)) return node.map(rewrite);
    if (!node || typeof node !== "object") return node;
    const out = {};
    for (const [key, value] of Object.entries(node)) {
      if (openApiOnly.has(key)) continue;
      if (key === "$ref" && typeof value === "string") {
        if (!value.startsWith(componentPrefix)) throw new Error(`standalone schemas: a reference outside components.schemas: ${value}`);
        const name = value.slice(componentPrefix.length);
        if (!(name in defs)) {
          defs[name] = null;
          pending.push(name);
        }
        out.$ref = `#/$defs/${name}`;
      } else {
        out[key] = rewrite(value);
      }
    }
    return out;
  };
  const root = rewrite(schema);
  while (pending.length > 0) {
    const name = pending.shift();
    defs[name] = rewrite(resolveRef(bundle, { $ref: `${componentPrefix}${name}` }));
  }
  const sortedDefs = Object.fromEntries(Object.entries(defs).sort(([a], [b]) => a.localeCompare(b)));
  return { $schema: "https://json-schema.org/draft/2020-12/schema", $comment: title, ...root, ...(Object.keys(defs).length > 0 && { $defs: sortedDefs }) };
}
