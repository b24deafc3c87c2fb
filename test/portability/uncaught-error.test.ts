// An SDK error left uncaught, as a user meets it in a consumer project that installed the package: Node, and tsx
// (where --enable-source-maps does not help), print the line that threw before the error's message, a line of dist/
// (of src/ where tsx applies the source map, as it does for `require`). The published code is readable
// (scripts/compile.mjs), so that is one line of code, not the whole minified bundle.
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { root } from "../../scripts/lib/toolchain.mjs";
import { type ConsumerProject, createConsumerProject } from "../support/consumer-project.js";
import { spawnAndCollect } from "../support/processes.js";
import { pipe } from "../support/sdk-fixtures.js";

/**
 * A settings body the contract refuses, so the call throws RequestValidationError before sending: no server needed.
 * `then` without a handler for the failure, since a call's promise keeps its failure until it is awaited or then'd.
 */
const uncaughtCall = `
const management = createManagementClient({ baseUrl: "https://api.example.com", keyId: "id", keySecret: "secret" });
management.pipes.updateSettings(${JSON.stringify(pipe)}, { streaming_max_insert_wait_ms: 1 }).then(console.log);
`;
const importing = `import { createManagementClient } from "ingestion-api";\n${uncaughtCall}`;
const requiring = `const { createManagementClient } = require("ingestion-api");\n${uncaughtCall}`;
const scripts = { "app.mjs": importing, "app.ts": importing, "app.cjs": requiring, "app.cts": requiring };

const runtimes = { node: process.execPath, tsx: join(root, "node_modules", ".bin", "tsx") };

let project: ConsumerProject;
beforeAll(() => {
  expect(existsSync(join(root, "dist", "index.js")), "run `npm test` (or `npm run compile`): the scripts run the built package").toBe(true);
  project = createConsumerProject();
  for (const [name, text] of Object.entries(scripts)) writeFileSync(join(project.dir, name), text);
});
afterAll(() => project?.remove());

it.each([
  ["node", "app.mjs"],
  ["node", "app.cjs"],
  ["tsx", "app.ts"],
  ["tsx", "app.cts"],
] as const)("under %s, %s prints at most a few lines of the package's code before RequestValidationError's message", async (runtime, script) => {
  // NODE_OPTIONS emptied: --enable-source-maps there would print src/'s line, whatever dist/ holds.
  const run = await spawnAndCollect(runtimes[runtime], [script], { cwd: project.dir, env: { ...process.env, NODE_OPTIONS: "" }, timeout: 15_000 });
  expect(run.status, run.stderr).toBe(1);
  const message = run.stderr.search(/^RequestValidationError: .*\/streaming_max_insert_wait_ms/m);
  expect(message, run.stderr).toBeGreaterThanOrEqual(0);
  expect(run.stderr).toContain("node_modules/ingestion-api/");
  const before = run.stderr.slice(0, message);
  expect(Buffer.byteLength(before), before).toBeLessThanOrEqual(1024);
  expect(before.trim().split("\n").length, before).toBeLessThanOrEqual(5);
});
