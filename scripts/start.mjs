// npm start: builds the bundles, the package and the docs if missing or stale, serves build/docs on 127.0.0.1:8080,
// runs the sandbox (`ingestion-api sandbox`) on 4012 and, in front of it, a Prism proxy per interface on 4010 and 4011
// that checks every answer against the contract. `npm run mock` (--mock) runs Prism's static mocks there instead.
// The docs server, 4010 and 4011 answer only requests that name this machine in Host, and 4010 and 4011 none from
// a page served from another host (lib/local-guard.mjs). Ctrl-C stops everything.
import { readFileSync, realpathSync, statSync } from "node:fs";
import { createServer } from "node:http";
import { extname, join, sep } from "node:path";
import { allowedHosts, isAllowedHost } from "../src/sandbox/local-only.js";
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

const contentTypes = {
  ".html": "text/html; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".yaml": "application/yaml; charset=utf-8",
  ".png": "image/png",
  ".svg": "image/svg+xml",
  ".css": "text/css; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
};

// The pages are self-contained: a browser must not guess other types for the files, nor load anything from
// another origin. Redoc runs inline scripts and styles and its search in a worker made from a blob.
const securityHeaders = {
  "x-content-type-options": "nosniff",
  "content-security-policy":
    "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; worker-src 'self' blob:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'",
  "referrer-policy": "no-referrer",
};

const docsHost = "127.0.0.1";
const docsHosts = allowedHosts(docsHost);

// Static files under build/docs only, to requests that name this machine in Host; `/` is the landing page.
const docsServer = createServer((request, response) => {
  for (const [name, value] of Object.entries(securityHeaders)) response.setHeader(name, value);
  // A page whose domain was rebound to 127.0.0.1 still sends its own name.
  if (!isAllowedHost(request.headers.host, docsHosts)) {
    response.writeHead(403, { connection: "close" }).end();
    return;
  }
  if (request.method !== "GET" && request.method !== "HEAD") {
    response.writeHead(405, { allow: "GET, HEAD", connection: "close" }).end();
    return;
  }
  let path;
  try {
    path = decodeURIComponent(new URL(request.url ?? "/", "http://localhost").pathname);
  } catch {
    response.writeHead(400).end();
    return;
  }
  let body;
  let file;
  try {
    // Only a regular file whose real path, links resolved, is under build/docs: a link planted there that
    // points out of it (to /etc/passwd, say) is not followed.
    file = realpathSync(join(docsDir, path === "/" ? "index.html" : path));
    if (!file.startsWith(realpathSync(docsDir) + sep) || !statSync(file).isFile()) throw new Error("not a file of the docs");
    body = readFileSync(file);
  } catch {
    // Missing, outside the docs, or gone between the check and the read (the docs being rebuilt).
    response.writeHead(404, { "content-type": "text/plain; charset=utf-8" }).end("Not found\n");
    return;
  }
  response.writeHead(200, { "content-type": contentTypes[extname(file)] ?? "application/octet-stream", "content-length": body.length });
  response.end(request.method === "HEAD" ? undefined : body);
});

const mocks = [];
let stopping = false;
const stopAll = async () => {
  stopping = true;
  docsServer.close();
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
  await new Promise((resolve, reject) => docsServer.once("error", reject).listen(docsPort, docsHost, resolve));
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
