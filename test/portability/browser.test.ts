// The ESM build in headless Chromium: loaded by a page through an import map, running every example against
// the Prism mocks across origins (CORS), printing what the examples print in Node.
import { readdirSync, readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, expect, inject, it } from "vitest";
import { root } from "../../scripts/lib/toolchain.mjs";
import { launchBrowserContext } from "../support/chromium.js";
import { type CompiledExamples, compileExamples } from "../support/compiled-examples.js";
import { organizationId } from "../support/sdk-fixtures.js";

// The page may load exactly these files from the project (the package's ES module, the validators it imports, the
// page and its runner) and the compiled examples, nothing else.
const served: Record<string, string> = {
  "/smoke.html": "test/portability/smoke.html",
  "/dist/index.js": "dist/index.js",
  "/dist/sandbox.js": "dist/sandbox.js",
  ...Object.fromEntries(readdirSync(join(root, "dist", "validators")).map((file) => [`/dist/validators/${file}`, `dist/validators/${file}`])),
  "/test/portability/run-examples.mjs": "test/portability/run-examples.mjs",
};

let pages: Server;
let examples: CompiledExamples;
/** The paths the page server was asked for, in order. */
const requested: string[] = [];
beforeAll(async () => {
  examples = await compileExamples();
  const compiled = Object.fromEntries(examples.names.map((name) => [`/examples/${name}.mjs`, join(examples.dir, `${name}.mjs`)]));
  pages = createServer((request, response) => {
    const path = new URL(request.url ?? "/", "http://localhost").pathname;
    requested.push(path);
    const file = compiled[path] ?? (served[path] && join(root, served[path]));
    if (!file) return void response.writeHead(404).end();
    const type = file.endsWith(".html") ? "text/html; charset=utf-8" : "text/javascript; charset=utf-8";
    response.writeHead(200, { "content-type": type }).end(readFileSync(file));
  });
  await new Promise<void>((resolve) => pages.listen(0, "127.0.0.1", resolve));
});
afterAll(async () => {
  await new Promise<void>((resolve) => pages.close(() => resolve()));
  examples?.remove();
});

it("runs every example from a page, against mocks on other origins", async () => {
  const browser = await launchBrowserContext();
  try {
    const page = await browser.newPage();
    const problems: string[] = [];
    // examples/errors.ts asks a mock for a 404 and logs it: Chromium reports that load, and the SDK logs its line.
    const fromErrorsExample = (message: { text(): string; location(): { url: string } }) =>
      message.location().url.startsWith(inject("managementUrl")) || message.text().startsWith("[ingestion-api] ");
    page.on("console", (message) => message.type() === "error" && !fromErrorsExample(message) && problems.push(message.text()));
    page.on("pageerror", (error) => problems.push(error.message));
    const { port } = pages.address() as AddressInfo;
    const query = new URLSearchParams({ management: inject("managementUrl"), alerts: inject("alertsUrl"), organization: organizationId });
    for (const name of examples.names) query.append("example", name);
    await page.goto(`http://127.0.0.1:${port}/smoke.html?${query}`);
    await page.waitForFunction(() => "smokeResult" in window, undefined, { timeout: 30_000 });
    const result = (await page.evaluate(() => (window as unknown as { smokeResult: unknown }).smokeResult)) as {
      printed?: Record<string, string[]>;
      error?: string;
    };
    expect(result.error).toBeUndefined();
    expect(Object.keys(result.printed ?? {})).toEqual(examples.names);
    for (const name of examples.names) expect(result.printed?.[name]?.length, `examples/${name}.ts printed nothing`).toBeGreaterThan(0);
    expect(problems).toEqual([]);
  } finally {
    await browser.close();
  }
}, 60_000);

