// The built package works the same on every supported Node major, imported (ESM) and required (CJS): each
// runs every example (examples/*.ts, compiled) against the mocks and prints the same lines.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { nodeRuntime, supportedMajors } from "../../scripts/lib/node-runtime.mjs";
import { root } from "../../scripts/lib/toolchain.mjs";
import { type CompiledExamples, compileExamples } from "../support/compiled-examples.js";
import { organizationId } from "../support/sdk-fixtures.js";

const runtimes: Record<number, string> = {};
let examples: CompiledExamples;
let reference: Record<string, string[]> | undefined;

beforeAll(async () => {
  expect(existsSync(`${root}/dist/index.js`), "run `npm test` (or `npm run compile`): the examples run against the built package").toBe(true);
  examples = await compileExamples();
  for (const major of supportedMajors) runtimes[major] = nodeRuntime(major);
}, 180_000);
afterAll(() => examples?.remove());

describe.each(supportedMajors)("Node %i", (major) => {
  it.each(["smoke.mjs", "smoke.cjs"])("runs every example through %s", (script) => {
    const args = [`test/portability/${script}`, inject("managementUrl"), inject("alertsUrl"), organizationId, examples.dir, ...examples.names];
    const run = spawnSync(runtimes[major] ?? "", args, { cwd: root, encoding: "utf8", timeout: 60_000 });
    expect(run.status, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout.trim().split("\n").at(-1) ?? "") as { node: string; printed: Record<string, string[]> };
    expect(report.node).toMatch(new RegExp(`^v${major}\\.`));
    expect(Object.keys(report.printed)).toEqual(examples.names);
    for (const name of examples.names) expect(report.printed[name]?.length, `examples/${name}.ts printed nothing`).toBeGreaterThan(0);
    reference ??= report.printed;
    expect(report.printed).toEqual(reference);
  });
});
