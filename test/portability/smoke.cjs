// The examples against a CommonJS consumer: `require` of the package by name.
// Usage: smoke.cjs <managementUrl> <alertsUrl> <organizationId> <compiled examples dir> <name>...
const { pathToFileURL } = require("node:url");
const sdk = require("ingestion-api");

const [managementUrl, alertsUrl, organizationId, dir, ...names] = process.argv.slice(2);
const examples = names.map((name) => ({ name, url: pathToFileURL(`${dir}/${name}.mjs`).href }));
import("./run-examples.mjs")
  .then(({ runExamples }) => runExamples(sdk, { managementUrl, alertsUrl, organizationId }, examples))
  .then((printed) => console.log(JSON.stringify({ module: "cjs", node: process.version, printed })))
  .catch((error) => {
    console.error(error);
    process.exitCode = 1;
  });
