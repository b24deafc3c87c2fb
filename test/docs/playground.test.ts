// The playground (build/docs/playground.html) in headless Chromium, as a reader uses it: opened as a file with every
// network request refused, and served by `ingestion-api docs` under its own Content-Security-Policy. Every
// operation and named example is sent by the SDK to the sandbox in the page. Needs build/docs and dist/ (npm run build).
import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sandboxCredentials } from "../../scripts/lib/code-samples.mjs";
import { root } from "../../scripts/lib/toolchain.mjs";
import { jsonMedia, namedExamples, operationsOf } from "../../src/contract/openapi.js";
import { exampleSeed } from "../../src/sandbox/seed.js";
import { type Api, apis, bundles, validateAgainst } from "../support/bundles.js";
import { launchBrowserContext } from "../support/chromium.js";

const docs = join(root, "build", "docs");
const screenshots = join(root, "build", "screenshots");

/** The bound of the setting the tests break, read from the bundle. */
const maximumThreads: number = (() => {
  const bound = bundles.management.components.schemas.PipeSettings.properties.engine_max_threads;
  return [bound, ...(bound.anyOf ?? bound.oneOf ?? [])].find((schema: { maximum?: number }) => schema.maximum !== undefined).maximum;
})();

/** Every operation with each request a reader can pick: its named examples, or its one example. */
const picks = apis.flatMap((api: Api) =>
  operationsOf(bundles[api]).flatMap((entry) => {
    const named = namedExamples(bundles[api], entry);
    return (named.length ? named.map(({ key }) => key) : [undefined]).map((key) => ({ api, entry, key }));
  }),
);

/** `ingestion-api docs` from this checkout (it serves build/docs), on a free port. */
async function startDocsCommand(): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [join(root, "dist", "cli.js"), "docs", "--port", "0"], { cwd: root, stdio: ["pipe", "pipe", "pipe"] });
  return new Promise((resolve, reject) => {
    let printed = "";
    const timer = setTimeout(() => reject(new Error(`no docs server after 30 s:\n${printed}`)), 30_000);
    const read = (chunk: Buffer) => {
      printed += chunk.toString();
      const url = / on (http:\/\/127\.0\.0\.1:\d+\/)/.exec(printed)?.[1];
      if (url) {
        clearTimeout(timer);
        resolve({ child, url });
      }
    };
    child.stdout.on("data", read);
    child.stderr.on("data", read);
    child.once("exit", (code) => reject(new Error(`ingestion-api docs exited with ${code}:\n${printed}`)));
  });
}

interface Opened {
  page: Page;
  /** Console errors, page errors, and every request that left the page for anything but `allowed`. */
  problems: string[];
}

const sends = (page: Page) => page.evaluate(() => Number(document.body.dataset.sends ?? 0));

/** Clicks Send and waits until the page has shown the answer. */
async function send(page: Page): Promise<void> {
  const before = await sends(page);
  await page.getByRole("button", { name: "Send" }).click();
  await page.waitForFunction((count) => Number(document.body.dataset.sends ?? 0) > count, before, { timeout: 30_000 });
}

const regionText = (page: Page, name: string) => page.getByRole("region", { name, exact: true }).innerText();
/** What a pane shows under its heading: "Request", "Response" or "Result". */
const paneText = (page: Page, name: "Request" | "Response" | "Result") => page.locator(`#${name.toLowerCase()}-view`).innerText();
const stateOf = async (page: Page) => JSON.parse(await page.locator("#state-view").innerText());
/** The body of the last answer shown in "Response" (the text after its headers). */
async function lastAnswerBody(page: Page): Promise<unknown> {
  const shown = await page.locator("#response-view pre").last().innerText();
  return JSON.parse(shown.slice(shown.indexOf("\n\n") + 2));
}
/** What the SDK returned, as "Result" shows it. */
const resultValue = async (page: Page) => JSON.parse(await page.locator("#result-view pre").last().innerText());

