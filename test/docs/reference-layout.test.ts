// Each reference reads whole on a laptop (1280 px) and a phone (390 px), in Chromium: no heading cut by its box, and
// no title squeezed beside its Copy button or broken inside a word; the sample picker and its list showing each
// sample's whole name, on screen; code not under its copy button; the Servers panel in words, not Markdown. These are
// the docs' styles over Redoc (scripts/lib/reference-styles.mjs), measured. Each finds Redoc's components by their
// data-component-name, so when Redoc's markup changes under a style the test fails for want of the component, not
// silently. Screenshots of each page and width go to build/screenshots/reference-<api>-<width>-<state>.png.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { withCodeSamples } from "../../scripts/lib/code-samples.mjs";
import { redocRoute } from "../../scripts/lib/static-reference.mjs";
import { root } from "../../scripts/lib/toolchain.mjs";
import { operationsOf } from "../../src/contract/openapi.js";
import { startDocsServer } from "../../src/docs/server.js";
import { bundles } from "../support/bundles.js";
import { launchBrowserContext } from "../support/chromium.js";

const screenshots = join(root, "build", "screenshots");
const laptop = { width: 1280, height: 900 };
const phone = { width: 390, height: 844 };
const viewports = [laptop, phone];
/** Under this, a text column is narrow: a title of four words wraps onto three lines (Redoc's was 290 px at 1280). */
const narrowColumn = 440;

/** The first operation of a page whose samples are one per example, and their names as the docs give them. */
function operationWithExamples(api: keyof typeof bundles): { route: string; labels: string[] } {
  const docs = withCodeSamples(structuredClone(bundles[api]));
  const found = operationsOf(docs).find(({ operation }: { operation: { "x-codeSamples": { label: string }[] } }) =>
    operation["x-codeSamples"].some(({ label }) => label.includes(" · ")),
  );
  if (!found) throw new Error(`${api}: no operation has a sample per example`);
  // Redoc adds the request's JSON as a last sample, "Payload", where there is a body (redocly.yaml's languages).
  const payload = found.operation.requestBody ? ["Payload"] : [];
  return { route: redocRoute(found), labels: [...found.operation["x-codeSamples"].map(({ label }: { label: string }) => label), ...payload] };
}

let docs: Awaited<ReturnType<typeof startDocsServer>>;
let browser: BrowserContext;
let page: Page;

beforeAll(async () => {
  mkdirSync(screenshots, { recursive: true });
  docs = await startDocsServer({ dir: join(root, "build", "docs"), port: 0 });
  browser = await launchBrowserContext({ viewport: laptop });
  page = await browser.newPage();
}, 60_000);

afterAll(async () => {
  try {
    await browser?.close();
  } finally {
    await docs?.close();
  }
});

/** Every heading Redoc rendered (all operations are in the page) whose text runs past its box. */
function cutHeadings(): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>("#redoc h1, #redoc h2, #redoc h3, #redoc h4, #redoc h5")]
      .filter((heading) => heading.offsetWidth > 0 && heading.scrollWidth > heading.clientWidth + 1)
      .map((heading) => `${heading.tagName} "${heading.textContent?.trim()}": ${heading.scrollWidth} px in ${heading.clientWidth}`),
  );
}

/** The words of the page's titles (Redoc's H1 and its operations' H2) that break across two lines. */
function brokenTitleWords(): Promise<string[]> {
  return page.evaluate(() => {
    const broken: string[] = [];
    for (const title of document.querySelectorAll<HTMLElement>('[data-component-name="Typography/H1"], [data-component-name="Typography/H2"]')) {
      if (title.offsetWidth === 0) continue;
      const walker = document.createTreeWalker(title, NodeFilter.SHOW_TEXT);
      for (let text = walker.nextNode(); text; text = walker.nextNode()) {
        for (const word of (text.textContent ?? "").matchAll(/\S+/g)) {
          const range = document.createRange();
          range.setStart(text, word.index);
          range.setEnd(text, word.index + word[0].length);
          const lines = new Set([...range.getClientRects()].filter((rect) => rect.width > 0).map((rect) => Math.round(rect.top)));
          if (lines.size > 1) broken.push(`"${word[0]}" in "${title.textContent?.trim()}"`);
        }
      }
    }
    return broken;
  });
}

/**
 * Each code block on show, its buttons against its first line: the line must lie wholly below them. How many
 * blocks were measured too, so a change of Redoc's markup that leaves nothing to measure fails, not passes.
 */
