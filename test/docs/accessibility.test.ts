// Every page of the docs with axe-core 4.14 (WCAG 2.x A and AA rules, and best practices) in Chromium, in the
// states a reader meets: the landing page; each reference as it opens and with each tag opened; the playground
// ready, after a Send, and with an operation that takes a body. No critical or serious violation anywhere; the
// moderate ones left are printed. The docs' own fixes over Redoc (scripts/lib/reference-styles.mjs) are each held
// here too, so a change in Redoc's markup that leaves one without effect fails loudly, not silently.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { root } from "../../scripts/lib/toolchain.mjs";
import { startDocsServer } from "../../src/docs/server.js";
import { launchBrowserContext } from "../support/chromium.js";

const axeSource = readFileSync(join(root, "node_modules", "axe-core", "axe.min.js"), "utf8");
const rules = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"];

interface Violation {
  id: string;
  impact: string;
  help: string;
  nodes: string[];
}

let docs: Awaited<ReturnType<typeof startDocsServer>>;
let browser: BrowserContext;
let page: Page;
/** The moderate and minor violations left, by page state, printed once at the end. */
const left: string[] = [];
/** The rules with a moderate or minor violation left anywhere. */
const leftRules = new Set<string>();

/**
 * Each violation known to be left (none serious), why it is left, and the words the landing page's "Accessibility"
 * section says it in. One not listed here fails its page state; one listed and no longer found fails the last test,
 * so neither this list nor the landing page can go stale.
 */
const knownLeft: Record<string, { why: string; landingPage: string }> = {};
/** What the landing page says when nothing is left. */
const nothingLeft = "no violation of any impact is left";

beforeAll(async () => {
  docs = await startDocsServer({ dir: join(root, "build", "docs"), port: 0 });
  browser = await launchBrowserContext({ viewport: { width: 1280, height: 900 } });
  page = await browser.newPage();
}, 120_000);

afterAll(async () => {
  if (left.length > 0) {
    const whys = [...leftRules].map((id) => `  ${id}: ${knownLeft[id]?.why}`);
    console.log(`accessibility: moderate or minor violations left (no serious one):\n${left.join("\n")}\nwhy:\n${whys.join("\n")}`);
  }
  try {
    await browser?.close();
  } finally {
    await docs?.close();
  }
});

/** axe's violations on the page as it stands. axe runs through the debugging protocol: the playground's policy allows no inline script. */
async function violations(): Promise<Violation[]> {
  await page.evaluate(axeSource);
  return page.evaluate(async (values) => {
    const axe = (
      window as unknown as {
        axe: {
          run(context: Document, options: object): Promise<{ violations: { id: string; impact: string; help: string; nodes: { target: string[] }[] }[] }>;
        };
      }
    ).axe;
    // Only the violations are wanted: axe then skips detailing every node that passes (a Redoc page has thousands).
    const { violations: found } = await axe.run(document, { runOnly: { type: "tag", values }, resultTypes: ["violations"] });
    return found.map(({ id, impact, help, nodes }) => ({ id, impact, help, nodes: nodes.map((node) => node.target.join(" ")) }));
  }, rules);
}

/** Holds a page state to no critical or serious violation, and keeps the others to print. */
async function expectAccessible(state: string): Promise<void> {
  const found = await violations();
  const blocking = found.filter(({ impact }) => impact === "critical" || impact === "serious");
  expect(
    blocking.map(({ id, impact, nodes }) => `${impact} ${id}: ${nodes.slice(0, 3).join(", ")}`),
    state,
  ).toEqual([]);
  for (const { id, impact, help, nodes } of found) {
    left.push(`  ${state}: ${impact} ${id} (${nodes.length}): ${help}: ${nodes.slice(0, 5).join(" | ")}`);
    leftRules.add(id);
  }
  expect(
    found.filter(({ id }) => !Object.hasOwn(knownLeft, id)).map(({ id, impact, help }) => `${impact} ${id}: ${help}`),
    `${state}: left, and not listed with why in this test's knownLeft and on the landing page`,
  ).toEqual([]);
}

async function openPage(path: string): Promise<void> {
  await page.goto(new URL(path, docs.url).href, { waitUntil: "networkidle" });
}

it("the landing page", async () => {
  await openPage("index.html");
  await expectAccessible("index.html");
});

