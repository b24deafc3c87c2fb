// The ESM build in headless Chromium: loaded by a page through an import map, calling the Prism mocks
// across origins (CORS), every operation.
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, expect, inject, it } from "vitest";
import { root } from "../../scripts/toolchain.mjs";
import { launchBrowserContext } from "../support/chromium.js";
import { smokeOperations } from "./smoke-operations.mjs";

// The page may load exactly these files from the project, nothing else.
const served: Record<string, string> = {
  "/smoke.html": "test/portability/smoke.html",
  "/dist/index.js": "dist/index.js",
  "/node_modules/openapi-fetch/dist/index.mjs": "node_modules/openapi-fetch/dist/index.mjs",
  "/test/portability/smoke-operations.mjs": "test/portability/smoke-operations.mjs",
};

let pages: Server;
beforeAll(async () => {
  pages = createServer((request, response) => {
    const file = served[new URL(request.url ?? "/", "http://localhost").pathname];
    if (!file) return void response.writeHead(404).end();
    const type = file.endsWith(".html") ? "text/html; charset=utf-8" : "text/javascript; charset=utf-8";
    response.writeHead(200, { "content-type": type }).end(readFileSync(join(root, file)));
  });
  await new Promise<void>((resolve) => pages.listen(0, "127.0.0.1", resolve));
});
afterAll(() => new Promise<void>((resolve) => pages.close(() => resolve())));

it("runs every operation from a page, against mocks on other origins", async () => {
  const browser = await launchBrowserContext();
  try {
    const page = await browser.newPage();
    const problems: string[] = [];
    page.on("console", (message) => message.type() === "error" && problems.push(message.text()));
    page.on("pageerror", (error) => problems.push(error.message));
    const { port } = pages.address() as AddressInfo;
    const query = new URLSearchParams({ management: inject("managementUrl"), alerts: inject("alertsUrl") });
    await page.goto(`http://127.0.0.1:${port}/smoke.html?${query}`);
    await page.waitForFunction(() => "smokeResult" in window, undefined, { timeout: 30_000 });
    const result = await page.evaluate(() => (window as unknown as { smokeResult: unknown }).smokeResult);
    expect(result).toEqual({ ok: smokeOperations });
    expect(problems).toEqual([]);
  } finally {
    await browser.close();
  }
}, 60_000);
