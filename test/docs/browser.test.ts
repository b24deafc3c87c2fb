// The rendered docs as a user sees them from `npm start`, in headless Chromium (Debian's, never a downloaded one).
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { root, type StartedDocs, startDocs, stopDocs } from "../support/start-process.js";

const chromiumPath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const screenshots = join(root, "build", "screenshots");
// Chromium's own background traffic would try outside hosts; these flags keep it quiet (TOOLCHAIN.md).
const chromiumFlags = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"];

let docs: StartedDocs;
let browser: Browser;

beforeAll(async () => {
  if (!existsSync(chromiumPath)) throw new Error(`no Chromium at ${chromiumPath}: apt-get install chromium, or set CHROMIUM_PATH`);
  mkdirSync(screenshots, { recursive: true });
  docs = await startDocs();
  browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumFlags });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  if (docs) await stopDocs(docs);
});

/** A page that records console errors, page errors and every host it sends a request to. */
async function open(path: string): Promise<{ page: Page; problems: string[]; hosts: Set<string> }> {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  const problems: string[] = [];
  const hosts = new Set<string>();
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(`console: ${message.text()}`);
  });
  page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (url.protocol === "http:" || url.protocol === "https:") hosts.add(url.hostname);
  });
  await page.goto(docs.docsUrl + path, { waitUntil: "networkidle" });
  return { page, problems, hosts };
}

function expectClean({ problems, hosts }: { problems: string[]; hosts: Set<string> }) {
  expect(problems).toEqual([]);
  expect([...hosts]).toEqual(["127.0.0.1"]);
}

/** Opens an operation from the navigation: expands its tag, clicks it, and returns the main panel's text. */
async function openOperation(page: Page, tag: string, summary: string): Promise<string> {
  const operation = page.locator("[data-component-name='Menu/MenuItem'].menu-item-type-operation", { hasText: summary });
  if (!(await operation.first().isVisible())) await page.getByRole("link", { name: tag, exact: true }).click();
  await operation.first().click();
  await page.waitForTimeout(300);
  return page.locator("main, body").first().innerText();
}

/** The request body part of an operation's text: Redoc also renders the neighbouring operations around it. */
function requestBodyOf(text: string, summary: string): string {
  const body = text.indexOf("Body", text.lastIndexOf(summary));
  const end = text.indexOf("Responses", body);
  expect(body).toBeGreaterThan(-1);
  return text.slice(body, end === -1 ? undefined : end);
}

describe("the landing page", () => {
  it("says what the interfaces are, links both references and the bundles, and shows the quickstart", async () => {
    const view = await open("/");
    const { page } = view;
    expect(await page.title()).toBe("ingestion-api 0.1.0: API docs");
    const links = await page.$$eval("a", (anchors) => anchors.map((a) => a.getAttribute("href")));
    for (const href of ["management.html", "alerts.html", "openapi/management.json", "openapi/management.yaml", "openapi/alerts.json", "openapi/alerts.yaml"]) {
      expect(links).toContain(href);
      expect((await page.request.get(`${docs.docsUrl}/${href}`)).status()).toBe(200);
    }
    const text = await page.locator("body").innerText();
    expect(text).toContain("Ingestion Management API");
    expect(text).toContain("Ingestion Alerting API");
    expect(text).toContain("createManagementClient");
    await page.screenshot({ path: join(screenshots, "landing.png"), fullPage: true });
    expectClean(view);
  });
});

