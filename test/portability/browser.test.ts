// The ESM build in headless Chromium: loaded by a page through an import map, running every example against
// the Prism mocks across origins (CORS), printing what the examples print in Node.
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, expect, inject, it } from "vitest";
import { root } from "../../scripts/lib/toolchain.mjs";
import { launchBrowserContext } from "../support/chromium.js";
import { type CompiledExamples, compileExamples } from "../support/compiled-examples.js";
import { organizationId } from "../support/sdk-fixtures.js";

// The page may load exactly these files from the project, and the compiled examples, nothing else.
const served: Record<string, string> = {
  "/smoke.html": "test/portability/smoke.html",
  "/dist/index.js": "dist/index.js",
  "/node_modules/openapi-fetch/dist/index.mjs": "node_modules/openapi-fetch/dist/index.mjs",
  "/test/portability/run-examples.mjs": "test/portability/run-examples.mjs",
};

let pages: Server;
let examples: CompiledExamples;
beforeAll(async () => {
  examples = await compileExamples();
  const compiled = Object.fromEntries(examples.names.map((name) => [`/examples/${name}.mjs`, join(examples.dir, `${name}.mjs`)]));
  pages = createServer((request, response) => {
    const path = new URL(request.url ?? "/", "http://localhost").pathname;
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
