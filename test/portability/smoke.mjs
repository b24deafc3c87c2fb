// The smoke test as an ES module consumer: `import` of the package by name. Usage: smoke.mjs <managementUrl> <alertsUrl>
import * as sdk from "ingestion-api";
import { runSmoke } from "./smoke-operations.mjs";

const [managementUrl, alertsUrl] = process.argv.slice(2);
const ok = await runSmoke(sdk, { managementUrl, alertsUrl });
console.log(JSON.stringify({ module: "esm", node: process.version, ok }));
