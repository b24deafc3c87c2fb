// The rendered docs as a user sees them from `npm start`'s docs server, in headless Chromium (see
// test/support/chromium.ts). The server runs here, in-process: what else `npm start` runs (two Prism mocks and the
// sandbox, about 8 s of CPU) these pages never call, and test/docs/start.test.ts runs `npm start` itself.
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { integerSettings } from "../../contract/cases/seed-settings.mjs";
import { goSample, pythonSample, withCodeSamples } from "../../scripts/lib/code-samples.mjs";
import { root } from "../../scripts/lib/toolchain.mjs";
import { namedExamples, operationsOf } from "../../src/contract/openapi.js";
import { startDocsServer } from "../../src/docs/server.js";
import { bundles } from "../support/bundles.js";
import { launchBrowserContext } from "../support/chromium.js";
import { operations as allOperations } from "../support/operations.js";

const { version } = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { version: string };
const screenshots = join(root, "build", "screenshots");

let docs: Awaited<ReturnType<typeof startDocsServer>>;
let browser: BrowserContext;

beforeAll(async () => {
  mkdirSync(screenshots, { recursive: true });
  docs = await startDocsServer({ dir: join(root, "build", "docs"), port: 0 });
  browser = await launchBrowserContext({ viewport: { width: 1400, height: 900 } });
}, 120_000);

afterAll(async () => {
  try {
    await browser?.close();
  } finally {
    await docs?.close();
  }
});

interface View {
  page: Page;
  problems: string[];
  hosts: Set<string>;
}

/**
 * The page at `path`, opened once for the file and kept: each test goes on from where the last one left it (every
 * step opens what it needs from the navigation), since a load of a reference costs some 4 s of CPU. What the page
 * recorded is its whole life's.
 */
const views = new Map<string, Promise<View>>();
function open(path: string): Promise<View> {
  const opened = views.get(path) ?? load(path);
  views.set(path, opened);
  return opened;
}

/** A page that records console errors, page errors and every host it sends a request to. */
async function load(path: string): Promise<View> {
  const page = await browser.newPage();
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
  await page.goto(new URL(path, docs.url).href, { waitUntil: "networkidle" });
  return { page, problems, hosts };
}

function expectClean({ problems, hosts }: { problems: string[]; hosts: Set<string> }) {
  expect(problems).toEqual([]);
  expect([...hosts]).toEqual(["127.0.0.1"]);
}

const menuItem = (page: Page, summary: string) => page.locator("[data-component-name='Menu/MenuItem'].menu-item-type-operation", { hasText: summary }).first();

/** Opens an operation from the navigation (expanding its tag) and returns the text once its heading shows. */
async function openOperation(page: Page, tag: string, summary: string): Promise<string> {
  if (!(await menuItem(page, summary).isVisible())) await page.getByRole("link", { name: tag, exact: true }).click();
  await menuItem(page, summary).click();
  await page.locator("h1, h2", { hasText: new RegExp(`^${summary}$`) }).waitFor();
  return page.locator("body").innerText();
}

/** The request body part of an operation's text: Redoc also renders the neighbouring operations around it. */
function requestBodyOf(text: string, summary: string): string {
  const body = text.indexOf("Body", text.lastIndexOf(summary));
  expect(body).toBeGreaterThan(-1);
  const end = text.indexOf("Responses", body);
  return text.slice(body, end === -1 ? undefined : end);
}

/** Whether a property of a rendered schema is marked required: name, type, then up to two lines
 * of (schema name) and constraints, then "required". */
function isRequired(text: string, field: string): boolean {
  return new RegExp(`^${field}\\n(?:[^\\n]*\\n){1,3}required$`, "m").test(text);
}

describe("the landing page", () => {
  it("says what the interfaces are, links both references and the bundles, and shows the quickstart", async () => {
    const view = await open("/");
    const { page } = view;
    expect(await page.title()).toBe(`ingestion-api ${version}: API docs`);
    const links = await page.$$eval("a", (anchors) => anchors.map((a) => a.getAttribute("href")));
    for (const href of ["management.html", "alerts.html", "openapi/management.json", "openapi/management.yaml", "openapi/alerts.json", "openapi/alerts.yaml"]) {
      expect(links).toContain(href);
      expect((await page.request.get(new URL(href, docs.url).href)).status()).toBe(200);
    }
    const text = await page.locator("body").innerText();
    expect(text).toContain("Ingestion Management API");
    expect(text).toContain("Ingestion Alerting API");
    expect(text).toContain("createManagementClient");
    await page.screenshot({ path: join(screenshots, "landing.png"), fullPage: true });
    expectClean(view);
  });
});

describe.each([
  ["management", "Ingestion Management API", "base_url", "http://127.0.0.1:4012"],
  ["alerts", "Ingestion Alerting API", "alerts_url", "http://127.0.0.1:4012"],
])("the %s reference", (api, title, variable, defaultUrl) => {
  it("has a title with the package version, and explains its server variable", async () => {
    const view = await open(`/${api}.html`);
    expect(await view.page.title()).toBe(`${title} ${version}`);
    const text = await view.page.locator("body").innerText();
    expect(text).toContain(`ingestion-api ${version}`);
    expect(text).toMatch(new RegExp(`${variable}\\s+${defaultUrl.replaceAll(".", "\\.")}\\s+Scheme, host and port`));
    expectClean(view);
  });
});

