// The playground sending to a server other than its own sandbox, in Chromium, as a reader runs it: served by
// `ingestion-api docs --sandbox --connect <origin>` (the command itself, from dist/), it calls the sandbox that
// command started, and `ingestion-api sandbox` run apart as "a server" with credentials typed in, each over the
// network and through the sandbox's CORS; a server that answers no CORS gets a message that names CORS and what to
// ask of it; opened as a file (the `null` origin), the page offers only its own sandbox, and the sandbox answers
// such a page nothing it may read.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { root } from "../../scripts/lib/toolchain.mjs";
import { launchBrowserContext } from "../support/chromium.js";
import { operation } from "../support/operations.js";
import { sandboxBanner } from "../support/sandbox.js";
import { json, type ScriptedServer, startScriptedServer } from "../support/scripted-server.js";

const docsDir = join(root, "build", "docs");
// The server of the reader's takes credentials of its own, unlike any the page or its code could show by default.
const serverCredentials = { keyId: "team-key-7f3a", keySecret: "team-secret-91c2e", token: "team-token-5d8b0e" };
const screenshots = join(root, "build", "screenshots");

let sandbox: ChildProcess;
let sandboxUrl: string;
let noCors: ScriptedServer;
let docs: ChildProcess;
let docsUrl: string;
/** What `ingestion-api docs` printed: the sandbox it started is on its `sandbox` line. */
let printed: string;
let browser: BrowserContext;

/** Runs a command of this checkout's CLI until the test ends, and resolves once it printed its banner. */
async function cli(args: string[]): Promise<{ child: ChildProcess; printed: string; url: string }> {
  const child = spawn(process.execPath, [join(root, "dist", "cli.js"), ...args], { cwd: root, stdio: ["pipe", "pipe", "pipe"] });
  const { printed: banner, url } = await sandboxBanner(child);
  if (!url) throw new Error(`ingestion-api ${args.join(" ")} printed no address:\n${banner}`);
  return { child, printed: banner, url };
}

beforeAll(async () => {
  mkdirSync(screenshots, { recursive: true });
  ({ child: sandbox, url: sandboxUrl } = await cli([
    "sandbox",
    "--port",
    "0",
    "--key-id",
    serverCredentials.keyId,
    "--key-secret",
    serverCredentials.keySecret,
    "--token",
    serverCredentials.token,
  ]));
  // A server that answers the contract's JSON but no preflight and no CORS header, as most servers do.
  noCors = await startScriptedServer(json(200, { status: 200, requestId: "r-1", result: {} }));
  const started = await cli(["docs", "--port", "0", "--sandbox", "--sandbox-port", "0", "--connect", sandboxUrl, "--connect", noCors.url, "--dir", docsDir]);
  ({ child: docs, printed } = started);
  docsUrl = `${started.url}/`;
  browser = await launchBrowserContext({ viewport: { width: 1366, height: 900 } });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  for (const child of [docs, sandbox]) child?.kill("SIGTERM");
  await noCors?.close();
});

const docsSandbox = () => /sandbox {2}(http:\/\/127\.0\.0\.1:\d+)/.exec(printed)?.[1] as string;

/** The served playground at `fragment`, ready, with the console's errors and the page's errors recorded. */
async function open(base: string, fragment: string): Promise<{ page: Page; problems: string[] }> {
  const page = await browser.newPage();
  const problems: string[] = [];
  page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
  await page.goto(`${base}playground.html${fragment}`);
  await page.waitForSelector("body[data-ready=true]");
  return { page, problems };
}

/** Chooses `ingestion-api sandbox`, run apart, as the reader's server, and types in its credentials. */
async function chooseReadersServer(page: Page): Promise<void> {
  await page.getByRole("combobox", { name: "Send to" }).selectOption(`server:${sandboxUrl}`);
  await page.getByRole("textbox", { name: "Key ID" }).fill(serverCredentials.keyId);
  await page.getByLabel("Key secret").fill(serverCredentials.keySecret);
  await page.getByLabel("Token").fill(serverCredentials.token);
}

