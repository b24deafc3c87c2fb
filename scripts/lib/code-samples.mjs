// x-codeSamples for the rendered docs: the TypeScript SDK call from examples/<operationId>.ts (a file
// that is type-checked and run in CI), and a curl command, a Python script (standard library only) and a Go program
// (net/http) built from the operation's own examples: its path and query examples and its first named request
// body example, sent as they are.
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
 * @typedef {{ baseUrl?: string, sandboxCredentials?: boolean, body?: unknown, url?: string }} SampleOptions
 * Against the spec's default server and with credentials from the environment (INGESTION_API_KEY_ID and
 * INGESTION_API_KEY_SECRET, or INGESTION_ALERTS_TOKEN), or (`baseUrl`, `sandboxCredentials`) ready to paste against
 * a mock or the sandbox. `body` and `url` (path and query) replace the examples'.
 */

/**
 * What a sample sends: the method, the whole URL, the JSON body (undefined when the operation takes none) and
 * whether it signs in with HTTP Basic (the management interface) or a bearer token (alerting).
 * @param {any} bundle
 * @param {ReturnType<typeof operationsOf>[number]} entry
 * @param {SampleOptions} options
 */
function sampleRequest(bundle, entry, { baseUrl, body: bodyOverride, url: urlOverride }) {
  const { method, operation } = entry;
  const server = bundle.servers[0];
  const base = baseUrl ?? server.url.replace(/\{(\w+)\}/g, (_, name) => server.variables[name].default);
  const example = exampleRequest(bundle, entry);
  const takesBody = jsonMedia(bundle, operation.requestBody) !== undefined;
  const body = bodyOverride ?? example.body;
  if (takesBody && body === undefined) throw new Error(`${operation.operationId}: the request body has no example for the code samples`);
  const scheme = Object.keys((operation.security ?? bundle.security)[0])[0];
  return {
    method: method.toUpperCase(),
    url: base + (urlOverride ?? example.url),
    body: takesBody ? body : undefined,
    basic: bundle.components.securitySchemes[scheme].scheme === "basic",
  };
}

/**
 * A curl command for an operation with its first examples (see SampleOptions). `failWithBody: false` keeps curl's
 * exit status 0 on an error status, for a sample that shows one; `newline` ends the printed answer with one, for
 * samples run in a row.
 * @param {any} bundle
 * @param {ReturnType<typeof operationsOf>[number]} entry
 * @param {SampleOptions & { failWithBody?: boolean, newline?: boolean }} [options]
 */
export function curlSample(bundle, entry, options = {}) {
  const { sandboxCredentials: pasteable = false, failWithBody = true, newline = false } = options;
  const { method, url, body, basic } = sampleRequest(bundle, entry, options);
  const auth = basic
    ? pasteable
      ? `-u ${sandboxCredentials.keyId}:${sandboxCredentials.keySecret}`
      : `-u "$INGESTION_API_KEY_ID:$INGESTION_API_KEY_SECRET"`
    : `-H "Authorization: Bearer ${pasteable ? sandboxCredentials.token : "$INGESTION_ALERTS_TOKEN"}"`;
  const lines = [
    `curl -sS${newline ? ` -w '\\n'` : ""}${failWithBody ? " --fail-with-body" : ""}${method === "GET" ? "" : ` -X ${method}`} ${shellQuote(url)}`,
    auth,
  ];
  if (body !== undefined) lines.push(`-H "Content-Type: application/json"`, `-d ${shellQuote(JSON.stringify(body))}`);
  return lines.join(" \\\n  ");
}

/** A JSON value as a Python literal on one line. */
function pythonInline(value) {
  if (value === null) return "None";
  if (typeof value === "boolean") return value ? "True" : "False";
  // A JSON string or number is a Python literal of the same value.
  if (typeof value !== "object") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(pythonInline).join(", ")}]`;
  return `{${Object.entries(value)
    .map(([key, item]) => `${JSON.stringify(key)}: ${pythonInline(item)}`)
    .join(", ")}}`;
}

/** A JSON value as a Python literal laid out as Black does: on one line when it fits in 88 columns from `column`. */
function pythonLiteral(value, indent = "", column = 0) {
  const inline = pythonInline(value);
  if (value === null || typeof value !== "object" || column + inline.length + 1 <= 88) return inline;
  const inner = `${indent}    `;
  const items = Array.isArray(value) ? value.map((item) => ["", item]) : Object.entries(value).map(([key, item]) => [`${JSON.stringify(key)}: `, item]);
  const lines = items.map(([key, item]) => `${inner}${key}${pythonLiteral(item, inner, inner.length + key.length)},`);
  return Array.isArray(value) ? `[\n${lines.join("\n")}\n${indent}]` : `{\n${lines.join("\n")}\n${indent}}`;
}

/**
 * A Python 3 script (urllib.request and json, nothing to install) that sends an operation's example request (see
 * SampleOptions), prints the JSON answer, and on an error status prints the status and the body and exits with 1.
 * @param {any} bundle
 * @param {ReturnType<typeof operationsOf>[number]} entry
 * @param {SampleOptions} [options]
 */
export function pythonSample(bundle, entry, options = {}) {
  const { sandboxCredentials: pasteable = false } = options;
  const { method, url, body, basic } = sampleRequest(bundle, entry, options);
  const imports = [...(basic ? ["base64"] : []), "json", ...(pasteable ? [] : ["os"]), "urllib.error", "urllib.request"];
  const setup = [];
  const headers = [];
  if (body !== undefined) setup.push(`body = ${pythonLiteral(body, "", "body = ".length)}`);
  if (basic) {
    setup.push(
      pasteable
        ? `credentials = ${JSON.stringify(`${sandboxCredentials.keyId}:${sandboxCredentials.keySecret}`)}`
        : `credentials = f"{os.environ['INGESTION_API_KEY_ID']}:{os.environ['INGESTION_API_KEY_SECRET']}"`,
    );
    headers.push(`"Authorization": "Basic " + base64.b64encode(credentials.encode()).decode()`);
  } else {
    headers.push(
      pasteable
        ? `"Authorization": ${JSON.stringify(`Bearer ${sandboxCredentials.token}`)}`
        : `"Authorization": "Bearer " + os.environ["INGESTION_ALERTS_TOKEN"]`,
    );
  }
  if (body !== undefined) headers.push(`"Content-Type": "application/json"`);
  return [
    ...imports.map((name) => `import ${name}`),
    "",
    ...setup,
    "request = urllib.request.Request(",
    `    ${JSON.stringify(url)},`,
    `    method=${JSON.stringify(method)},`,
    ...(body === undefined ? [] : ["    data=json.dumps(body).encode(),"]),
    "    headers={",
    ...headers.map((header) => `        ${header},`),
    "    },",
    ")",
    "try:",
    "    with urllib.request.urlopen(request) as response:",
    "        print(json.dumps(json.load(response), indent=2))",
    "except urllib.error.HTTPError as error:",
    `    raise SystemExit(f"HTTP {error.code} {error.reason}: {error.read().decode()}")`,
    "",
  ].join("\n");
}

/**
 * A JSON value as a Go string literal: raw, two spaces a level and each line after the first behind the tab that
 * indents main's body (the same at any tab width), unless the JSON holds a backquote.
 */
function goJson(value) {
  const text = JSON.stringify(value, null, 2);
  return text.includes("`") ? JSON.stringify(JSON.stringify(value)) : `\`${text.replaceAll("\n", "\n\t")}\``;
}

