// The CI time-budget check (scripts/check-time-budget.mjs) against tiny budgets: it fails a step that spends more
// CPU, or waits longer, than its budget allows, passes one within both with its figures, and keeps a failing step's
// code.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { root } from "../../scripts/lib/toolchain.mjs";

const dir = mkdtempSync(join(tmpdir(), "ingestion-api-budgets-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const budgets = join(dir, "time-budgets.json");
writeFileSync(budgets, JSON.stringify({ step: { measuredCpuSeconds: 0.2, cpuBudgetSeconds: 0.4, measuredWallSeconds: 1, wallCapSeconds: 2 } }));

function check(script: string) {
  const run = spawnSync(process.execPath, ["scripts/check-time-budget.mjs", "step", "--", process.execPath, "-e", script], {
    cwd: root,
    encoding: "utf8",
    env: { ...process.env, TIME_BUDGETS_FILE: budgets },
  });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

it("fails a step that spends more CPU than its budget, naming the CPU time", () => {
  const { status, stderr } = check("const end = Date.now() + 1200; while (Date.now() < end);");
  expect(status).toBe(1);
  expect(stderr).toMatch(/took \d+(\.\d)? s of CPU \(budget 0\.4 s/);
});

it("fails a step that waits past its wall-clock cap, though it spends no CPU", () => {
  const { status, stderr } = check("setTimeout(() => {}, 2500);");
  expect(status).toBe(1);
  expect(stderr).toMatch(/s of wall time \(cap 2 s/);
  expect(stderr).not.toContain("of CPU");
});

it("passes a step within both, printing what it took, to re-measure the budgets by", () => {
  const { status, stdout, stderr } = check("");
  expect({ status, stderr }).toEqual({ status: 0, stderr: "" });
  expect(stdout).toMatch(/^check-time-budget: step took \d+(\.\d)? s of CPU \(budget 0\.4 s\) and \d+(\.\d)? s of wall time \(cap 2 s\)\n$/);
});

it("exits with the code of a step that failed, whatever its time", () => {
  expect(check("process.exit(3)").status).toBe(3);
});
