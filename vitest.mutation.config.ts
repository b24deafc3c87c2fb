// Vitest under Stryker (stryker.config.mjs): the project's configuration, running only the suites of the target named
// in MUTATION_TARGET. They are chosen here, not with Stryker's `testFiles`: with that option Stryker 10.1.1 activates a
// mutant in code that runs at module load only after the module has loaded, so each such mutant survives unseen
// (stryker-js issue 6144).
import { defineConfig } from "vitest/config";
import { targets } from "./stryker.config.mjs";
import project, { childReaper, prismServers } from "./vitest.config.js";

const name = process.env.MUTATION_TARGET ?? "core";
const target = targets[name];
if (!target) throw new Error(`MUTATION_TARGET=${name}: not one of ${Object.keys(targets).join(", ")}`);

// One project of the target's files, with what any of them may need: the Prism mocks, and the reaper of their processes.
export default defineConfig({
  ...project,
  test: { include: target.testFiles, globalSetup: [prismServers], setupFiles: [childReaper], testTimeout: 20_000 },
});
