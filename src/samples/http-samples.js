// The curl, Python and Go samples of an operation, built from its examples or from a request given instead (the
// playground's edited one): the same call in each language, with nothing to install beyond the language itself.
// Each reads the SDK's environment variables and falls back to the sandbox's (sample-environment.js), unless made
// `sandboxCredentials: true`, which writes the sandbox's credentials and the base URL as they are (the sandbox tour).
// Plain JavaScript without Node's modules: the playground runs it in the browser.
import { exampleRequest, jsonMedia } from "../contract/openapi.js";
import { sampleEnvironment } from "./sample-environment.js";

/**
 * @typedef {{ baseUrl?: string, yourServer?: boolean, sandboxCredentials?: boolean, body?: unknown, url?: string, prefer?: string }} SampleOptions
 * `url` (path and query) and `body` replace the examples'; `baseUrl` replaces the default of the first server (a test's
 * proxy, a server the playground sends to; `yourServer` when it is the reader's, see sampleEnvironment);
 * `sandboxCredentials` writes the sandbox's credentials and the base URL literally, reading no environment;
 * `prefer` is a `Prefer` header to send (`code=429`: the playground's failures on purpose), with a comment saying
 * whom it is for.
 */

/** What a sample says of its `Prefer` header, in each language's comment. */
export const preferComment = "Prefer is for the sandbox, which answers as it asks; a real server ignores it.";

const shellQuote = (text) => `'${text.replaceAll("'", `'\\''`)}'`;

/**
 * What a sample sends: the method, the path and query, the JSON body (undefined when the operation takes none), and
 * the environment it reads (see sampleEnvironment).
 * @param {any} bundle
 * @param {any} entry an operation of `operationsOf(bundle)`
 * @param {SampleOptions} options
 */
function sampleRequest(bundle, entry, options) {
  const { baseUrl, yourServer, url: urlOverride } = options;
  const { method, operation } = entry;
  const example = exampleRequest(bundle, entry);
  const takesBody = jsonMedia(bundle, operation.requestBody) !== undefined;
  // A body given as null is sent as null (the SDK refuses it), not replaced by the example.
  const body = options.body !== undefined ? options.body : example.body;
  if (takesBody && body === undefined) throw new Error(`${operation.operationId}: the request body has no example for the code samples`);
  return {
    method: method.toUpperCase(),
    path: urlOverride ?? example.url,
    body: takesBody ? body : undefined,
    environment: sampleEnvironment(bundle, entry, baseUrl, yourServer),
  };
}

/**
 * A curl command for an operation (see SampleOptions), after a comment line naming the variables it reads.
 * `failWithBody: false` keeps curl's exit status 0 on an error status, for a sample that shows one; `newline` ends
 * the printed answer with one, for samples run in a row.
 * @param {any} bundle
 * @param {any} entry an operation of `operationsOf(bundle)`
 * @param {SampleOptions & { failWithBody?: boolean, newline?: boolean }} [options]
 */
export function curlSample(bundle, entry, options = {}) {
  const { sandboxCredentials: literal = false, failWithBody = true, newline = false } = options;
  const { method, path, body, environment } = sampleRequest(bundle, entry, options);
  const { url, credentials, basic } = environment;
  // Inside double quotes, `${NAME:-fallback}` is the variable, or the fallback when it is unset or empty.
  const value = (variable) => (literal ? variable.fallback : `\${${variable.name}:-${variable.fallback}}`);
  const target = literal ? shellQuote(url.fallback + path) : `"${value(url)}"${shellQuote(path)}`;
  const auth = basic
    ? literal
      ? `-u ${value(credentials.keyId)}:${value(credentials.keySecret)}`
      : `-u "${value(credentials.keyId)}:${value(credentials.keySecret)}"`
    : `-H "Authorization: Bearer ${value(credentials.token)}"`;
  const lines = [`curl -sS${newline ? ` -w '\\n'` : ""}${failWithBody ? " --fail-with-body" : ""}${method === "GET" ? "" : ` -X ${method}`} ${target}`, auth];
  if (options.prefer !== undefined) lines.push(`-H ${shellQuote(`Prefer: ${options.prefer}`)}`);
  if (body !== undefined) lines.push(`-H "Content-Type: application/json"`, `-d ${shellQuote(JSON.stringify(body))}`);
  const command = lines.join(" \\\n  ");
  const comments = [...(literal ? [] : [environment.comment]), ...(options.prefer === undefined ? [] : [preferComment])];
  return [...comments.map((comment) => `# ${comment}`), command].join("\n");
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
 * A Python 3 script (urllib.request and json, nothing to install) that sends an operation's request (see
 * SampleOptions), prints the JSON answer, and on an error status prints the status and the body and exits with 1.
 * @param {any} bundle
 * @param {any} entry an operation of `operationsOf(bundle)`
 * @param {SampleOptions} [options]
 */
