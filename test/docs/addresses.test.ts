// Every address of the references lands, with scripts and without, served by the docs server and from file://: an
// operation's own address `<page>#<operationId>` (the static reference's anchor, the playground's link), Redoc's
// `#/<tag>/<operationid>` (what its navigation shows once its script runs, and what a reader copies), and the links
// of the navigation Redoc renders on the server. Each is opened as a new tab opens it, and the operation's title,
// or the section's, must be in view. And every link to the playground opens it on the operation and example named.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { redocRoute } from "../../scripts/lib/static-reference.mjs";
import { root } from "../../scripts/lib/toolchain.mjs";
import { operationsOf } from "../../src/contract/openapi.js";
import { startDocsServer } from "../../src/docs/server.js";
import { bundles } from "../support/bundles.js";
import { launchBrowserContext } from "../support/chromium.js";

const docsDir = join(root, "build", "docs");
const operations = (["management", "alerts"] as const).flatMap((api) =>
  operationsOf(bundles[api]).map((entry: { operationId: string; operation: { summary: string; tags?: string[] } }) => ({
    api,
    operationId: entry.operationId,
    summary: entry.operation.summary,
    route: redocRoute(entry) as string,
  })),
);

let docs: Awaited<ReturnType<typeof startDocsServer>>;
beforeAll(async () => {
  docs = await startDocsServer({ dir: docsDir, port: 0 });
});
afterAll(() => docs?.close());

/** Where a reader opens the pages from: the docs server, and the folder itself. */
const places: [string, () => string][] = [
  ["served", () => docs.url],
  ["from file://", () => `${pathToFileURL(docsDir).href}/`],
];

/**
 * Waits (up to 10 s: Redoc scrolls after it renders) for a heading that reads `title` in the top third of the
 * screen, where Redoc brings the section it opens.
 */
function headingAtTop(page: Page, title: string): Promise<boolean> {
  return page
    .waitForFunction(
      (wanted) =>
        [...document.querySelectorAll("h1, h2, h3")].some((heading) => {
          const box = heading.getBoundingClientRect();
          return heading.textContent?.trim() === wanted && box.height > 0 && box.top >= -1 && box.top < innerHeight / 3;
        }),
      title,
      { timeout: 10_000, polling: 100 },
    )
    .then(() => true)
    .catch(() => false);
}

/** Opens `address` in a fresh tab: whether `title` comes into view. */
async function lands(browser: BrowserContext, address: string, title: string): Promise<boolean> {
  const page = await browser.newPage();
  try {
    await page.goto(address, { waitUntil: "load" });
    return await headingAtTop(page, title);
  } finally {
    await page.close();
  }
}

it("answers every operation's two addresses with an id in each page's text, for readers without scripts", () => {
  const missing = operations.flatMap(({ api, operationId, route }) => {
    const html = readFileSync(join(docsDir, `${api}.html`), "utf8");
    // An id attribute of its own: Redoc's `data-section-id="/services"` holds the text too, and lands nowhere.
    return [operationId, route.slice(1)].filter((id) => !html.includes(` id="${id}"`)).map((id) => `${api}.html: id="${id}"`);
  });
  expect(missing).toEqual([]);
});