describe.each([
  ["opened as a file, with the network refused", "file"],
  ["served by `ingestion-api docs`", "served"],
] as const)("the playground %s", (_title, mode) => {
  let browser: BrowserContext;
  let server: { child: ChildProcess; url: string } | undefined;
  let base: string;

  beforeAll(async () => {
    mkdirSync(screenshots, { recursive: true });
    if (mode === "served") server = await startDocsCommand();
    base = mode === "served" ? (server as { url: string }).url : `${pathToFileURL(docs).href}/`;
    browser = await launchBrowserContext({ viewport: { width: 1400, height: 1000 } });
  }, 60_000);

  // Chromium can take more than the default 10 s to close on a busy 2-core machine.
  afterAll(async () => {
    server?.child.kill("SIGTERM");
    await browser?.close();
  }, 60_000);

  /** The playground at `fragment`, ready; every request but for the page's own files is refused and recorded. */
  async function open(fragment = ""): Promise<Opened> {
    const page = await browser.newPage();
    const problems: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error") problems.push(`console: ${message.text()}`);
    });
    page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
    await page.route("**/*", (route) => {
      const url = route.request().url();
      if (url.startsWith(base)) return route.continue();
      problems.push(`request to ${url}`);
      return route.abort();
    });
    await page.goto(`${base}playground.html${fragment}`);
    await page.waitForSelector("body[data-ready=true]");
    return { page, problems };
  }

  it("sends every operation with every named example, and each answers the declared 200 with a body the bundle allows", async () => {
    const { page, problems } = await open();
    for (const { api, entry, key } of picks) {
      await page.evaluate(
        (fragment) => {
          location.hash = fragment;
        },
        key ? `${entry.operationId}/${key}` : entry.operationId,
      );
      await expect.poll(() => page.getByRole("combobox", { name: "Operation" }).inputValue()).toBe(entry.operationId);
      if (key) expect(await page.getByRole("combobox", { name: "Example" }).inputValue()).toBe(key);
      const example = namedExamples(bundles[api], entry).find((candidate) => candidate.key === key);
      if (example?.request.body !== undefined) expect(JSON.parse(await page.getByRole("textbox", { name: "Body" }).innerText())).toEqual(example.request.body);
      await send(page);
      expect(await regionText(page, "Response"), `${entry.operationId} ${key ?? ""}`).toMatch(/attempt 1: 200\b/);
      const schema = jsonMedia(bundles[api], entry.operation.responses["200"]).schema;
      const checked = validateAgainst(api, schema, await lastAnswerBody(page));
      expect(checked.errors, `${entry.operationId} ${key ?? ""}`).toBe("No errors");
      expect(await regionText(page, "Result")).toContain("the SDK returned");
    }
    expect(problems).toEqual([]);
    await page.close();
  }, 120_000);

  it("opens what its address names: #<operationId> with its first example, #<operationId>/<key> with that one", async () => {
    for (const [fragment, operationId, example] of [
      ["#updatePipeSettings", "updatePipeSettings", "Tune"],
      ["#updatePipeSettings/Reset", "updatePipeSettings", "Reset"],
      ["#createAlert/SearchAlert", "createAlert", "SearchAlert"],
      ["#listServices/tagPresent", "listServices", "tagPresent"],
    ] as const) {
      const { page } = await open(fragment);
      expect(await page.getByRole("combobox", { name: "Operation" }).inputValue()).toBe(operationId);
      expect(await page.getByRole("combobox", { name: "Example" }).inputValue()).toBe(example);
      if (operationId === "listServices") expect(await page.getByRole("textbox", { name: "filter" }).inputValue()).toBe("tag:isActive");
      await page.close();
    }
  }, 60_000);

  it("creates an alert and reads the same alert back by its id", async () => {
    const { page, problems } = await open("#createAlert/TileAlert");
    await send(page);
    const created = (await resultValue(page)) as { id: string };
    expect(created.id).toMatch(/^[0-9a-f]{24}$/);
    if (mode === "file") await page.screenshot({ path: join(screenshots, "playground-created-alert.png"), fullPage: true });
    await page.getByRole("combobox", { name: "Operation" }).selectOption("getAlert");
    await page.getByRole("textbox", { name: "id", exact: true }).fill(created.id);
    await send(page);
    expect(await regionText(page, "Response")).toMatch(/attempt 1: 200\b/);
    expect(await resultValue(page)).toEqual(created);
    expect((await stateOf(page)).alerts.map((alert: { id: string }) => alert.id)).toContain(created.id);
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);

  it("names engine_max_threads: 65 and its bound in the editor and on Send, sends nothing and changes no state", async () => {
    const { page, problems } = await open("#updatePipeSettings/Tune");
    const before = await stateOf(page);
    const body = page.getByRole("textbox", { name: "Body" });
    await body.fill(JSON.stringify({ engine_max_threads: 65 }, null, 2));
    await expect.poll(() => page.locator("#body-issues").innerText()).toContain(`engine_max_threads must be <= ${maximumThreads}`);
    expect(await body.getAttribute("aria-invalid")).toBe("true");
    await send(page);
    const result = await regionText(page, "Result");
    expect(result).toContain("RequestValidationError");
    expect(result).toContain("engine_max_threads");
    expect(await regionText(page, "Request")).toContain("nothing was sent");
    expect(await stateOf(page)).toEqual(before);
    if (mode === "file") await page.screenshot({ path: join(screenshots, "playground-refused-setting.png"), fullPage: true });
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);

  it("completes field names and enum values from the request schema in the body editor", async () => {
    const { page, problems } = await open("#updatePipeSettings/Reset");
    const body = page.getByRole("textbox", { name: "Body" });
    await body.focus();
    await page.keyboard.press("Control+End");
    await page.keyboard.press("ArrowLeft");
    await page.keyboard.type('"engine_max_t');
    const offered = page.getByRole("listbox");
    const chosen = offered.getByRole("option", { selected: true });
    await expect.poll(() => chosen.innerText()).toContain(`"engine_max_threads"integer | null, >= 0, <= ${maximumThreads}`);
    await page.waitForTimeout(150);
    await page.keyboard.press("Enter");
    await page.keyboard.type("65");
    await expect.poll(() => body.innerText()).toContain('"engine_max_threads": 65');
    await expect.poll(() => page.locator("#body-issues").innerText()).toContain(`engine_max_threads must be <= ${maximumThreads}`);

    await page.evaluate(() => {
      location.hash = "createAlert/TileAlert";
    });
    await expect.poll(() => body.innerText()).toContain('"thresholdType": "above"');
    await body.focus();
    await page.keyboard.press("Control+End");
    await page.keyboard.press("ArrowLeft");
    await page.keyboard.type(', "thresholdType": ');
    await page.keyboard.press("Control+Space");
    await expect.poll(() => offered.innerText()).toMatch(/"above"[\s\S]*"below"/);
    await page.keyboard.press("Escape");

    // Inside a string value, a comma is text: no field names are offered there.
    await body.fill('{"name": "Errors, hi"}');
    await page.keyboard.press("Escape");
    await page.keyboard.press("Control+End");
    await page.keyboard.press("ArrowLeft");
    await page.keyboard.press("ArrowLeft");
    await page.keyboard.press("Control+Space");
    await page.waitForTimeout(300);
    expect(await offered.count()).toBe(0);

    // A name completed in front of its colon keeps the one colon.
    await page.evaluate(() => {
      location.hash = "updatePipeSettings/Reset";
    });
    await body.fill('{"engine_max": 3}');
    // Filling types, which may open the completions: closed, so those Ctrl+Space opens are the ones read.
    await page.keyboard.press("Escape");
    await page.keyboard.press("Control+Home");
    for (let step = 0; step < '{"engine_max'.length; step++) await page.keyboard.press("ArrowRight");
    await page.keyboard.press("Control+Space");
    await expect.poll(() => chosen.innerText()).toContain('"engine_max_threads"');
    // CodeMirror takes no Enter for 75 ms after a list opens (its interactionDelay), so a fast typist's Enter is a line.
    await page.waitForTimeout(150);
    await page.keyboard.press("Enter");
    await expect.poll(() => body.innerText()).toBe('{"engine_max_threads": 3}');
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);

  it("writes the edited request, not the example, as TypeScript, curl, Python and Go", async () => {
    const { page, problems } = await open("#updatePipeSettings/Tune");
    await page.getByRole("textbox", { name: "Body" }).fill(JSON.stringify({ streaming_max_insert_wait_ms: 4321 }));
    await page.getByRole("textbox", { name: "pipeId" }).fill("00000000-0000-4000-8000-000000000001");
    const language = page.getByRole("combobox", { name: "Language" });
    expect(await language.locator("option").allInnerTexts()).toEqual(["TypeScript", "curl", "Python", "Go"]);
    for (const [name, call] of [
      ["TypeScript", "management.pipes.updateSettings("],
      ["curl", "curl "],
      ["Python", "urllib.request.Request("],
      ["Go", "http.NewRequest("],
    ]) {
      await language.selectOption(name as string);
      const code = await page.locator("#code-text").innerText();
      expect(code, name).toContain(call);
      expect(code, name).toContain("4321");
      expect(code, name).toContain("00000000-0000-4000-8000-000000000001");
      expect(code, name).not.toContain("engine_max_insert_threads");
    }
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);

  it("shows the SDK's retries of a declared 503 on a GET, and the error class it ends with", async () => {
    const { page, problems } = await open("#getPipe");
    await page.getByRole("combobox", { name: "Answer" }).selectOption("503");
    await send(page);
    const response = await regionText(page, "Response");
    // maxRetries is 2 by default: three attempts, the first two followed by a retry.
    expect(response.match(/attempt \d: 503\b[^\n]*/g)).toEqual([
      expect.stringContaining("the SDK will send it again"),
      expect.stringContaining("the SDK will send it again"),
      expect.not.stringContaining("again"),
    ]);
    const request = await regionText(page, "Request");
    expect(request).toContain("prefer: code=503");
    // The credential is masked: its scheme shows, its secret does not.
    expect(request).toContain("authorization: Basic ••••••••");
    expect(request).not.toContain(btoa(`${sandboxCredentials.keyId}:${sandboxCredentials.keySecret}`));
    expect(await regionText(page, "Result")).toContain("the SDK threw InternalServerError");
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);

  it("shows a 429 as RateLimitError with its retryAfterMs, and Reset sandbox brings back the seed and clears the pause", async () => {
    const { page, problems } = await open("#getPipe");
    await page.getByRole("combobox", { name: "Sandbox rate limit" }).selectOption("strict");
    await page.getByRole("spinbutton", { name: "Calls at once" }).fill("3");
    await page.getByRole("spinbutton", { name: "maxRateLimitWaitMs" }).fill("1000");
    await send(page);
    const result = await regionText(page, "Result");
    expect(result).toContain("the SDK threw RateLimitError");
    const retryAfterMs = Number(/"retryAfterMs": (\d+)/.exec(result)?.[1]);
    expect(retryAfterMs).toBeGreaterThan(1000);
    expect(retryAfterMs).toBeLessThanOrEqual(10_000);
    expect(await regionText(page, "Response")).toMatch(/: 429\b/);
    if (mode === "file") await page.screenshot({ path: join(screenshots, "playground-rate-limited.png"), fullPage: true });
    // Calls that wait for the sandbox's limit are stopped by a reset: what they would say is of a sandbox gone.
    await page.getByRole("spinbutton", { name: "maxRateLimitWaitMs" }).fill("120000");
    await page.getByRole("spinbutton", { name: "maxRetries" }).fill("3");
    await page.getByRole("checkbox", { name: /^Pace the calls/ }).check();
    await page.getByRole("button", { name: "Send" }).click();
    await page.waitForTimeout(500);
    await page.getByRole("button", { name: "Reset sandbox" }).click();
    expect(await stateOf(page)).toEqual(JSON.parse(JSON.stringify(exampleSeed())));
    // The reader's choices stay: the sandbox's limit, the calls at once, the SDK's options.
    expect(await page.getByRole("combobox", { name: "Sandbox rate limit" }).inputValue()).toBe("strict");
    expect(await page.getByRole("spinbutton", { name: "Calls at once" }).inputValue()).toBe("3");
    expect(await page.getByRole("spinbutton", { name: "maxRateLimitWaitMs" }).inputValue()).toBe("120000");
    expect(await page.getByRole("spinbutton", { name: "maxRetries" }).inputValue()).toBe("3");
    expect(await page.getByRole("checkbox", { name: /^Pace the calls/ }).isChecked()).toBe(true);
    await page.waitForTimeout(500);
    // Said once, not in each pane.
    expect(await regionText(page, "Request")).toContain("the sandbox holds its seed again");
    expect(await paneText(page, "Response")).toBe("No answer yet.");
    expect(await paneText(page, "Result")).toBe("What the SDK returns, or the error it throws.");
    // The pause the 429 asked for went with the old sandbox: two calls, the new sandbox's limit, are answered at once.
    await page.getByRole("spinbutton", { name: "Calls at once" }).fill("2");
    const started = Date.now();
    await send(page);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(await regionText(page, "Response")).not.toMatch(/: 429\b/);
    expect((await regionText(page, "Result")).match(/the SDK returned/g)).toHaveLength(2);
    // And the new sandbox keeps the limit the reader chose: a third call within its 10 s is answered 429.
    await page.getByRole("spinbutton", { name: "Calls at once" }).fill("1");
    await page.getByRole("spinbutton", { name: "maxRateLimitWaitMs" }).fill("1000");
    await send(page);
    expect(await regionText(page, "Response")).toMatch(/: 429\b/);
    expect(await regionText(page, "Result")).toContain("the SDK threw RateLimitError");
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);

  it("shows each attempt as it goes, turns Send into Cancel, and a Cancel stops the call having sent what it shows", async () => {
    const { page, problems } = await open("#getPipeSettings");
    await page.getByRole("combobox", { name: "Answer" }).selectOption("429");
    // The code is the call as sent: the Prefer header too, said to be the sandbox's.
    expect(await page.locator("#code-text").innerText()).toContain(
      "// Prefer is for the sandbox, which answers as it asks; a real server ignores it.\nconst settings = await management.pipes.getSettings(",
    );
    expect(await page.locator("#code-text").innerText()).toContain('{ headers: { Prefer: "code=429" } },');
    await page.getByRole("button", { name: "Send" }).click();
    // The 429 asks for 10 s: the retry waits in the rate-limit queue, and the page says so while it does.
    // The pause is the 429's 10 s and up to a tenth more, so that processes sharing the credential spread out.
    await expect.poll(() => regionText(page, "Response"), { timeout: 5_000 }).toMatch(/attempt 1: 429 .* the SDK will send it again in (10|11)(\.\d)? s/);
    await expect.poll(() => regionText(page, "Request")).toMatch(/attempt 2 · waiting since \+\d+ ms: the 429's pause of (10|11)(\.\d)? s, then its turn/);
    expect(await regionText(page, "Request")).toMatch(/attempt 1 · sent at \+\d+ ms\nGET /);
    expect(await paneText(page, "Result")).toBe("running…");
    const button = page.locator("#send");
    expect(await button.innerText()).toBe("Cancel");
    if (mode === "file") {
      await page.locator("#request-title").scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(screenshots, "playground-429-back-off.png") });
    }
    const before = await sends(page);
    await button.click();
    await page.waitForFunction((count) => Number(document.body.dataset.sends ?? 0) > count, before, { timeout: 5_000 });
    expect(await paneText(page, "Result")).toBe("cancelled\n\nYou cancelled the call: the SDK sent 1 attempt (above), and sends nothing more.");
    expect(await button.innerText()).toBe("Send");
    // Nothing more goes: one answer, and the retry shown as what it became.
    await page.waitForTimeout(300);
    expect((await regionText(page, "Response")).match(/attempt \d+:/g)).toEqual(["attempt 1:"]);
    expect(await regionText(page, "Request")).toMatch(/attempt 2 · left the rate-limit queue unsent \(it waited from \+\d+ ms\)/);
    if (mode === "file") await page.screenshot({ path: join(screenshots, "playground-cancelled.png") });
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);

  it("keeps the panes of the operation picked while the last one's calls still run, and once they end (cancelled)", async () => {
    const { page, problems } = await open("#createAlert/TileAlert");
    await page.getByRole("combobox", { name: "Answer" }).selectOption("429");
    await page.getByRole("button", { name: "Send" }).click();
    await expect.poll(() => regionText(page, "Response"), { timeout: 5_000 }).toMatch(/attempt 1: 429/);
    await page.getByRole("combobox", { name: "Operation" }).selectOption("getPipe");
    // The createAlert call runs on (its retry waits 10 s); what it shows is no longer on screen.
    await page.waitForTimeout(300);
    expect(await paneText(page, "Request")).toBe("Nothing sent yet with getPipe.");
    const before = await sends(page);
    // Send is Cancel while the createAlert call runs: it ends that call, whose records stay its own.
    await page.locator("#send").click();
    await page.waitForFunction((count) => Number(document.body.dataset.sends ?? 0) > count, before, { timeout: 5_000 });
    expect(await paneText(page, "Request")).toBe("Nothing sent yet with getPipe.");
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);

  it("brings the Result into view when it comes, on a phone where it lies far below the page's top", async () => {
    const { page, problems } = await open("#getPipe");
    await page.setViewportSize({ width: 390, height: 844 });
    // The heading, and the first line of what the SDK gave under it.
    const inView = () =>
      page.evaluate(() =>
        [document.getElementById("result-title"), document.querySelector("#result-view > *")].every((shown) => {
          const box = shown?.getBoundingClientRect();
          return Boolean(box && box.top >= -1 && box.bottom <= innerHeight);
        }),
      );
    expect(await inView()).toBe(false);
    // Sent with Enter from the first field, as a reader at the top of the page may.
    const before = await sends(page);
    await page.getByRole("textbox", { name: /organizationId/ }).press("Enter");
    await page.waitForFunction((count) => Number(document.body.dataset.sends ?? 0) > count, before);
    expect(await inView()).toBe(true);
    expect(problems).toEqual([]);
    await page.close();
  });

  it("clears what belonged to the operation it leaves, and reads back by the id last created", async () => {
    const { page, problems } = await open("#createAlert/TileAlert");
    await send(page);
    const created = (await resultValue(page)) as { id: string };
    await page.getByRole("combobox", { name: "Operation" }).selectOption("getAlert");
    expect(await paneText(page, "Request")).toBe("Nothing sent yet with getAlert.");
    expect(await paneText(page, "Response")).toBe("No answer yet.");
    expect(await page.getByRole("textbox", { name: "id", exact: true }).inputValue()).toBe(created.id);
    await send(page);
    expect(await resultValue(page)).toMatchObject({ id: created.id });
    // A reset forgets it: the seed's alert again.
    await page.getByRole("button", { name: "Reset sandbox" }).click();
    expect(await page.getByRole("textbox", { name: "id", exact: true }).inputValue()).not.toBe(created.id);
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);

  it.each([
    { width: 1366, height: 768 },
    { width: 390, height: 844 },
  ])(
    "fits $width px without scrolling sideways, and does not shift as its script fills it",
    async (viewport) => {
      const page = await browser.newPage();
      await page.setViewportSize(viewport);
      await page.addInitScript(() => {
        const shifts = { total: 0 };
        (window as unknown as { shifts: typeof shifts }).shifts = shifts;
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[])
            if (!entry.hadRecentInput) shifts.total += entry.value;
        }).observe({ type: "layout-shift", buffered: true });
      });
      // The operation with the longest path, and a send: its request's URL is the longest line the page shows.
      await page.goto(`${base}playground.html#updatePipeSettings/Tune`);
      await page.waitForSelector("body[data-ready=true]");
      await send(page);
      const measured = await page.evaluate(() => ({
        width: document.documentElement.scrollWidth,
        shift: (window as unknown as { shifts: { total: number } }).shifts.total,
      }));
      expect(measured.width).toBeLessThanOrEqual(viewport.width);
      expect(measured.shift).toBeLessThan(0.05);
      await page.close();
    },
    60_000,
  );

  it("gives every control its name, reaches Send with Tab alone, and sends on Enter", async () => {
    const { page, problems } = await open("#updatePipeSettings/Tune");
    const named = async (role: "combobox" | "textbox" | "button" | "region", names: string[]) =>
      Promise.all(names.map(async (name) => [name, await page.getByRole(role, { name, exact: true }).count()]));
    const once = (names: string[]) => names.map((name) => [name, 1]);
    expect(await named("combobox", ["Operation", "Example", "Answer", "Sandbox rate limit"])).toEqual(
      once(["Operation", "Example", "Answer", "Sandbox rate limit"]),
    );
    expect(await named("textbox", ["organizationId", "serviceId", "pipeId", "Body"])).toEqual(once(["organizationId", "serviceId", "pipeId", "Body"]));
    expect(await named("button", ["Send", "Reset sandbox"])).toEqual(once(["Send", "Reset sandbox"]));
    expect(await named("region", ["Request", "Response", "Result"])).toEqual(once(["Request", "Response", "Result"]));
    await page.getByRole("combobox", { name: "Operation" }).focus();
    const reached: string[] = [];
    // Each control by its aria-label (the parameters) or its id.
    for (let step = 0; step < 30 && reached.at(-1) !== "send"; step++) {
      await page.keyboard.press("Tab");
      reached.push(await page.evaluate(() => document.activeElement?.getAttribute("aria-label") || document.activeElement?.id || ""));
    }
    expect(reached).toEqual(expect.arrayContaining(["example", "organizationId", "serviceId", "pipeId", "Body", "answer", "sandbox-limit", "send"]));
    expect(reached.at(-1)).toBe("send");
    const before = await sends(page);
    await page.keyboard.press("Enter");
    await page.waitForFunction((count) => Number(document.body.dataset.sends ?? 0) > count, before);
    expect(await regionText(page, "Response")).toMatch(/attempt 1: 200\b/);
    expect(problems).toEqual([]);
    await page.close();
  }, 60_000);

  if (mode === "file") {
    it("is interactive in at most 1.5 s from file:// (median of five loads), on at most 300 kB of gzipped script and styles", async () => {
      const loads: number[] = [];
      for (let load = 0; load < 5; load++) {
        const started = Date.now();
        const { page } = await open();
        loads.push(Date.now() - started);
        await page.close();
      }
      const median = [...loads].sort((a, b) => a - b)[2] as number;
      const gzipped = ["playground.js", "playground.css"].reduce((total, file) => total + gzipSync(readFileSync(join(docs, file))).length, 0);
      console.log(`playground: interactive in ${loads.join(", ")} ms (median ${median} ms); script and styles ${gzipped} B gzipped`);
      expect(median).toBeLessThanOrEqual(1500);
      expect(gzipped).toBeLessThanOrEqual(300 * 1024);
    }, 60_000);
  }

  if (mode === "served") {
    it("is served under a Content-Security-Policy of its own that lets it connect nowhere", async () => {
      const response = await fetch(`${base}playground.html`);
      const policy = response.headers.get("content-security-policy") ?? "";
      const directives = Object.fromEntries(policy.split(/;\s*/).map((directive) => [directive.split(" ")[0], directive]));
      expect(directives["default-src"]).toBe("default-src 'none'");
      expect(directives["script-src"]).toBe("script-src 'self'");
      expect(directives["connect-src"]).toBe("connect-src 'none'");
      expect(directives["img-src"]).toBe("img-src data:");
      expect(directives["frame-ancestors"]).toBe("frame-ancestors 'none'");
    });
  }
});
