// The references without JavaScript: each built page carries its operations as plain HTML (a text browser, a screen
// reader with scripts off, a search index read it), and a browser that runs scripts sees Redoc's page alone.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { integerSettings } from "../../contract/cases/seed-settings.mjs";
import { staticReference, withStaticReference } from "../../scripts/lib/static-reference.mjs";
import { root } from "../../scripts/lib/toolchain.mjs";
import { namedExamples, operationsOf, resolveRef } from "../../src/contract/openapi.js";
import { type Api, apis, bundles } from "../support/bundles.js";
import { launchBrowserContext } from "../support/chromium.js";

const escapeHtml = (text: string) => text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;");
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Every value an `enum` or a `const` of the bundle allows. */
function enumValues(bundle: unknown): unknown[] {
  const values: unknown[] = [];
  const walk = (node: unknown): void => {
    if (node === null || typeof node !== "object") return;
    const schema = node as Record<string, unknown>;
    if (Array.isArray(schema.enum)) values.push(...schema.enum);
    if ("const" in schema) values.push(schema.const);
    for (const child of Object.values(schema)) walk(child);
  };
  walk(bundle);
  return [...new Set(values)];
}

/** The summary of every named example of every operation: its parameters', its request body's and its responses'. */
function exampleSummaries(api: Api): string[] {
  const bundle = bundles[api];
  const summaries = operationsOf(bundle).flatMap(({ operation, parameters }) => {
    const bodies = [operation.requestBody, ...Object.values(operation.responses ?? {})].filter(Boolean).map((node) => resolveRef(bundle, node));
    const examples = [...parameters, ...bodies.flatMap((body) => Object.values(body.content ?? {}))].flatMap((holder: any) =>
      Object.values(holder.examples ?? {}),
    );
    return examples.map((example) => resolveRef(bundle, example).summary as string);
  });
  return [...new Set(summaries)];
}

/** The pipe settings the bundle bounds, with their bounds, read from its PipeSettings schema. */
function settingBounds(): [name: string, minimum: number, maximum: number][] {
  const { properties } = bundles.management.components.schemas.PipeSettings;
  return Object.entries<any>(properties)
    .map(([name, property]) => [name, resolveRef(bundles.management, property)] as const)
    .filter(([, schema]) => schema.minimum !== undefined || schema.maximum !== undefined)
    .map(([name, schema]) => [name, schema.minimum, schema.maximum]);
}

describe("staticReference", () => {
  it("reads every bound setting of the seed from the bundle (so the bounds checks below are not vacuous)", () => {
    expect(settingBounds().map(([name]) => name)).toEqual(integerSettings.map(([name]) => name));
  });

  describe.each(apis)("of the %s bundle", (api) => {
    const html = staticReference(bundles[api]);

    it("gives every operation a section with its operationId as id, its method and path, and a link to the playground", () => {
      for (const { operationId, method, path } of operationsOf(bundles[api])) {
        const section = html.slice(html.indexOf(`<section id="${operationId}">`), html.indexOf("</section>", html.indexOf(`<section id="${operationId}">`)));
        expect(section, operationId).toContain(`<code>${escapeHtml(`${method.toUpperCase()} ${path}`)}</code>`);
        expect(section, operationId).toContain(`<a href="playground.html#${operationId}">Try it in the playground</a>`);
      }
    });

    it("links each named request example, of a body or a parameter, to its place in the playground", () => {
      for (const entry of operationsOf(bundles[api])) {
        for (const { key } of namedExamples(bundles[api], entry)) expect(html).toContain(`href="playground.html#${entry.operationId}/${key}"`);
      }
    });

    it("states every enum and const value of the bundle as code", () => {
      for (const value of enumValues(bundles[api])) {
        expect(html, String(value)).toContain(`<code>${escapeHtml(typeof value === "string" ? value : JSON.stringify(value))}</code>`);
      }
    });

    it("shows the summary of every named example of a parameter, a request body and a response", () => {
      for (const summary of exampleSummaries(api)) expect(html, summary).toContain(escapeHtml(summary));
    });
  });

  it("states each pipe setting's bounds beside its name", () => {
    const html = staticReference(bundles.management);
    for (const [name, minimum, maximum] of settingBounds()) {
      expect(html, name).toMatch(new RegExp(`<dt><code>${name}</code></dt><dd>[^<]*minimum ${minimum}, maximum ${maximum}[,<]`));
    }
  });

  it("escapes the bundle's text, so no description, summary or example becomes markup", () => {
    const hostile = "<img src=x onerror=alert(1)>";
    const bundle = {
      openapi: "3.1.0",
      info: { title: "hostile", version: "1" },
      paths: {
        "/things": {
          get: {
            operationId: "listThings",
            summary: hostile,
            description: `a & b ${hostile}`,
            responses: {
              "200": {
                description: hostile,
                content: {
                  "application/json": { schema: { type: "string", enum: [hostile] }, examples: { one: { summary: hostile, value: `</pre>${hostile}` } } },
                },
              },
            },
          },
        },
      },
    };
    const html = staticReference(bundle);
    expect(html).not.toContain("<img");
    expect(html).toContain(escapeHtml(hostile));
  });
});

