// Headless Chromium for the browser tests, driven by playwright-core; never a browser downloaded at run time.
// By default the Chromium inside the npm package @sparticuz/chromium (installed by `npm ci`, pinned by the
// lockfile), so `npm ci && npm test` needs nothing from the system; CHROMIUM_PATH names another one
// (Debian's is /usr/bin/chromium).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import packagedChromium from "@sparticuz/chromium";
import { type BrowserContext, type BrowserContextOptions, chromium } from "playwright-core";

// Chromium's own background traffic would try outside hosts; these flags keep it quiet (TOOLCHAIN.md).
const quiet = ["--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-gpu"];
// The packaged build's defaults turn off the same-origin policy; the portability test checks CORS, so it stays on.
const weakensWebSecurity = new Set(["--disable-web-security", "--allow-running-insecure-content"]);

async function executableAndArgs(): Promise<{ executablePath: string; args: string[] }> {
  const chosen = process.env.CHROMIUM_PATH;
  if (chosen) return { executablePath: chosen, args: ["--no-sandbox", ...quiet] };
  const args = packagedChromium.args.filter((arg) => !weakensWebSecurity.has(arg));
  return { executablePath: await packagedChromium.executablePath(), args: [...args, ...quiet] };
}

/**
 * A fresh browser with exactly one context (the packaged Chromium runs single-process, where a second
 * context closes the browser). Closing the context closes the browser and removes its profile.
 */
export async function launchBrowserContext(options: BrowserContextOptions = {}): Promise<BrowserContext> {
  const { executablePath, args } = await executableAndArgs();
  const profile = mkdtempSync(join(tmpdir(), "ingestion-api-chromium-"));
  const context = await chromium.launchPersistentContext(profile, { ...options, executablePath, args, headless: true });
  // Chromium may still be writing its cache as it exits: retry a little, and never fail a test over it.
  context.on("close", () => {
    try {
      rmSync(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
    } catch {}
  });
  return context;
}
