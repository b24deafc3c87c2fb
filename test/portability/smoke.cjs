// The smoke test as a CommonJS consumer: `require` of the package by name. Usage: smoke.cjs <managementUrl> <alertsUrl>
const sdk = require("ingestion-api");

const [managementUrl, alertsUrl] = process.argv.slice(2);
import("./smoke-operations.mjs")
  .then(({ runSmoke }) => runSmoke(sdk, { managementUrl, alertsUrl }))
  .then((ok) => console.log(JSON.stringify({ module: "cjs", node: process.version, ok })))
  .catch((error) => {
    console.error(error);
    process.exitCode = 1;
  });
