// The examples against an ES module consumer: `import` of the package by name.
// Usage: smoke.mjs <managementUrl> <alertsUrl> <organizationId> <compiled examples dir> <name>...
import { pathToFileURL } from "node:url";
import * as sdk from "ingestion-api";
import { runExamples } from "./run-examples.mjs";

const [managementUrl, alertsUrl, organizationId, dir, ...names] = process.argv.slice(2);
const examples = names.map((name) => ({ name, url: pathToFileURL(`${dir}/${name}.mjs`).href }));
const printed = await runExamples(sdk, { managementUrl, alertsUrl, organizationId }, examples);
console.log(JSON.stringify({ module: "esm", node: process.version, printed }));
