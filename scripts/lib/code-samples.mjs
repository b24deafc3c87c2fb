// x-codeSamples for the rendered docs: for each operation a TypeScript program over the SDK, a curl command, a Python
// script (standard library only) and a Go program (net/http), from the generators in src/samples/ that the
// playground runs too; one of each per named request example, each linking to the playground at it.
import { build } from "esbuild";
import { exampleRequest, namedExamples, operationsOf } from "../../src/contract/openapi.js";
import { playgroundAddress } from "../../src/playground/address.js";
import { root } from "./toolchain.mjs";

// Scripts run under plain Node, which reads no TypeScript, and the generators read the variables' names from
// src/contract/interfaces.ts: they are bundled here, as rate-limited-server.mjs bundles the limiter.
const bundled = await build({
  absWorkingDir: root,
  stdin: {
    contents: [
      'export { curlSample, goSample, pythonSample } from "./src/samples/http-samples.js";',
      'export { typescriptSample } from "./src/samples/typescript-sample.js";',
      'export { sandboxCredentials } from "./src/samples/sample-environment.js";',
    ].join(" "),
    resolveDir: root,
    loader: "js",
  },
  bundle: true,
  platform: "neutral",
  format: "esm",
  write: false,
  logLevel: "warning",
});
export const { curlSample, goSample, pythonSample, typescriptSample, sandboxCredentials } = await import(
  `data:text/javascript;base64,${Buffer.from(bundled.outputFiles[0].contents).toString("base64")}`
);

/** The languages of the samples, in the order their entries show, with the comment that starts a line in each. */
const languages = [
  { lang: "TypeScript", label: "TypeScript SDK", comment: "//", sample: typescriptSample },
  { lang: "curl", label: "curl", comment: "#", sample: curlSample },
  { lang: "Python", label: "Python", comment: "#", sample: pythonSample },
  { lang: "Go", label: "Go", comment: "//", sample: goSample },
];

/** Text as the words of a Markdown link. */
const linkText = (text) => text.replace(/[[\]\\]/g, "\\$&");

/**
 * A copy of the bundle whose operations carry TypeScript, curl, Python and Go x-codeSamples and link to the
 * playground. An operation with named request examples gets one sample per language per example, labelled
 * "<language> · <summary>" and grouped by language (a reader reads one language: its examples stay together, in the
 * order the spec gives); one without gets one per language, of its examples. Each starts with a comment line giving
 * its address in the playground; the description ends with links to the playground at the operation and at each
 * named example.
 */
export function withCodeSamples(bundle) {
  const copy = structuredClone(bundle);
  for (const entry of operationsOf(copy)) {
    const { operationId, operation } = entry;
    const named = namedExamples(copy, entry);
    const requests = named.length > 0 ? named : [{ key: undefined, summary: undefined, request: exampleRequest(copy, entry) }];
    operation["x-codeSamples"] = languages.flatMap(({ lang, label, comment, sample }) =>
      requests.map(({ key, summary, request }) => ({
        lang,
        label: summary === undefined ? label : `${lang} · ${summary}`,
        source: `${comment} Try it in the playground: ${playgroundAddress(operationId, key)}\n${sample(copy, entry, request)}`,
      })),
    );
    const examples = named.map(({ key, summary }) => `[${linkText(summary)}](${playgroundAddress(operationId, key)})`);
    const links = `[Try it in the playground](${playgroundAddress(operationId)})${examples.length > 0 ? `: ${examples.join(" · ")}` : ""}`;
    operation.description = operation.description ? `${operation.description}\n\n${links}` : links;
  }
  return copy;
}

/**
 * The languages Redoc's sample picker offers (`openapi.codeSamples.languages` of its config) for a bundle made by
 * withCodeSamples: Redoc shows a sample only when the config names its label, so every label, grouped by language
 * in the samples' order, then the raw payload.
 */
export function redocLanguages(docs) {
  const labels = new Map();
  for (const { operation } of operationsOf(docs)) for (const { lang, label } of operation["x-codeSamples"]) labels.set(label, lang);
  const order = (lang) => languages.findIndex((language) => language.lang === lang);
  const grouped = [...labels].sort(([, a], [, b]) => order(a) - order(b));
  return [...grouped.map(([label, lang]) => ({ lang, label })), { lang: "Payload" }];
}
