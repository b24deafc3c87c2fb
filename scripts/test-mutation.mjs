// `npm run test:mutation [-- core|engine|samples] [--mutate <file>] [other Stryker options]`: Stryker (stryker.config.mjs)
// over one target, or each in turn when none is named, under the Node 24 the repository pins, since Stryker 10
// refuses Node 20. A run over named files reports to reports/mutation/<target>/<file>/ and leaves the target's own.
import { existsSync, statSync } from "node:fs";
import { basename, delimiter, dirname, join } from "node:path";
import { targets } from "../stryker.config.mjs";
import { runInForeground } from "./lib/foreground-child.mjs";
import { readMutationReport, scoresOf } from "./lib/mutation-report.mjs";
import { nodeRuntime } from "./lib/node-runtime.mjs";
import { root } from "./lib/toolchain.mjs";

const args = process.argv.slice(2);
const strykerArgs = args.filter((arg) => !(arg in targets));
const mutated = mutateOption(strykerArgs);
const named = args.filter((arg) => arg in targets);
// Files named without a target run with the tests of the target that lists them.
const chosen =
  named.length > 0
    ? named
    : mutated
      ? Object.keys(targets).filter((name) => mutated.some((file) => targets[name].mutate.includes(file)))
      : Object.keys(targets);
if (chosen.length === 0) {
  console.error(`test:mutation: ${mutated.join(", ")} is in no target's mutate list; name the target (${Object.keys(targets).join(", ")})`);
  process.exit(2);
}

const node = nodeRuntime(24);
let failed = 0;
for (const target of chosen) {
  const reports = mutated ? `reports/mutation/${target}/${mutated.map((file) => basename(file, ".ts")).join("+")}` : `reports/mutation/${target}`;
  const started = Date.now();
  const code = await run(target, reports);
  failed ||= code;
  console.log(`test:mutation: ${target}${mutated ? ` (${mutated.join(", ")})` : ""}: ${outcome(target, reports, started, code)}`);
}
process.exit(failed);

/** The files of `--mutate a,b` or `--mutate=a,b` (Stryker's own option, passed on as given), without a line range. */
function mutateOption(options) {
  const at = options.findIndex((arg) => arg === "--mutate" || arg === "-m" || arg.startsWith("--mutate="));
  if (at === -1) return undefined;
  const value = options[at].startsWith("--mutate=") ? options[at].slice("--mutate=".length) : (options[at + 1] ?? "");
  return value.split(",").map((file) => file.replace(/:[\d:-]+$/, ""));
}

/** Runs Stryker on one target under Node 24, first on PATH too so whatever the tests start gets it; resolves to its exit code. */
function run(target, reports) {
  const env = { ...process.env, MUTATION_TARGET: target, MUTATION_REPORTS: reports, PATH: `${dirname(node)}${delimiter}${process.env.PATH}` };
  const stryker = join(root, "node_modules", "@stryker-mutator", "core", "bin", "stryker.js");
  return runInForeground(node, [stryker, "run", "stryker.config.mjs", ...strykerArgs], { cwd: root, env });
}

/** One line: the score against the target's bar, the time taken and where the report is, or why there is none. */
function outcome(target, reports, started, code) {
  const minutes = `${((Date.now() - started) / 60_000).toFixed(1)} min`;
  const json = join(root, reports, "mutation.json");
  if (!existsSync(json) || statSync(json).mtimeMs < started) return `no report (Stryker exited ${code}) after ${minutes}`;
  const { total } = scoresOf(readMutationReport(json));
  const bar = targets[target].breakBelow;
  const verdict = total.score >= bar ? "meets" : "is under";
  return `${total.score.toFixed(1)}% of ${total.scored} mutants detected (${total.survived} survived, ${total.noCoverage} not covered), which ${verdict} the ${bar}% bar; ${minutes} under Node 24; ${reports}/mutation.html`;
}
