// x-codeSamples for the rendered docs: the TypeScript SDK call from examples/<operationId>.ts (a file
// that is type-checked and run in CI) and a curl command built from the operation's own examples.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { root } from "./toolchain.mjs";

const methods = ["get", "put", "post", "delete", "patch"];

/** Every operation of a bundle: `{ path, method, pathItem, operation }`. */
export function operationsOf(bundle) {
  return Object.entries(bundle.paths).flatMap(([path, pathItem]) =>
    methods.filter((method) => pathItem[method]).map((method) => ({ path, method, pathItem, operation: pathItem[method] })),
  );
}

function deref(bundle, node) {
  if (!node?.$ref) return node;
  const target = node.$ref.slice(2).split("/").reduce((at, part) => at?.[part.replaceAll("~1", "/").replaceAll("~0", "~")], bundle);
  return deref(bundle, target);
}

const shellQuote = (text) => `'${text.replaceAll("'", `'\\''`)}'`;

/**
 * A curl command for an operation with its first examples: against the spec's default server and with
 * credentials from the environment, or (`baseUrl`, `demoCredentials`) ready to paste against a mock.
 * @param {any} bundle
 * @param {{ path: string, method: string, pathItem: any, operation: any }} entry
 * @param {{ baseUrl?: string, demoCredentials?: boolean }} [options]
 */
export function curlSample(bundle, { path, method, pathItem, operation }, { baseUrl, demoCredentials = false } = {}) {
  const server = bundle.servers[0];
  const base = baseUrl ?? server.url.replace(/\{(\w+)\}/g, (_, name) => server.variables[name].default);
  const parameters = [...(pathItem.parameters ?? []), ...(operation.parameters ?? [])].map((p) => deref(bundle, p));
  const exampleOf = (p) => p.example ?? Object.values(p.examples ?? {})[0]?.value;
  const url = path.replace(/\{(\w+)\}/g, (_, name) => {
    const example = exampleOf(parameters.find((p) => p.name === name) ?? {});
    if (example === undefined) throw new Error(`${operation.operationId}: path parameter ${name} has no example for the curl sample`);
    return encodeURIComponent(example);
  });
  const query = parameters
    .filter((p) => p.in === "query" && exampleOf(p) !== undefined)
    .flatMap((p) => [exampleOf(p)].flat().map((value) => `${p.name}=${encodeURIComponent(value)}`))
    .join("&");

  const scheme = Object.keys((operation.security ?? bundle.security)[0])[0];
  // The mocks check that credentials are sent, not what they are.
  const auth =
    bundle.components.securitySchemes[scheme].scheme === "basic"
      ? demoCredentials ? "-u demo-key-id:demo-key-secret" : `-u "$INGESTION_API_KEY_ID:$INGESTION_API_KEY_SECRET"`
      : `-H "Authorization: Bearer ${demoCredentials ? "demo-token" : "$INGESTION_ALERTS_TOKEN"}"`;
  const lines = [`curl -sS --fail-with-body${method === "get" ? "" : ` -X ${method.toUpperCase()}`} ${shellQuote(base + url + (query ? `?${query}` : ""))}`, auth];
  const media = deref(bundle, operation.requestBody)?.content?.["application/json"];
  if (media) {
    const example = deref(bundle, Object.values(media.examples)[0]).value;
    lines.push(`-H "Content-Type: application/json"`, `-d ${shellQuote(JSON.stringify(example))}`);
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