describe("the management reference", () => {
  // Every operation of the bundle, with the tag, summary, method and path the reference must show for it.
  const operations = allOperations.filter((o) => o.api === "management").map((o) => [o.tag, o.summary, o.method, o.path] as const);

  it("lists every operation in the navigation with its method, and opening one shows its path", async () => {
    const view = await open("/management.html");
    for (const [tag, summary, method, path] of operations) {
      const text = await openOperation(view.page, tag, summary);
      // The method badge alone, not the item's text: "Get a pipe" would contain "GET" whatever the badge said.
      const badge = await menuItem(view.page, summary).locator("[data-component-name='Tags/HttpTag']").innerText();
      expect(badge.toUpperCase()).toBe(method);
      expect(text.slice(text.lastIndexOf(summary))).toContain(path);
    }
    expectClean(view);
  });

  it("shows the bounds of every settings field in the request body", async () => {
    const view = await open("/management.html");
    const text = await openOperation(view.page, "Pipes", "Replace the settings of a pipe");
    const requestBody = requestBodyOf(text, "Replace the settings of a pipe");
    for (const [field, minimum, maximum] of integerSettings) expect(requestBody, field).toContain(`[ ${minimum} .. ${maximum} ]`);
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

  it("offers the three endpoint types as discriminator choices, each showing its own fields", async () => {
    const view = await open("/management.html");
    const summary = "Create a reverse private endpoint";
    await openOperation(view.page, "Reverse private endpoints", summary);
    const choice = (type: string) => view.page.locator("button", { hasText: new RegExp(`^${type}$`) }).first();
    for (const type of ["VPC_ENDPOINT_SERVICE", "VPC_RESOURCE", "KAFKA_MULTI_VPC"]) await choice(type).waitFor({ timeout: 5_000 });
    // Every branch lists all the fields (another type's only as null); the choice decides which are required.
    const body = async () => requestBodyOf(await view.page.locator("body").innerText(), summary);
    expect(isRequired(await body(), "vpcEndpointServiceName")).toBe(true);
    expect(isRequired(await body(), "kafkaClusterArn")).toBe(false);
    await choice("KAFKA_MULTI_VPC").scrollIntoViewIfNeeded();
    await choice("KAFKA_MULTI_VPC").click();
    await expect.poll(async () => isRequired(await body(), "kafkaClusterArn")).toBe(true);
    expect(isRequired(await body(), "kafkaAuthentication")).toBe(true);
    expect(isRequired(await body(), "vpcEndpointServiceName")).toBe(false);
    await view.page.evaluate(() => window.scrollBy(0, -150));
    await view.page.screenshot({ path: join(screenshots, "management-create-endpoint.png") });
    expectClean(view);
  });
});

describe("the alerts reference", () => {
  it("lists both operations and marks the alert request's required fields as required", async () => {
    const view = await open("/alerts.html");
    const text = await openOperation(view.page, "Alerts", "Create an alert");
    const requestBody = requestBodyOf(text, "Create an alert");
    for (const field of ["threshold", "interval", "source", "thresholdType", "channel", "dashboardId", "tileId"])
      expect(isRequired(requestBody, field), field).toBe(true);
    for (const field of ["name", "message"]) expect(isRequired(requestBody, field), field).toBe(false);
    const getText = await openOperation(view.page, "Alerts", "Get an alert");
    expect(getText.slice(getText.lastIndexOf("Get an alert"))).toContain("/api/v2/alerts/{id}");
    expectClean(view);
  });

  it("offers the request samples in TypeScript, curl, Python and Go, each showing its generated sample", async () => {
    const view = await open("/alerts.html");
    const { page } = view;
    await openOperation(page, "Alerts", "Create an alert");
    const entry = operationsOf(bundles.alerts).find((candidate) => candidate.operationId === "createAlert")!;
    const samples: { label: string; source: string }[] = operationsOf(withCodeSamples(bundles.alerts)).find(
      (candidate) => candidate.operationId === "createAlert",
    )!.operation["x-codeSamples"];
    // The language picker of the request samples (its button shows the chosen language), and the panel it heads.
    const labels = [...samples.map((sample) => sample.label), "Payload"];
    const anyLabel = labels.map((label) => label.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|");
    const picker = page.locator("[data-component-name='Dropdown/Dropdown'] > button", { hasText: new RegExp(`^(${anyLabel})$`) });
    await picker.waitFor();
    const panel = page.locator("[data-component-name='Panel/Panel']", { has: picker });
    const menu = page.getByRole("menu").filter({ visible: true });
    await picker.click();
    expect(await menu.getByRole("menuitem").allInnerTexts()).toEqual(labels);
    // The rendered code drops blank lines; what is left is the sample.
    const squeezed = (text: string) => text.replace(/\s+/g, " ").trim();
    for (const { label, source } of samples) {
      if (!(await menu.isVisible())) await picker.click();
      await menu.getByRole("menuitem", { name: label, exact: true }).click();
      await expect.poll(() => picker.innerText()).toBe(label);
      // The picker shows its label a render before the panel shows its code: on a busy machine the last one's for a while.
      await expect.poll(async () => squeezed(await panel.locator("pre").first().innerText()), { message: label }).toBe(squeezed(source));
    }
    // One entry per language per named example, labelled with its summary, each the generator's for that example.
    for (const { key, summary, request } of namedExamples(bundles.alerts, entry)) {
      const link = `playground.html#createAlert/${key}`;
      expect(samples.find((sample) => sample.label === `Python · ${summary}`)?.source).toBe(
        `# Try it in the playground: ${link}\n${pythonSample(bundles.alerts, entry, request)}`,
      );
      expect(samples.find((sample) => sample.label === `Go · ${summary}`)?.source).toBe(
        `// Try it in the playground: ${link}\n${goSample(bundles.alerts, entry, request)}`,
      );
    }
    await panel.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(screenshots, "alerts-create-go-sample.png") });
    expectClean(view);
  });
});