it("names no User-Agent of its own in a browser, so a cross-origin call asks the server for nothing more", async () => {
  // A server on another origin that records each request and allows the SDK's headers, as a CORS-enabled API would.
  const seen: { method: string; userAgent: string | undefined; requested: string | undefined }[] = [];
  const api = createServer((request, response) => {
    seen.push({ method: request.method ?? "", userAgent: request.headers["user-agent"], requested: request.headers["access-control-request-headers"] });
    const cors = { "access-control-allow-origin": "*", "access-control-allow-headers": "authorization, accept, content-type" };
    if (request.method === "OPTIONS") return void response.writeHead(204, cors).end();
    response.writeHead(200, { ...cors, "content-type": "application/json" }).end(JSON.stringify({ data: { id: "65f1c2d3e4b5a69788796a01" } }));
  });
  await new Promise<void>((resolve) => api.listen(0, "127.0.0.1", resolve));
  const browser = await launchBrowserContext();
  try {
    const page = await browser.newPage();
    await page.goto(`http://127.0.0.1:${(pages.address() as AddressInfo).port}/smoke.html`);
    requested.length = 0;
    const apiUrl = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
    // As text: vitest would rewrite a function's dynamic import into its own loader, which the page does not have.
    // The page's fetch is wrapped to see the header names the SDK asks it to send: Chromium would drop a User-Agent.
    const { id, asked } = (await page.evaluate(`(async () => {
      const { createAlertsClient } = await import("ingestion-api");
      const asked = [];
      const recording = (url, init) => { asked.push(...Object.keys(init.headers)); return fetch(url, init); };
      const client = createAlertsClient({ baseUrl: ${JSON.stringify(apiUrl)}, token: "browser-token", fetch: recording });
      return { id: (await client.get("65f1c2d3e4b5a69788796a01")).id, asked };
    })()`)) as { id: string; asked: string[] };
    expect(id).toBe("65f1c2d3e4b5a69788796a01");
    expect(asked.sort()).toEqual(["accept", "authorization"]);
    // An alerting client loads its own request validators, and neither the other interface's nor any answer's.
    expect(requested.filter((path) => path.startsWith("/dist/validators/"))).toEqual(["/dist/validators/alerts.js"]);
    const get = seen.find(({ method }) => method === "GET");
    expect(get?.userAgent).toMatch(/Chrome/);
    expect(get?.userAgent).not.toMatch(/ingestion-api/);
    // The preflight asks only for what the contract needs: Authorization (and no User-Agent).
    expect(seen.find(({ method }) => method === "OPTIONS")?.requested).toBe("authorization");
  } finally {
    await browser.close();
    await new Promise<void>((resolve) => api.close(() => resolve()));
  }
}, 60_000);

it("runs the in-process sandbox (ingestion-api/sandbox) in the page: a created alert reads back, with no server", async () => {
  const browser = await launchBrowserContext();
  try {
    const page = await browser.newPage();
    const problems: string[] = [];
    page.on("pageerror", (error) => problems.push(error.message));
    await page.goto(`http://127.0.0.1:${(pages.address() as AddressInfo).port}/smoke.html`);
    requested.length = 0;
    // As text, for the same reason as above.
    const result = (await page.evaluate(`(async () => {
      const { createAlertsClient } = await import("ingestion-api");
      const { createSandbox } = await import("ingestion-api/sandbox");
      const sandbox = createSandbox();
      const alerts = createAlertsClient({ baseUrl: sandbox.baseUrl, fetch: sandbox.fetch, token: sandbox.credentials.token, rateLimit: false });
      const before = sandbox.state.alerts.length;
      const created = await alerts.create({ source: "search", savedSearchId: "65f1c2d3e4b5a69788796a30", threshold: 5, thresholdType: "below", interval: "15m", channel: { type: "webhook", webhookId: "65f1c2d3e4b5a69788796a20" } });
      const again = await alerts.get(created.id);
      return { same: JSON.stringify(again) === JSON.stringify(created), added: sandbox.state.alerts.length - before };
    })()`)) as { same: boolean; added: number };
    expect(result.same).toBe(true);
    expect(result.added).toBe(1);
    expect(problems).toEqual([]);
    // Only the page's own files were fetched: the calls never left the page.
    expect(requested.every((path) => path.startsWith("/dist/"))).toBe(true);
  } finally {
    await browser.close();
  }
}, 60_000);