async function send(page: Page): Promise<void> {
  const before = await page.evaluate(() => Number(document.body.dataset.sends ?? 0));
  await page.getByRole("button", { name: "Send" }).click();
  await page.waitForFunction((count) => Number(document.body.dataset.sends ?? 0) > count, before, { timeout: 30_000 });
}

it("may connect to the servers the command was told of, and to nothing else", async () => {
  const policy = (await fetch(`${docsUrl}playground.html`)).headers.get("content-security-policy") ?? "";
  expect(policy).toContain(`connect-src ${docsSandbox()} ${sandboxUrl} ${noCors.url};`);
});

it("sends to the sandbox `docs --sandbox` started, over the network, and shows its answer", async () => {
  const { page, problems } = await open(docsUrl, "#getPipeSettings");
  const server = page.getByRole("combobox", { name: "Send to" });
  expect(await server.locator("option").allInnerTexts()).toEqual([
    "this page's sandbox",
    `npx ingestion-api sandbox at ${docsSandbox()}`,
    `${sandboxUrl}, with your credentials`,
    `${noCors.url}, with your credentials`,
  ]);
  await server.selectOption("sandbox");
  await send(page);
  expect(await page.locator("#request-view").innerText()).toContain(`GET ${docsSandbox()}${operation("getPipeSettings").example.url}`);
  expect(await page.locator("#response-view").innerText()).toMatch(/attempt 1: 200 OK/);
  expect(await page.locator("#result-view").innerText()).toMatch(/^the SDK returned/);
  // The code is the call to that server.
  expect(await page.locator("#code-text").innerText()).toContain(`process.env.INGESTION_API_URL || "${docsSandbox()}"`);
  await page.locator("#request-title").scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(screenshots, "playground-answered-by-npx-sandbox.png") });
  expect(problems).toEqual([]);
  await page.close();
});

it("sends to `ingestion-api sandbox` as a server of the reader's, with the credentials typed in, masked where shown and never stored", async () => {
  const { page, problems } = await open(docsUrl, "#createAlert/TileAlert");
  await chooseReadersServer(page);
  await send(page);
  expect(await page.locator("#result-view").innerText()).toMatch(/^the SDK returned/);
  const created = JSON.parse(await page.locator("#result-view pre").innerText()) as { id: string };
  // It is that server's: it reads the alert back, to anyone with the token.
  const readBack = await fetch(`${sandboxUrl}/api/v2/alerts/${created.id}`, { headers: { authorization: `Bearer ${serverCredentials.token}` } });
  expect(readBack.status).toBe(200);
  const shown = [await page.locator("#request-view").innerText(), await page.locator("#code-text").innerText()].join("\n");
  expect(shown).toContain("authorization: Bearer ••••••••");
  // The code asks for the reader's credentials at that server, not for the sandbox's.
  expect(await page.locator("#code-text").innerText()).toContain(
    `// Against ${sandboxUrl}: set INGESTION_ALERTS_TOKEN to your credentials there (the sandbox's below only stand in for them).`,
  );
  expect(shown).not.toContain(serverCredentials.token);
  // Held in the page's memory only: nowhere in its text, its address or any storage a later visit could read.
  const kept = await page.evaluate(async () => ({
    text: document.body.innerText,
    address: location.href,
    storage: [localStorage.length, sessionStorage.length, document.cookie, (await indexedDB.databases()).length, (await caches.keys()).length],
  }));
  for (const secret of [serverCredentials.keySecret, serverCredentials.token]) {
    expect(kept.text).not.toContain(secret);
    expect(kept.address).not.toContain(secret);
  }
  expect(kept.storage).toEqual([0, 0, "", 0, 0]);
  expect(problems).toEqual([]);
  await page.close();
});

