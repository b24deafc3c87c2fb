// The landing page of the docs (scripts/lib/docs-landing.mjs), rendered from the bundles without a build: it says
// what is there, a line each with its link or command, the playground first as the way to start, and loads nothing.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { landingPage } from "../../scripts/lib/docs-landing.mjs";
import { escapeHtml } from "../../scripts/lib/html.mjs";
import { root } from "../../scripts/lib/toolchain.mjs";
import { bundles } from "../support/bundles.js";

const version = "9.8.7";
const quickstart = readFileSync(join(root, "examples", "management.ts"), "utf8");
const html: string = landingPage({ version, bundles, quickstart });
const items = [...html.matchAll(/<li>([\s\S]*?)<\/li>/g)].map((match) => match[1] as string);
const hrefs = [...html.matchAll(/href="([^"]*)"/g)].map((match) => match[1] as string).filter((href) => !href.startsWith("data:"));

it("links the playground first, as the way to start", () => {
  expect(hrefs[0]).toBe("playground.html");
  expect(items[0]).toMatch(/Playground.*start here/);
});

it("has a line for each thing there is, with its link, package path or command", () => {
  const line = (pattern: RegExp) => items.filter((item) => pattern.test(item));
  expect(line(/References/)[0]).toMatch(/href="management\.html".*href="alerts\.html"/);
  expect(line(/TypeScript, curl, Python and Go/)).toHaveLength(1);
  for (const file of ["management.json", "alerts.json", "management.yaml", "alerts.yaml"]) expect(line(/3\.1 bundles/)[0]).toContain(`href="openapi/${file}"`);
  // Not in build/docs (scripts/docs.mjs copies only the 3.1 bundles): each says where it is instead.
  expect(line(/3\.0\.3 twins/)[0]).toMatch(/not in this folder.*ingestion-api\/openapi\/management\.openapi-3\.0\.json/);
  expect(line(/Dereferenced/)[0]).toMatch(/not in this folder.*ingestion-api\/openapi\/alerts\.dereferenced\.json/);
  // In the folder (scripts/lib/downloads.mjs writes them), each beside its checksum.
  const archive = `ingestion-api-contract-${version}.tar.gz`;
  const wheel = `ingestion_api_contract-${version}-py3-none-any.whl`;
  for (const [pattern, name] of [
    [/Release archive/, archive],
    [/Python package/, wheel],
  ] as const) {
    expect(line(pattern)[0]).toContain(`<a href="downloads/${name}">${name}</a> (<a href="downloads/${name}.sha256">SHA-256</a>)`);
  }
  expect(line(/npx ingestion-api check-traffic/)).toHaveLength(1);
  expect(line(/npx ingestion-api verify/)).toHaveLength(1);
  expect(line(/npx ingestion-api sandbox<\/code>: a stateful server/)[0]).toContain("http://127.0.0.1:4012");
});

it("shows the quickstart as examples/management.ts holds it, after how to start the sandbox it runs against", () => {
  const escaped = escapeHtml(quickstart);
  expect(html).toContain(`<pre tabindex="0"><code>${escaped}</code></pre>`);
  expect(html.indexOf("npx ingestion-api sandbox</code></pre>")).toBeLessThan(html.indexOf(escaped));
});

it("loads nothing from anywhere: no script, no stylesheet link, no image, and every link stays in the folder", () => {
  expect(html).not.toMatch(/<script|<img|<iframe|rel="stylesheet"|src=|url\(/i);
  expect(hrefs.filter((href) => /^[a-z]+:|^\/\//i.test(href))).toEqual([]);
});
