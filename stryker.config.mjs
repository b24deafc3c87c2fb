// Stryker's configuration for `npm run test:mutation` (scripts/test-mutation.mjs runs it under Node 24, naming the
// target in MUTATION_TARGET and, for a run over one file, its report folder in MUTATION_REPORTS).
// Each target: the files it mutates, the suites that run their code in the test process, and the score below which
// the run fails (issue 30's targets). Left out: suites that reach the code only through dist/ or a child process
// (they kill nothing), and those that start Prism for their own file (sdk-through-prism, vectors, differential-fuzz),
// which would pay that start-up again for every mutant they cover.

/** @type {Record<string, { mutate: string[]; testFiles: string[]; breakBelow: number }>} */
export const targets = {
  core: {
    mutate: [
      ...[
        "transport",
        "routes",
        "raw-client",
        "call-policy",
        "send-call",
        "attempt",
        "attempt-log",
        "read-body",
        "abortable",
        "credential-queue",
        "rate-limit",
        "memory-store",
        "sends-in-flight",
        "retry-policy",
        "errors",
        "headers",
        "hooks",
        "client-options",
        "validation",
        "api-promise",
        "sha256",
        "resources/pipes",
      ].map((name) => `src/client/${name}.ts`),
      ...["fail-open", "redis-commands", "redis-scripts"].map((name) => `src/shared-store/${name}.ts`),
    ],
    testFiles: ["test/sdk/*.test.ts", "test/sandbox/in-process.test.ts", "test/sandbox/failures.test.ts", "test/hardening/security.test.ts"],
    breakBelow: 90,
  },
  engine: {
    mutate: ["engine", "answers", "control", "faults", "prefer", "rate-limit", "operations"].map((name) => `src/sandbox/${name}.ts`),
    testFiles: [
      "test/sandbox/in-process.test.ts",
      "test/sandbox/failures.test.ts",
      "test/sandbox/rate-limit.test.ts",
      "test/sandbox/own-answers.test.ts",
      "test/sandbox/prefer.test.ts",
      "test/sandbox/fault-rules.test.ts",
      "test/sandbox/limiter.test.ts",
      "test/sandbox/engine.test.ts",
      "test/sandbox/operations.test.ts",
      // The own routes' paging, refusals and 415 (control.ts).
      "test/sandbox/hardening.test.ts",
    ],
    breakBelow: 85,
  },
  // Issue 32's code-sample generators, which the references and the playground run: what they write (sample-layout,
  // code-samples), and that it runs (typescript-samples, and language-samples, which runs each Python and Go one).
  samples: {
    mutate: [
      "src/samples/http-samples.js",
      "src/samples/typescript-sample.js",
      "src/samples/sample-environment.js",
      "src/samples/sdk-calls.js",
      "src/playground/address.js",
    ],
    testFiles: [
      "test/docs/sample-layout.test.ts",
      "test/docs/code-samples.test.ts",
      "test/docs/typescript-samples.test.ts",
      "test/docs/language-samples.test.ts",
      "test/contract/examples.test.ts",
    ],
    breakBelow: 85,
  },
};

const name = process.env.MUTATION_TARGET ?? "core";
const target = targets[name];
if (!target) throw new Error(`MUTATION_TARGET=${name}: not one of ${Object.keys(targets).join(", ")}`);
const reports = process.env.MUTATION_REPORTS ?? `reports/mutation/${name}`;

/** @type {import("@stryker-mutator/api/core").PartialStrykerOptions} */
export default {
  testRunner: "vitest",
  // The target's tests are the include of this vitest config, not Stryker's testFiles (see the file).
  vitest: { configFile: "vitest.mutation.config.ts" },
  mutate: target.mutate,
  // Each mutant runs only the tests that reached it in the first run.
  coverageAnalysis: "perTest",
  // The tests mostly wait on timers and sockets, so 8 runners on 2 cores is about 3x faster than 2 (TOOLCHAIN.md).
  concurrency: 8,
  // The first run times the tests alone; 8 runners on 2 cores run them up to 4 times slower, which is not a hang.
  timeoutFactor: 4,
  // Reuse the last run's results for mutants and tests that did not change; the file is a local cache (gitignored).
  incremental: true,
  incrementalFile: `${reports}/stryker-incremental.json`,
  reporters: ["clear-text", "progress", "json", "html"],
  jsonReporter: { fileName: `${reports}/mutation.json` },
  htmlReporter: { fileName: `${reports}/mutation.html` },
  // The survivors are listed by scripts/mutation-report.mjs from the JSON report, not printed by the hundred.
  clearTextReporter: { allowColor: false, reportTests: false, reportMutants: false },
  thresholds: { high: target.breakBelow, low: target.breakBelow - 10, break: target.breakBelow },
  // The sandbox copy needs the sources, tests, generated files and dist/ (a few suites spawn dist/cli.js), not build/.
  ignorePatterns: ["build", "bench", "reports"],
  tempDirName: ".stryker-tmp",
};