describe.each([
  ["management.html", ["Services", "Pipes", "Reverse private endpoints"]],
  ["alerts.html", ["Alerts"]],
])("%s", (path, tags) => {
  // One load of the page for all its states, each tag opened in turn as a reader opens them (a load of Redoc's 2.6 MB
  // page costs more than a check), each state a test of its own: an axe run over a reference with a tag open takes
  // 4 to 8 s on a busy machine, and one test for them all ran out of its 20 s in CI.
  it("as it opens", async () => {
    await openPage(path);
    await expectAccessible(path);
  });

  it.each(tags)("with %s opened", async (tag) => {
    await page.getByRole("link", { name: tag, exact: true }).first().click();
    await page.locator("[data-component-name='Menu/MenuItem'].menu-item-type-operation").first().waitFor();
    await expectAccessible(`${path} with ${tag} opened`);
  });

  it("keeps the docs' fixes in force", async () => {
    // The docs' fixes over Redoc's markup are in force, so none was undone silently by a change in Redoc.
    const pickers = page.locator("button[data-named-by-docs]");
    await pickers.first().waitFor({ timeout: 10_000 });
    // Redoc's sample picker, named "Example" whatever it shows: the docs' script names it by its text.
    for (const picker of await pickers.all()) {
      const [shown, name] = await picker.evaluate((button) => [button.textContent?.trim() ?? "", button.getAttribute("aria-label") ?? ""]);
      expect(shown.length).toBeGreaterThan(0);
      expect(name).toBe(`${shown} (example)`);
    }
    // The samples' collapse buttons, 20 px in Redoc.
    const toggles = page.locator('[data-component-name="Button/Button"][aria-label="collapse"]');
    expect(await toggles.count()).toBeGreaterThan(0);
    const box = await toggles.first().boundingBox();
    expect(Math.min(box?.width ?? 0, box?.height ?? 0)).toBeGreaterThanOrEqual(24);
    // A block of code that scrolls is reached by the keyboard: there is one at least, and each has tabindex 0.
    const scrolling = await page.evaluate(() =>
      [...document.querySelectorAll("pre")]
        .filter((block) => block.getClientRects().length > 0 && (block.scrollWidth > block.clientWidth || block.scrollHeight > block.clientHeight))
        .map((block) => block.getAttribute("tabindex")),
    );
    expect(scrolling.length).toBeGreaterThan(0);
    expect(scrolling.filter((tabindex) => tabindex !== "0")).toEqual([]);
    // The sidebar is a navigation landmark, and holds Redoc's menu.
    const navigation = page.getByRole("navigation", { name: "Reference" });
    expect(await navigation.count()).toBe(1);
    expect(await navigation.locator('[data-component-name="Menu/Menu"]').count()).toBeGreaterThan(0);
    // The headings on show, as a screen reader lists them, never skip a level (Redoc's go from h2 to h4).
    const skips = await page.evaluate(() => {
      let above = 0;
      const found: string[] = [];
      for (const heading of document.querySelectorAll("h1, h2, h3, h4, h5, h6")) {
        if (!heading.checkVisibility({ visibilityProperty: true }) || heading.closest("[aria-hidden=true]")) continue;
        const level = Number(heading.getAttribute("aria-level") ?? heading.tagName.slice(1));
        if (level > above + 1) found.push(`${heading.tagName} "${heading.textContent?.trim().slice(0, 40)}" after level ${above}`);
        above = level;
      }
      return found;
    });
    expect(skips).toEqual([]);
  });
});

describe("the playground", () => {
  const send = async () => {
    const before = await page.evaluate(() => Number(document.body.dataset.sends ?? 0));
    await page.getByRole("button", { name: "Send" }).click();
    await page.waitForFunction((count) => Number(document.body.dataset.sends ?? 0) > count, before, { timeout: 15_000 });
  };

  // One load of the page, its states in turn, each a test of its own (see the references above).
  it("ready", async () => {
    await openPage("playground.html");
    await page.waitForSelector("body[data-ready=true]");
    await expectAccessible("playground.html ready");
  });

  it("after a Send", async () => {
    await send();
    await expectAccessible("playground.html after a Send");
  });

  it("with an operation that takes a body, sent", async () => {
    await page.getByRole("combobox", { name: "Operation" }).selectOption("updatePipeSettings");
    await send();
    await expectAccessible("playground.html with updatePipeSettings sent");
  });
});

// Last, once every state above has run: what is left is exactly what the list and the landing page say.
it("lists every violation left with why, as the landing page's Accessibility section says it", () => {
  expect([...leftRules].sort()).toEqual(Object.keys(knownLeft).sort());
  const landing = readFileSync(join(root, "build", "docs", "index.html"), "utf8");
  const section = landing.slice(landing.indexOf("<h2>Accessibility</h2>"));
  for (const { landingPage } of Object.values(knownLeft)) expect(section).toContain(landingPage);
  expect(section.includes(nothingLeft)).toBe(Object.keys(knownLeft).length === 0);
});
