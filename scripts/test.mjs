// `npm test`: build what is missing or stale, then type-check and run vitest once, side by side, check that no
// process the run started is still alive, and print the `N passed, N failed` line CI reads.
// `npm run test:unit` (`--unit`): the unit project alone, from the sources: no build, no type check (the editor's).
// Any other argument goes to vitest.
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { buildWhatIsStale } from "./lib/build-steps.mjs";
import { runInForeground } from "./lib/foreground-child.mjs";
import { killLeftovers, markName, newMark } from "./lib/leftover-processes.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const resultsFile = join(root, "build/test-results.json");

const unitOnly = process.argv[2] === "--unit";
const vitestArguments = unitOnly ? ["--project", "unit", ...process.argv.slice(3)] : process.argv.slice(2);
// Every process the run starts inherits the mark, so the ones left behind can be found, however deep.
const mark = newMark();

/** Runs a Node script from the repo root in the foreground; resolves to a shell-style exit code. */
function run(script, args) {
  return runInForeground(process.execPath, [join(root, script), ...args], { cwd: root, env: { ...process.env, [markName]: mark } });
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

// Some suites load dist/ or build/docs, as users do; the generated code must match the specs being tested. Unit tests
// read the generated files only.
try {
  buildWhatIsStale(unitOnly ? "npm run test:unit" : "npm test", unitOnly ? ["generate"] : undefined);
} catch (error) {
  console.error(error.message);
  report(0, 1, 0);
  process.exit(1);
}

// A stale file from an earlier run must not be mistaken for this run's results.
rmSync(resultsFile, { force: true });
// The type check takes one core for about 16 s; beside the tests, instead of before them, it no longer adds that time
// to the run.
const [tscCode, vitestCode] = await Promise.all([
  unitOnly ? 0 : run("node_modules/typescript/bin/tsc", ["--noEmit", "-p", "tsconfig.json"]),
  run("node_modules/vitest/vitest.mjs", ["run", "--reporter=default", "--reporter=json", "--outputFile.json=build/test-results.json", ...vitestArguments]),
]);
if (tscCode !== 0) console.error("npm test: the type check failed (tsc --noEmit -p tsconfig.json, above)");

const leftovers = await killLeftovers(mark);
for (const { pid, command } of leftovers) console.error(`npm test: a process of the run was still alive after it, now killed: ${pid} ${command}`);

const read = readCounts();
const counts = read ?? { passed: 0, failed: 0, skipped: 0 };
// A run that failed outside any test (an import error, a failing globalSetup, no results, the type check, a process
// left behind) still counts as a failure.
const failedOutside = read === undefined || (vitestCode !== 0 && counts.failed === 0) || tscCode !== 0 || leftovers.length > 0;
const failed = counts.failed + (failedOutside ? 1 : 0);
report(counts.passed, failed, counts.skipped);
process.exit(failed > 0 ? vitestCode || 1 : 0);
