// npm start: builds the bundles, the package and the docs if missing or stale, serves build/docs on 127.0.0.1:8080,
// runs the sandbox (`ingestion-api sandbox`) on 4012 and, in front of it, a Prism proxy per interface on 4010 and 4011
// that checks every answer against the contract. `npm run mock` (--mock) runs Prism's static mocks there instead.
// The docs server, 4010 and 4011 answer only requests that name this machine in Host, and 4010 and 4011 none from
// a page served from another host (lib/local-guard.mjs). Ctrl-C stops everything.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { startDocsServer } from "../src/docs/server.js";
import { buildWhatIsStale } from "./lib/build-steps.mjs";
import { sandboxCredentials } from "./lib/code-samples.mjs";
import { killAllMocksNow, portInUse, startMocks, stopMock } from "./lib/mock-servers.mjs";
import { startSandboxBehindPrism } from "./lib/sandbox-process.mjs";
import { sandboxTour, staticMockTour } from "./lib/sandbox-tour.mjs";
import { root } from "./lib/toolchain.mjs";

const staticMocks = process.argv.includes("--mock");
const label = staticMocks ? "npm run mock" : "npm start";
const docsDir = join(root, "build", "docs");
const ports = [
  { name: "docs", variable: "DOCS_PORT", fallback: 8080 },
  { name: "management", variable: "MANAGEMENT_MOCK_PORT", fallback: 4010 },
  { name: "alerts", variable: "ALERTS_MOCK_PORT", fallback: 4011 },
  ...(staticMocks ? [] : [{ name: "sandbox", variable: "SANDBOX_PORT", fallback: 4012 }]),
].map((port) => ({ ...port, value: Number(process.env[port.variable] || port.fallback) }));

function fail(message) {
  console.error(`${label}: ${message}`);
  process.exit(1);
}

for (const { variable, value } of ports) {
  if (!Number.isInteger(value) || value < 1 || value > 65535) fail(`${variable} must be a port number from 1 to 65535`);
  const twin = ports.find((other) => other.variable !== variable && other.value === value);
  if (twin) fail(`${variable} and ${twin.variable} are both ${value}; give each its own port`);
  if (await portInUse(value)) fail(`port ${value} is already in use; set ${variable} to another port`);
}
const [docsPort, managementPort, alertsPort, sandboxPort] = ports.map((port) => port.value);

// The bundles, the package (the sandbox is its dist/cli.js) and the docs are rebuilt first when an input changed since.
try {
  buildWhatIsStale(label, ["generate", ...(staticMocks ? [] : ["compile"]), "docs"]);
} catch (error) {
  fail(error.message);
}

const docsHost = "127.0.0.1";
let docsServer;
const mocks = [];
let stopping = false;
const stopAll = async () => {
  stopping = true;
  docsServer?.close();
  await Promise.all(mocks.map(stopMock));
};
process.on("exit", killAllMocksNow);
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    console.log(`\n${label}: stopping`);
    stopAll().then(() => process.exit(0));
  });
}

try {
  docsServer = await startDocsServer({ dir: docsDir, host: docsHost, port: docsPort });
  mocks.push(
    ...(staticMocks
      ? await startMocks([
          { bundle: "generated/openapi/management.json", port: managementPort },
          { bundle: "generated/openapi/alerts.json", port: alertsPort },
        ])
      : await startSandboxBehindPrism({ sandbox: sandboxPort, management: managementPort, alerts: alertsPort }, sandboxCredentials)),
  );
} catch (error) {
  await stopAll();
  fail(error instanceof Error ? error.message : String(error));
}
for (const mock of mocks) {
  mock.child.on("exit", (code) => {
    if (stopping) return;
    console.error(`${label}: the server of ${mock.bundle} stopped (code ${code}); stopping everything`);
    stopAll().then(() => process.exit(1));
  });
}

const { version } = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
const [management, alerts, sandbox] = staticMocks ? mocks : mocks.slice(1).concat(mocks[0]);
console.log(`ingestion-api ${version}
  docs        http://127.0.0.1:${docsPort}/
${
  staticMocks
    ? `  management  ${management.url}   (Prism mock of generated/openapi/management.json)
  alerts      ${alerts.url}   (Prism mock of generated/openapi/alerts.json)`
    : `  management  ${management.url}   (Prism checking generated/openapi/management.json, in front of the sandbox)
  alerts      ${alerts.url}   (Prism checking generated/openapi/alerts.json, in front of the sandbox)
  sandbox     ${sandbox.url}   (ingestion-api sandbox: key id ${sandboxCredentials.keyId}, key secret ${sandboxCredentials.keySecret}, token ${sandboxCredentials.token})`
}

${(staticMocks ? staticMockTour(management.url, alerts.url) : sandboxTour(management.url, alerts.url, sandbox.url)).join("\n\n")}

Ctrl-C stops everything.`);