describe.each([
  ["with scripts", true],
  ["without scripts", false],
])("%s", (_, javaScriptEnabled) => {
  let browser: BrowserContext;
  beforeAll(async () => {
    browser = await launchBrowserContext({ viewport: { width: 1280, height: 900 }, javaScriptEnabled });
  }, 60_000);
  afterAll(() => browser?.close());

  // A fresh tab opens an operation's own address and Redoc's; every address of a page is a plain fragment the page
  // answers alike without scripts (each id is checked in the page's text above), and goes through one route table
  // with them (each is typed into the address bar below): the first operation of each page stands for the rest.
  const firstOfEachPage = operations.filter((operation, index) => operations.findIndex(({ api }) => api === operation.api) === index);
  const cases = firstOfEachPage.flatMap((operation) => [
    { ...operation, fragment: `#${operation.operationId}` },
    { ...operation, fragment: operation.route },
  ]);

  it.each(places)(
    "lands each operation's own address and Redoc's, %s",
    async (_, base) => {
      const missed: string[] = [];
      for (const { api, summary, fragment } of cases) {
        if (!(await lands(browser, new URL(`${api}.html${fragment}`, base()).href, summary))) missed.push(`${api}.html${fragment}`);
      }
      expect(missed).toEqual([]);
    },
    120_000,
  );

  // A page Redoc runs: each operation's own address, typed into the address bar, changes only the fragment. The
  // page's route table turns it into Redoc's, ahead of Redoc's own listeners.
  it.runIf(javaScriptEnabled)(
    "lands each operation's own address typed into the address bar of a page Redoc runs",
    async () => {
      const missed: string[] = [];
      for (const first of firstOfEachPage) {
        const page = await browser.newPage();
        await page.goto(new URL(`${first.api}.html#${first.operationId}`, docs.url).href, { waitUntil: "load" });
        expect(await headingAtTop(page, first.summary), first.operationId).toBe(true);
        for (const { operationId, summary } of operations.filter(({ api }) => api === first.api).slice(1)) {
          await page.evaluate((hash) => {
            location.hash = hash;
          }, `#${operationId}`);
          if (!(await headingAtTop(page, summary))) missed.push(`${first.api}.html#${operationId}, typed`);
        }
        await page.close();
      }
      expect(missed).toEqual([]);
    },
    60_000,
  );

  // The playground is a page of scripts: its addresses are followed with them. Every one the pages give (the
  // references' "Try it in the playground" links and their samples' first comment line, the landing page's list).
  it.runIf(javaScriptEnabled).each(places)(
    "opens the playground on each operation and example the pages link to, %s",
    async (_, base) => {
      const addresses = new Set(
        ["index.html", "management.html", "alerts.html"].flatMap((file) => [
          ...readFileSync(join(docsDir, file), "utf8").matchAll(/playground\.html#([A-Za-z]+)(?:\/([A-Za-z0-9_-]+))?/g),
        ]),
      );
      const wanted = [...new Map([...addresses].map(([address, operationId, example]) => [address, { address, operationId, example }])).values()];
      expect(wanted.length).toBeGreaterThanOrEqual(operations.length);
      const missed: string[] = [];
      for (const { address, operationId, example } of wanted) {
        const page = await browser.newPage();
        await page.goto(new URL(address, base()).href);
        await page.waitForSelector("body[data-ready=true]");
        const opened = {
          operationId: await page.getByRole("combobox", { name: "Operation" }).inputValue(),
          example: await page.getByRole("combobox", { name: "Example" }).inputValue(),
        };
        if (opened.operationId !== operationId || (example !== undefined && opened.example !== example))
          missed.push(`${address}: opened ${JSON.stringify(opened)}`);
        await page.close();
      }
      expect(missed).toEqual([]);
    },
    60_000,
  );

  // The navigation's links as a reader copies them or opens them in a new tab, as the loaded page shows them. Each is
  // a fragment; without scripts the element it names must be in view (the link itself, in the sidebar, does not
  // count), with them the section's heading.
  it.each(places)(
    "lands every link of each reference's navigation, %s",
    async (_, base) => {
      const missed: string[] = [];
      for (const api of ["management", "alerts"]) {
        const page = await browser.newPage();
        await page.goto(new URL(`${api}.html`, base()).href, { waitUntil: "load" });
        const links = await page.evaluate(() =>
          [...document.querySelectorAll("[role=listitem] > a[href^='#/']")].map((link) => ({
            href: link.getAttribute("href") ?? "",
            text: link.textContent?.trim() ?? "",
          })),
        );
        await page.close();
        const followed = links.filter(({ href }) => href !== "#/");
        expect(followed.map(({ href }) => href)).toEqual(
          expect.arrayContaining(["#/section/servers", ...(api === "management" ? ["#/services", "#/pipes"] : ["#/alerts"])]),
        );
        for (const { href, text } of followed) {
          const target = await browser.newPage();
          await target.goto(new URL(`${api}.html${href}`, base()).href, { waitUntil: "load" });
          const found = javaScriptEnabled
            ? await headingAtTop(target, text)
            : await target.evaluate((id) => {
                // The element a fragment lands on: the one with that id, or else the link with that name.
                const box = (document.getElementById(id) ?? document.querySelector(`a[name="${CSS.escape(id)}"]`))?.getBoundingClientRect();
                return Boolean(box && box.top >= -1 && box.top < innerHeight / 3);
              }, href.slice(1));
          if (!found) missed.push(`${api}.html${href} (${text})`);
          await target.close();
        }
      }
      expect(missed).toEqual([]);
    },
    120_000,
  );
});
