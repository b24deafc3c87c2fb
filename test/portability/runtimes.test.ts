// The built package works the same on every supported Node major, imported (ESM) and required (CJS).
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { nodeRuntime, supportedMajors } from "../../scripts/node-runtime.mjs";
import { root } from "../../scripts/toolchain.mjs";
import { smokeOperations } from "./smoke-operations.mjs";

const runtimes: Record<string, string> = {};

beforeAll(() => {
  expect(existsSync(`${root}/dist/index.js`), "run `npm run build` first: the smoke test loads the built package").toBe(true);
  for (const major of supportedMajors) runtimes[major] = nodeRuntime(major);
}, 180_000);

describe.each(supportedMajors)("Node %i", (major) => {
  it.each(["smoke.mjs", "smoke.cjs"])("runs every operation through %s", (script) => {
    const run = spawnSync(runtimes[major] ?? "", [`test/portability/${script}`, inject("managementUrl"), inject("alertsUrl")], {
      cwd: root,
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(run.status, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout);
    expect(report.node).toMatch(new RegExp(`^v${major}\\.`));
    expect(report.ok).toEqual(smokeOperations);
  });
});
