// `npm test`: build what is missing or stale, type-check, run vitest once, then print the `N passed, N failed`
// line CI reads.
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { buildWhatIsStale } from "./lib/build-steps.mjs";
import { runInForeground } from "./lib/foreground-child.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const resultsFile = join(root, "build/test-results.json");

/** Runs a Node script from the repo root in the foreground; resolves to a shell-style exit code. */
function run(script, args) {
  return runInForeground(process.execPath, [join(root, script), ...args], { cwd: root });
}

function readCounts() {
  try {
    const results = JSON.parse(readFileSync(resultsFile, "utf8"));
    return {
      passed: results.numPassedTests,
      failed: results.numFailedTests,
      skipped: results.numPendingTests + results.numTodoTests,
    };
  } catch {
    return undefined;
  }
}

function report(passed, failed, skipped) {
  console.log(`${passed} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped` : ""}`);
}

// Some suites load dist/ or build/docs, as users do; the generated code must match the specs being tested.
try {
  buildWhatIsStale("npm test");
} catch (error) {
  console.error(error.message);
  report(0, 1, 0);
  process.exit(1);
}

const tscCode = await run("node_modules/typescript/bin/tsc", ["--noEmit", "-p", "tsconfig.json"]);
if (tscCode !== 0) {
  report(0, 1, 0);
  process.exit(1);
}

// A stale file from an earlier run must not be mistaken for this run's results.
rmSync(resultsFile, { force: true });
const vitestCode = await run("node_modules/vitest/vitest.mjs", [
  "run",
  "--reporter=default",
  "--reporter=json",
  "--outputFile.json=build/test-results.json",
  ...process.argv.slice(2),
]);

const counts = readCounts();
if (counts === undefined) {
  report(0, 1, 0);
  process.exit(vitestCode || 1);
}
// A run that failed outside any test (an import error, a failing globalSetup) still counts as a failure.
const failed = vitestCode !== 0 && counts.failed === 0 ? 1 : counts.failed;
report(counts.passed, failed, counts.skipped);
process.exit(vitestCode);
