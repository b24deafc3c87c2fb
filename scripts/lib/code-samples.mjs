// x-codeSamples for the rendered docs: the TypeScript SDK call from examples/<operationId>.ts (a file
// that is type-checked and run in CI) and a curl command built from the operation's own examples.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { exampleRequest, jsonMedia, operationsOf } from "../../src/contract/openapi.js";
import sandboxCredentials from "../../src/sandbox/default-credentials.json" with { type: "json" };
import { root } from "./toolchain.mjs";

const shellQuote = (text) => `'${text.replaceAll("'", `'\\''`)}'`;

/**
 * The credentials the pasteable samples carry: the sandbox's defaults, the one set it prints, `npm start` gives it
 * and README and CONTRACT.md show.
 */
export { sandboxCredentials };

/**
 * A curl command for an operation with its first examples: against the spec's default server and with
 * credentials from the environment, or (`baseUrl`, `sandboxCredentials`) ready to paste against a mock or the sandbox.
 * `body` and `url` (path and query) replace the examples'; `failWithBody: false` keeps curl's exit status 0 on an
 * error status, for a sample that shows one; `newline` ends the printed answer with one, for samples run in a row.
 * @param {any} bundle
 * @param {ReturnType<typeof operationsOf>[number]} entry
 * @param {{ baseUrl?: string, sandboxCredentials?: boolean, body?: unknown, url?: string, failWithBody?: boolean, newline?: boolean }} [options]
 */
export function curlSample(
  bundle,
  entry,
  { baseUrl, sandboxCredentials: pasteable = false, body: bodyOverride, url: urlOverride, failWithBody = true, newline = false } = {},
) {
  const { method, operation } = entry;
  const server = bundle.servers[0];
  const base = baseUrl ?? server.url.replace(/\{(\w+)\}/g, (_, name) => server.variables[name].default);
  const example = exampleRequest(bundle, entry);
  const url = urlOverride ?? example.url;
  const body = bodyOverride ?? example.body;

  const scheme = Object.keys((operation.security ?? bundle.security)[0])[0];
  const auth =
    bundle.components.securitySchemes[scheme].scheme === "basic"
      ? pasteable
        ? `-u ${sandboxCredentials.keyId}:${sandboxCredentials.keySecret}`
        : `-u "$INGESTION_API_KEY_ID:$INGESTION_API_KEY_SECRET"`
      : `-H "Authorization: Bearer ${pasteable ? sandboxCredentials.token : "$INGESTION_ALERTS_TOKEN"}"`;
  const lines = [
    `curl -sS${newline ? ` -w '\\n'` : ""}${failWithBody ? " --fail-with-body" : ""}${method === "get" ? "" : ` -X ${method.toUpperCase()}`} ${shellQuote(base + url)}`,
    auth,
  ];
  if (jsonMedia(bundle, operation.requestBody)) {
    if (body === undefined) throw new Error(`${operation.operationId}: the request body has no example for the curl sample`);
    lines.push(`-H "Content-Type: application/json"`, `-d ${shellQuote(JSON.stringify(body))}`);
  }
  return lines.join(" \\\n  ");
}

/** The TypeScript sample of an operation: examples/<operationId>.ts as it is. */
function typescriptSample({ operation }) {
  return readFileSync(join(root, "examples", `${operation.operationId}.ts`), "utf8");
}

/** A copy of the bundle whose operations carry TypeScript and curl x-codeSamples. */
export function withCodeSamples(bundle) {
  const copy = structuredClone(bundle);
  for (const entry of operationsOf(copy)) {
    entry.operation["x-codeSamples"] = [
      { lang: "TypeScript", label: "TypeScript SDK", source: typescriptSample(entry) },
      { lang: "curl", label: "curl", source: curlSample(copy, entry) },
    ];
  }
  return copy;
}