describe("withStaticReference", () => {
  const page = '<body>\n<div id="redoc"><p>Loading...</p></div>\n<script type="module">hydrate()</script>\n</body>';

  it("puts the reference after Redoc's server-rendered container and before the script that hydrates it", () => {
    const built = withStaticReference(page, bundles.alerts);
    const reference = built.indexOf('<section id="static-reference"');
    expect(reference).toBeGreaterThan(built.indexOf("<p>Loading...</p></div>"));
    expect(built.indexOf('<script type="module">')).toBeGreaterThan(built.indexOf(staticReference(bundles.alerts)));
  });

  it("opens the reference with the script that hides it, so readers who run scripts see only Redoc", () => {
    const built = withStaticReference(page, bundles.alerts);
    expect(built).toMatch(/<section id="static-reference"[^>]*><script>document\.currentScript\.parentElement\.hidden = true;<\/script>/);
  });

  it("fails the build when build-docs' page no longer has Redoc's container and script", () => {
    expect(() => withStaticReference("<body><div id='app'></div></body>", bundles.alerts)).toThrow(/Redoc container/);
  });
});

/** A built reference opened from disk with every request but the page's own refused. */
async function openBuilt(browser: BrowserContext, api: Api): Promise<Page> {
  const page = await browser.newPage();
  await page.route("**/*", (route) => (route.request().url().startsWith("file:") ? route.continue() : route.abort()));
  await page.goto(`file://${join(root, "build", "docs", `${api}.html`)}`, { waitUntil: "load" });
  return page;
}

describe("the built references with scripts off", () => {
  let browser: BrowserContext;
  beforeAll(async () => {
    for (const api of apis) readFileSync(join(root, "build", "docs", `${api}.html`)); // fails early without `npm run docs`
    browser = await launchBrowserContext({ javaScriptEnabled: false });
  }, 60_000);
  // Chromium can take more than the default 10 s to close on a busy 2-core machine (it did once in CI).
  afterAll(() => browser?.close(), 60_000);

  it.each(apis)("%s.html shows every operation id, enum value and named example's summary as text", async (api) => {
    const text = await (await openBuilt(browser, api)).evaluate(() => document.body.innerText);
    for (const { operationId } of operationsOf(bundles[api])) expect(text).toContain(operationId);
    for (const value of enumValues(bundles[api])) expect(text).toContain(String(value));
    for (const summary of exampleSummaries(api)) expect(text).toContain(summary);
  });

  it("management.html shows each pipe setting's bounds under its name", async () => {
    const text = await (await openBuilt(browser, "management")).evaluate(() => document.body.innerText);
    for (const [name, minimum, maximum] of settingBounds()) {
      expect(text, name).toMatch(new RegExp(`^${escapeRegExp(name)}\\n[^\\n]*minimum ${minimum}, maximum ${maximum}\\b`, "m"));
    }
  });
});

describe("the built references with scripts on", () => {
  let browser: BrowserContext;
  beforeAll(async () => {
    browser = await launchBrowserContext();
  }, 60_000);
  // Chromium can take more than the default 10 s to close on a busy 2-core machine (it did once in CI).
  afterAll(() => browser?.close(), 60_000);

  it.each(apis)("%s.html shows Redoc's page alone, the static reference hidden", async (api) => {
    const page = await openBuilt(browser, api);
    await page.locator("[data-component-name='Menu/MenuItem']").first().waitFor();
    expect(await page.locator("#static-reference").isHidden()).toBe(true);
    const text = await page.evaluate(() => document.body.innerText);
    for (const { operationId } of operationsOf(bundles[api])) expect(text).not.toContain(`operation ${operationId}`);
  });
});