describe("the management reference", () => {
  const operations = [
    ["Services", "List services", "GET", "/v1/organizations/{organizationId}/services"],
    ["Reverse private endpoints", "Create a reverse private endpoint", "POST", "/v1/organizations/{organizationId}/services/{serviceId}/pipesReversePrivateEndpoints"],
    ["Pipes", "Get a pipe", "GET", "/v1/organizations/{organizationId}/services/{serviceId}/pipes/{pipeId}"],
    ["Pipes", "Get the settings of a pipe", "GET", "/v1/organizations/{organizationId}/services/{serviceId}/pipes/{pipeId}/settings"],
    ["Pipes", "Replace the settings of a pipe", "PUT", "/v1/organizations/{organizationId}/services/{serviceId}/pipes/{pipeId}/settings"],
  ] as const;

  it("lists every operation in the navigation with its method, and opening one shows its path", async () => {
    const view = await open("/management.html");
    for (const [tag, summary, method, path] of operations) {
      const text = await openOperation(view.page, tag, summary);
      const item = view.page.locator("[data-component-name='Menu/MenuItem'].menu-item-type-operation", { hasText: summary }).first();
      expect((await item.innerText()).toUpperCase()).toContain(method);
      expect(text).toContain(path);
    }
    expectClean(view);
  });

  it("shows the bounds of every settings field in the request body", async () => {
    const view = await open("/management.html");
    const text = await openOperation(view.page, "Pipes", "Replace the settings of a pipe");
    const requestBody = requestBodyOf(text, "Replace the settings of a pipe");
    for (const bounds of ["[ 500 .. 60000 ]", "[ 1 .. 35 ]", "[ 100 .. 3600000 ]", "[ 10485760 .. 53687091200 ]", "[ 1 .. 10000 ]", "[ 0 .. 64 ]", "[ 0 .. 16 ]", "[ 0 .. 10737418240 ]", "[ 0 .. 32 ]", "[ 0 .. 2 ]"]) {
      expect(requestBody).toContain(bounds);
    }
    // Scroll to this operation's request body (the neighbouring GET renders the same names above it).
    await view.page.evaluate((summary) => {
      const heading = [...document.querySelectorAll("h1, h2")].find((h) => h.textContent?.trim() === summary);
      const below = (el: Element) => heading !== undefined && el.getBoundingClientRect().top > heading.getBoundingClientRect().top;
      const field = [...document.querySelectorAll("span, code, strong")].find((el) => el.textContent === "streaming_max_insert_wait_ms" && below(el));
      field?.scrollIntoView();
      window.scrollBy(0, -260);
    }, "Replace the settings of a pipe");
    await view.page.screenshot({ path: join(screenshots, "management-update-pipe-settings.png") });
    expectClean(view);
  });

  it("offers the three endpoint types as discriminator choices", async () => {
    const view = await open("/management.html");
    await openOperation(view.page, "Reverse private endpoints", "Create a reverse private endpoint");
    const choice = (type: string) => view.page.locator("button", { hasText: new RegExp(`^${type}$`) }).first();
    for (const type of ["VPC_ENDPOINT_SERVICE", "VPC_RESOURCE", "KAFKA_MULTI_VPC"]) await choice(type).waitFor({ timeout: 5_000 });
    await choice("KAFKA_MULTI_VPC").scrollIntoViewIfNeeded();
    await choice("KAFKA_MULTI_VPC").click();
    await expect(view.page.locator("body").innerText()).resolves.toContain("kafkaClusterArn");
    await view.page.evaluate(() => window.scrollBy(0, -150));
    await view.page.screenshot({ path: join(screenshots, "management-create-endpoint.png") });
    expectClean(view);
  });
});

describe("the alerts reference", () => {
  it("lists both operations and marks the alert request's required fields as required", async () => {
    const view = await open("/alerts.html");
    const text = await openOperation(view.page, "Alerts", "Create an alert");
    expect(await openOperation(view.page, "Alerts", "Get an alert")).toContain("/api/v2/alerts/{id}");
    const requestBody = requestBodyOf(text, "Create an alert");
    // A property reads: name, type, then (schema name) and constraints on their own lines, then "required".
    const isRequired = (field: string) => new RegExp(`^${field}\\n(?:[^\\n]*\\n){1,3}required$`, "m").test(requestBody);
    for (const field of ["threshold", "interval", "source", "thresholdType", "channel", "dashboardId", "tileId"]) expect(isRequired(field), field).toBe(true);
    for (const field of ["name", "message"]) expect(isRequired(field), field).toBe(false);
    expect(text).toContain("/api/v2/alerts");
    expectClean(view);
  });
});