function codeUnderButtons(): Promise<{ measured: number; covered: string[] }> {
  return page.evaluate(() => {
    const covered: string[] = [];
    let measured = 0;
    for (const block of document.querySelectorAll('[data-component-name="CodeBlock/CodeBlock"]')) {
      const controls = block.querySelector('[data-component-name="CodeBlock/CodeBlockControls"]')?.getBoundingClientRect();
      const line = block.querySelector('[data-component-name="CodeBlock/CodeBlockContainer"] [data-line]')?.getBoundingClientRect();
      if (!controls || !line || controls.height === 0 || line.height === 0) continue;
      measured++;
      if (line.top < controls.bottom - 1) covered.push(`${block.textContent?.trim().slice(0, 40)}…: line at ${line.top}, buttons down to ${controls.bottom}`);
    }
    return { measured, covered };
  });
}

describe.each(["management", "alerts"] as const)("%s.html", (api) => {
  const operation = operationWithExamples(api);

  it.each(viewports)(
    "reads whole at $width px",
    async (viewport) => {
      // Soft checks: one run reports every fault of the layout, not only the first.
      await page.setViewportSize(viewport);
      await page.goto(new URL(`${api}.html`, docs.url).href, { waitUntil: "networkidle" });
      const title = page.locator('[data-component-name="Typography/H1"]').first();
      await title.waitFor();

      // The title has the text column to itself, and that column is not narrow.
      const widths = await page.evaluate(() => {
        const heading = document.querySelector<HTMLElement>('[data-component-name="Typography/H1"]')!;
        const text = document.querySelector<HTMLElement>('[data-component-name="Markdown/Markdown"]')!;
        return { title: heading.clientWidth, column: text.clientWidth };
      });
      expect.soft(widths.title, `the title's width against the text under it at ${viewport.width} px`).toBeGreaterThanOrEqual(widths.column - 1);
      if (viewport.width >= 1280) expect.soft(widths.column, "the text column at 1280 px").toBeGreaterThanOrEqual(narrowColumn);
      expect.soft(await cutHeadings()).toEqual([]);
      expect.soft(await brokenTitleWords()).toEqual([]);

      // The Servers panel shows its descriptions as words: Redoc renders no Markdown there, so none may be in them.
      const servers = page.locator('[data-component-name="Panel/Panel"]', {
        has: page.locator('[data-component-name="Panel/PanelHeader"]', { hasText: /^Servers$/ }),
      });
      await servers.getByRole("button", { name: /Show \d+ variables?/ }).click();
      const serversText = await servers.innerText();
      expect.soft(serversText).toContain("“npx ingestion-api sandbox”");
      expect.soft(serversText).not.toMatch(/`|\*\*|\]\(/);
      await page.screenshot({ path: join(screenshots, `reference-${api}-${viewport.width}-top.png`) });

      // The operation whose samples are one per example: its picker names the sample it shows, whole.
      await page.goto(new URL(`${api}.html${operation.route}`, docs.url).href, { waitUntil: "networkidle" });
      // Redoc gives the operation's section its route for an id, without the "#/".
      const section = page.locator(`[id="${operation.route.slice(2)}"]`);
      const [shown] = operation.labels as [string];
      const picker = section.locator('[data-component-name="Panel/PanelHeader"] > [data-component-name="Dropdown/Dropdown"] > button[aria-haspopup]', {
        hasText: shown,
      });
      await picker.scrollIntoViewIfNeeded();
      expect((await picker.innerText()).trim()).toBe(shown);
      expect
        .soft(await picker.evaluate((button) => button.scrollWidth <= button.clientWidth + 1 && button.getBoundingClientRect().right <= innerWidth))
        .toBe(true);
      const code = await codeUnderButtons();
      expect.soft(code.measured, "code blocks with buttons on show").toBeGreaterThan(0);
      expect.soft(code.covered).toEqual([]);

      // Its list: every sample's whole name, each within its box, and the list on screen.
      await picker.click();
      const menu = page.locator('[data-component-name="Dropdown/DropdownMenu"]:visible');
      await menu.waitFor();
      const items = await menu.evaluate((list) => {
        const box = list.getBoundingClientRect();
        return {
          onScreen: box.left >= 0 && box.right <= innerWidth,
          names: [...list.querySelectorAll<HTMLElement>('[data-component-name="Dropdown/DropdownMenuItem"]')].map((item) => {
            const name = item.querySelector<HTMLElement>("span[title]") ?? item;
            return { text: item.innerText.trim(), whole: name.scrollWidth <= name.clientWidth + 1 && item.scrollWidth <= item.clientWidth + 1 };
          }),
        };
      });
      expect.soft(items.onScreen, "the list of samples within the screen").toBe(true);
      expect.soft(items.names).toEqual(operation.labels.map((text) => ({ text, whole: true })));
      await page.screenshot({ path: join(screenshots, `reference-${api}-${viewport.width}-samples.png`) });
      await page.keyboard.press("Escape");
    },
    60_000,
  );
});
