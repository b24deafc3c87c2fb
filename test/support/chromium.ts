// Debian's Chromium, driven by playwright-core: never a downloaded browser.
import { existsSync } from "node:fs";
import { type Browser, chromium } from "playwright-core";

const executablePath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
// Chromium's own background traffic would try outside hosts; these flags keep it quiet (TOOLCHAIN.md).
const args = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"];

export function launchChromium(): Promise<Browser> {
  if (!existsSync(executablePath)) throw new Error(`no Chromium at ${executablePath}: apt-get install chromium, or set CHROMIUM_PATH`);
  return chromium.launch({ executablePath, args });
}