it("lets a call to another server run on through a Reset of the page's sandbox, which is nothing to it", async () => {
  const { page, problems } = await open(docsUrl, "#getPipeSettings");
  await chooseReadersServer(page);
  // The server's 429 asks for 10 s: the retry waits, and the call runs, while the page's sandbox is reset.
  await page.getByRole("combobox", { name: "Answer" }).selectOption("429");
  await page.getByRole("button", { name: "Send" }).click();
  await expect.poll(() => page.locator("#request-view").innerText(), { timeout: 5_000 }).toMatch(/attempt 2 · waiting since/);
  await page.getByRole("button", { name: "Reset sandbox" }).click();
  await page.waitForTimeout(300);
  const button = page.locator("#send");
  expect(await button.innerText()).toBe("Cancel");
  expect(await page.locator("#result-view").innerText()).toBe("running…");
  // Still the reader's to stop.
  const before = await page.evaluate(() => Number(document.body.dataset.sends ?? 0));
  await button.click();
  await page.waitForFunction((count) => Number(document.body.dataset.sends ?? 0) > count, before, { timeout: 5_000 });
  expect(await page.locator("#result-view").innerText()).toMatch(/^cancelled\n\nYou cancelled the call/);
  expect(problems).toEqual([]);
  await page.close();
});

it("names CORS, and what to ask of the server's owners, when a server answers no CORS", async () => {
  const { page } = await open(docsUrl, "#getPipeSettings");
  await page.getByRole("combobox", { name: "Send to" }).selectOption(`server:${noCors.url}`);
  await page.getByRole("textbox", { name: "Key ID" }).fill("k");
  await page.getByLabel("Key secret").fill("s");
  await page.getByRole("spinbutton", { name: "maxRetries" }).fill("0");
  await send(page);
  const result = await page.locator("#result-view").innerText();
  expect(result).toContain("the SDK threw ConnectionError");
  const origin = new URL(docsUrl).origin;
  expect(result).toContain(`it does not answer CORS for this page's origin (${origin})`);
  expect(result).toContain(`Access-Control-Allow-Origin: ${origin}`);
  await page.close();
});

it("opened as a file, offers only its own sandbox and says how to reach others; the sandbox answers a null origin nothing it may read", async () => {
  const { page, problems } = await open(`${pathToFileURL(docsDir).href}/`, "#getPipeSettings");
  expect(await page.getByRole("combobox", { name: "Send to" }).locator("option").allInnerTexts()).toEqual(["this page's sandbox"]);
  expect(await page.locator("#server-help").innerText()).toContain("open it through npx ingestion-api docs --sandbox");
  // The page's own origin is `null`: the sandbox grants it no CORS, so the browser refuses it the answer.
  const refused = await page.evaluate(
    async (url) => {
      try {
        await fetch(url, { headers: { authorization: "Basic c2FuZGJveC1rZXktaWQ6c2FuZGJveC1rZXktc2VjcmV0" } });
        return "read";
      } catch (error) {
        return String(error);
      }
    },
    `${sandboxUrl}${operation("getPipeSettings").example.url}`,
  );
  expect(refused).toContain("Failed to fetch");
  expect(problems).toEqual([]);
  await page.close();
});

it("takes --connect with an https origin, and adds that origin alone to what the playground may connect to", async () => {
  const started = await cli(["docs", "--port", "0", "--connect", "https://api.example.com:8443", "--dir", docsDir]);
  try {
    const policy = (await fetch(`${started.url}/playground.html`)).headers.get("content-security-policy") ?? "";
    expect(policy).toContain("connect-src https://api.example.com:8443;");
  } finally {
    started.child.kill("SIGTERM");
  }
});

it.each([
  "http://api.example.com",
  "https://api.example.com/v1",
  "https://key:secret@api.example.com",
  "ftp://127.0.0.1",
  "localhost:4012",
  // A host a policy would read as a wildcard, another directive, or a replacement pattern.
  "https://*",
  "https://a.example;report-uri",
  "https://a$'b.example",
])("refuses --connect %s, naming the rule: an origin, https or on this machine", (value) => {
  const run = spawnSync(process.execPath, [join(root, "dist", "cli.js"), "docs", "--port", "0", "--connect", value, "--dir", docsDir], { encoding: "utf8" });
  expect(run.status).toBe(2);
  expect(run.stderr).toContain(`--connect takes a server's origin, https or on this machine (https://api.example.com, http://127.0.0.1:9000), not ${value}`);
});
