// The TypeScript sample of an operation: a complete program over the SDK method that sends it (sdk-calls.js),
// with the values of its examples or of a request given instead (the playground's edited one), the body laid
// out as written. Like the other samples it reads the SDK's environment variables and falls back to the sandbox's.
// Plain JavaScript without Node's modules: the playground runs it in the browser.
import { exampleRequest } from "../contract/openapi.js";
import { preferComment } from "./http-samples.js";
import { sampleEnvironment } from "./sample-environment.js";
import { sdkCalls } from "./sdk-calls.js";

/** @typedef {import("./sdk-calls.js").SampleRequest} SampleRequest */

// Redoc's sample panel is narrow: a literal longer than this goes one entry a line.
const width = 80;

/** A JSON value as a TypeScript literal on one line. */
function inline(value) {
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(inline).join(", ")}]`;
  const entries = Object.entries(value).map(([key, item]) => `${propertyName(key)}: ${inline(item)}`);
  return entries.length === 0 ? "{}" : `{ ${entries.join(", ")} }`;
}

/** A property name as it is when it is an identifier, quoted otherwise. */
const propertyName = (key) => (/^[A-Za-z_$][\w$]*$/.test(key) ? key : JSON.stringify(key));

/** A JSON value as a TypeScript literal: on one line when it fits from `column`, else one entry a line. */
function literal(value, indent, column) {
  const oneLine = inline(value);
  if (value === null || typeof value !== "object" || column + oneLine.length <= width) return oneLine;
  const inner = `${indent}  `;
  const items = Array.isArray(value) ? value.map((item) => ["", item]) : Object.entries(value).map(([key, item]) => [`${propertyName(key)}: `, item]);
  const lines = items.map(([key, item]) => `${inner}${key}${literal(item, inner, inner.length + key.length)},`);
  return Array.isArray(value) ? `[\n${lines.join("\n")}\n${indent}]` : `{\n${lines.join("\n")}\n${indent}}`;
}

/**
 * A call with its arguments: a lone argument hugged (on the line when it fits), else all on one line when they fit,
 * else one argument a line.
 */
function call(head, args) {
  // Hugged, the argument stands after `head(` and before `);`: both count against the line.
  if (args.length === 1) return `${head}(${literal(args[0], "", head.length + "();".length)});`;
  const oneLine = `${head}(${args.map(inline).join(", ")});`;
  if (oneLine.length <= width) return oneLine;
  return `${head}(\n${args.map((arg) => `  ${literal(arg, "  ", 2)},`).join("\n")}\n);`;
}

/**
 * A TypeScript program that sends an operation's request through the SDK and prints the answer: its examples', or
 * `path`, `query` and `body` given instead; `baseUrl` replaces the default of the bundle's first server (`yourServer`
 * when it is the reader's: see sampleEnvironment); `prefer`
 * is a `Prefer` header the call sends (the call's `headers` option), with a comment saying whom it is for.
 * @param {any} bundle
 * @param {any} entry an operation of `operationsOf(bundle)`
 * @param {Partial<SampleRequest> & { baseUrl?: string, yourServer?: boolean, prefer?: string }} [options]
 */
export function typescriptSample(bundle, entry, options = {}) {
  const sdkCall = sdkCalls[entry.operationId];
  if (!sdkCall) throw new Error(`${entry.operationId}: no SDK call in src/samples/sdk-calls.js`);
  const example = exampleRequest(bundle, entry);
  const request = { path: options.path ?? example.path, query: options.query ?? example.query, body: options.body !== undefined ? options.body : example.body };
  const environment = sampleEnvironment(bundle, entry, options.baseUrl, options.yourServer);
  if (environment.api.name !== sdkCall.client) throw new Error(`${entry.operationId}: its SDK call is on the ${sdkCall.client} client`);
  const factory = sdkCall.client === "management" ? "createManagementClient" : "createAlertsClient";
  // `||`, not `??`: an empty variable falls back too, as in the curl, Python and Go samples.
  const option = (name, variable) => `  ${name}: process.env.${variable.name} || ${JSON.stringify(variable.fallback)},`;
  return [
    `import { ${factory} } from "ingestion-api";`,
    "",
    `// ${environment.comment}`,
    `const ${sdkCall.client} = ${factory}({`,
    option("baseUrl", environment.url),
    ...Object.entries(environment.credentials).map(([name, variable]) => option(name, variable)),
    "});",
    "",
    ...(options.prefer === undefined
      ? [call(`const ${sdkCall.result} = await ${sdkCall.client}.${sdkCall.method}`, sdkCall.args(request))]
      : [
          `// ${preferComment}`,
          call(`const ${sdkCall.result} = await ${sdkCall.client}.${sdkCall.method}`, [...sdkCall.args(request), { headers: { Prefer: options.prefer } }]),
        ]),
    `console.log(JSON.stringify(${sdkCall.result}, null, 2));`,
    "",
  ].join("\n");
}