/**
 * A Go program (net/http and encoding/json, nothing to `go get`) that sends an operation's example request (see
 * SampleOptions), prints the JSON answer, and on an error status prints the status and the body and exits with 1.
 * @param {any} bundle
 * @param {ReturnType<typeof operationsOf>[number]} entry
 * @param {SampleOptions} [options]
 */
export function goSample(bundle, entry, options = {}) {
  const { sandboxCredentials: pasteable = false } = options;
  const { method, url, body, basic } = sampleRequest(bundle, entry, options);
  const goMethod = `http.Method${method[0]}${method.slice(1).toLowerCase()}`;
  const auth = basic
    ? pasteable
      ? `request.SetBasicAuth(${JSON.stringify(sandboxCredentials.keyId)}, ${JSON.stringify(sandboxCredentials.keySecret)})`
      : `request.SetBasicAuth(os.Getenv("INGESTION_API_KEY_ID"), os.Getenv("INGESTION_API_KEY_SECRET"))`
    : `request.Header.Set("Authorization", ${pasteable ? JSON.stringify(`Bearer ${sandboxCredentials.token}`) : `"Bearer "+os.Getenv("INGESTION_ALERTS_TOKEN")`})`;
  return [
    "package main",
    "",
    "import (",
    '\t"bytes"',
    '\t"encoding/json"',
    '\t"fmt"',
    '\t"io"',
    '\t"net/http"',
    '\t"os"',
    ")",
    "",
    "func main() {",
    ...(body === undefined
      ? [`\trequest, err := http.NewRequest(${goMethod}, ${JSON.stringify(url)}, nil)`]
      : [`\tbody := []byte(${goJson(body)})`, `\trequest, err := http.NewRequest(${goMethod}, ${JSON.stringify(url)}, bytes.NewReader(body))`]),
    "\tcheck(err)",
    `\t${auth}`,
    ...(body === undefined ? [] : ['\trequest.Header.Set("Content-Type", "application/json")']),
    "",
    "\tresponse, err := http.DefaultClient.Do(request)",
    "\tcheck(err)",
    "\tdefer response.Body.Close()",
    "\tanswer, err := io.ReadAll(response.Body)",
    "\tcheck(err)",
    "\tif response.StatusCode >= 400 {",
    '\t\tfmt.Fprintf(os.Stderr, "HTTP %s: %s\\n", response.Status, answer)',
    "\t\tos.Exit(1)",
    "\t}",
    "\tvar pretty bytes.Buffer",
    '\tcheck(json.Indent(&pretty, answer, "", "  "))',
    "\tfmt.Println(pretty.String())",
    "}",
    "",
    "func check(err error) {",
    "\tif err != nil {",
    "\t\tfmt.Fprintln(os.Stderr, err)",
    "\t\tos.Exit(1)",
    "\t}",
    "}",
    "",
  ].join("\n");
}

/** The TypeScript sample of an operation: examples/<operationId>.ts as it is. */
function typescriptSample({ operation }) {
  return readFileSync(join(root, "examples", `${operation.operationId}.ts`), "utf8");
}

/** A copy of the bundle whose operations carry TypeScript, curl, Python and Go x-codeSamples. */
export function withCodeSamples(bundle) {
  const copy = structuredClone(bundle);
  for (const entry of operationsOf(copy)) {
    entry.operation["x-codeSamples"] = [
      { lang: "TypeScript", label: "TypeScript SDK", source: typescriptSample(entry) },
      { lang: "curl", label: "curl", source: curlSample(copy, entry) },
      { lang: "Python", label: "Python", source: pythonSample(copy, entry) },
      { lang: "Go", label: "Go", source: goSample(copy, entry) },
    ];
  }
  return copy;
}