export function pythonSample(bundle, entry, options = {}) {
  const { sandboxCredentials: literal = false } = options;
  const { method, path, body, environment } = sampleRequest(bundle, entry, options);
  const { url, credentials, basic } = environment;
  // `or`, not get's default: an empty variable falls back too, as in the curl and Go samples.
  const value = (variable) =>
    literal ? JSON.stringify(variable.fallback) : `os.environ.get(${JSON.stringify(variable.name)}) or ${JSON.stringify(variable.fallback)}`;
  const imports = [...(basic ? ["base64"] : []), "json", ...(literal ? [] : ["os"]), "urllib.error", "urllib.request"];
  const setup = literal ? [] : [`# ${environment.comment}`, `base_url = ${value(url)}`];
  const headers = [];
  if (basic) {
    setup.push(
      ...(literal
        ? [`credentials = ${JSON.stringify(`${credentials.keyId.fallback}:${credentials.keySecret.fallback}`)}`]
        : [`key_id = ${value(credentials.keyId)}`, `key_secret = ${value(credentials.keySecret)}`, `credentials = f"{key_id}:{key_secret}"`]),
    );
    headers.push(`"Authorization": "Basic " + base64.b64encode(credentials.encode()).decode()`);
  } else {
    setup.push(`token = ${value(credentials.token)}`);
    headers.push(`"Authorization": "Bearer " + token`);
  }
  if (body !== undefined) setup.push(`body = ${pythonLiteral(body, "", "body = ".length)}`);
  if (options.prefer !== undefined) headers.push(`# ${preferComment}`, `"Prefer": ${JSON.stringify(options.prefer)}`);
  if (body !== undefined) headers.push(`"Content-Type": "application/json"`);
  return [
    ...imports.map((name) => `import ${name}`),
    "",
    ...setup,
    "request = urllib.request.Request(",
    `    ${literal ? JSON.stringify(url.fallback + path) : `base_url + ${JSON.stringify(path)}`},`,
    `    method=${JSON.stringify(method)},`,
    ...(body === undefined ? [] : ["    data=json.dumps(body).encode(),"]),
    "    headers={",
    ...headers.map((header) => `        ${header}${header.startsWith("#") ? "" : ","}`),
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
 * A Go program (net/http and encoding/json, nothing to `go get`) that sends an operation's request (see
 * SampleOptions), prints the JSON answer, and on an error status prints the status and the body and exits with 1.
 * @param {any} bundle
 * @param {any} entry an operation of `operationsOf(bundle)`
 * @param {SampleOptions} [options]
 */
export function goSample(bundle, entry, options = {}) {
  const { sandboxCredentials: literal = false } = options;
  const { method, path, body, environment } = sampleRequest(bundle, entry, options);
  const { url, credentials, basic } = environment;
  const value = (variable) => (literal ? JSON.stringify(variable.fallback) : `getenv(${JSON.stringify(variable.name)}, ${JSON.stringify(variable.fallback)})`);
  const goMethod = `http.Method${method[0]}${method.slice(1).toLowerCase()}`;
  const target = literal ? JSON.stringify(url.fallback + path) : `baseURL+${JSON.stringify(path)}`;
  const auth = basic
    ? `request.SetBasicAuth(${value(credentials.keyId)}, ${value(credentials.keySecret)})`
    : `request.Header.Set("Authorization", "Bearer "+${value(credentials.token)})`;
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
    ...(literal ? [] : [`\t// ${environment.comment}`, `\tbaseURL := ${value(url)}`]),
    ...(body === undefined
      ? [`\trequest, err := http.NewRequest(${goMethod}, ${target}, nil)`]
      : [`\tbody := []byte(${goJson(body)})`, `\trequest, err := http.NewRequest(${goMethod}, ${target}, bytes.NewReader(body))`]),
    "\tcheck(err)",
    `\t${auth}`,
    ...(options.prefer === undefined ? [] : [`\t// ${preferComment}`, `\trequest.Header.Set("Prefer", ${JSON.stringify(options.prefer)})`]),
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
    ...(literal
      ? []
      : [
          "// getenv is os.Getenv, or fallback when the variable is unset or empty.",
          "func getenv(name, fallback string) string {",
          '\tif value := os.Getenv(name); value != "" {',
          "\t\treturn value",
          "\t}",
          "\treturn fallback",
          "}",
          "",
        ]),
    "func check(err error) {",
    "\tif err != nil {",
    "\t\tfmt.Fprintln(os.Stderr, err)",
    "\t\tos.Exit(1)",
    "\t}",
    "}",
    "",
  ].join("\n");
}
