import { fileURLToPath } from "node:url";
import { defineConfig, type TestProjectInlineConfiguration } from "vitest/config";

// The tests that need no socket, child process, browser, real clock or build (they read src/ and generated/ only):
// `npm run test:unit` runs them alone, in seconds. test/support/unit-guard.ts fails any of them that opens a socket
// or starts a process.
export const unitTests = [
  "test/ci/layout.test.ts",
  "test/ci/test-projects.test.ts",
  "test/contract/examples.test.ts",
  "test/contract/links.test.ts",
  "test/contract/pipe-settings.test.ts",
  "test/docs/created-ids.test.ts",
  "test/docs/playground-panels.test.ts",
  "test/docs/readme-snippets.test.ts",
  "test/docs/sample-layout.test.ts",
  "test/sandbox/engine.test.ts",
  "test/sandbox/fault-rules.test.ts",
  "test/sandbox/limiter.test.ts",
  "test/sandbox/operations.test.ts",
  "test/sandbox/prefer.test.ts",
  "test/sdk/api-promise.test.ts",
  "test/sdk/change-settings.test.ts",
  "test/sdk/client-options.test.ts",
  "test/sdk/credential-queue.test.ts",
  "test/sdk/error-messages.test.ts",
  "test/sdk/error-names.test.ts",
  "test/sdk/fail-open-store.test.ts",
  "test/sdk/generated-validators.test.ts",
  "test/sdk/headers.test.ts",
  "test/sdk/hooks.test.ts",
  "test/sdk/rate-limit-races.test.ts",
  "test/sdk/rate-limit-store.test.ts",
  "test/sdk/redis-commands.test.ts",
  "test/sdk/request-validation.test.ts",
  "test/sdk/retry-policy.test.ts",
  "test/sdk/send-call.test.ts",
  "test/sdk/sha256.test.ts",
  "test/sdk/transport.test.ts",
  "test/sdk/validation-wording.test.ts",
  "test/traffic/check-exchange.test.ts",
  "test/types/completions.test.ts",
  "test/types/fault-rules.test.ts",
];

// The tests that call the Prism mocks test/prism-servers.ts starts once for the run (they inject() their URLs).
export const prismTests = [
  "test/contract/mock-operations.test.ts",
  "test/contract/vectors.test.ts",
  "test/docs/code-samples.test.ts",
  "test/examples.test.ts",
  "test/hardening/differential-fuzz.test.ts",
  "test/portability/browser.test.ts",
  "test/portability/deno-bun.test.ts",
  "test/portability/runtimes.test.ts",
  "test/sdk/against-mocks.test.ts",
];

// The tests that hold a real Redis to real time: fleets of processes on one rate limit, a redis-server per file so
// they run side by side. They run apart from the rest, since a machine busy with browsers and servers delays each
// process and each Redis answer differently and changes what they measure (beside the other tests, fleet calls failed
// on 429s); first, not last, so that the type check `npm test` runs beside vitest (a core for about 16 s) and Prism's
// start take the cores they leave idle, instead of the other tests' (255 s against 264 to 279 s for the run).
export const fleetTests = ["test/sdk/redis-store.test.ts", "test/sdk/redis-outage.test.ts", "test/sdk/redis-down.test.ts", "test/sdk/redis-learning.test.ts"];
// The Redis store's answers held to the memory store's, some within 30 ms on two clocks: after the fleet, before the
// rest, since beside their processes a take lands on the other side of a step boundary in one store.
export const parityTests = ["test/sdk/rate-limit-stores.test.ts"];

const allTests = "test/**/*.test.ts";
// Ends every process a test started when the test ends.
export const childReaper = "test/support/child-reaper.ts";
// Starts the Prism mock servers once for the files of a project; see the module for details.
export const prismServers = "test/prism-servers.ts";

/** A project of this configuration: its name, its files, and what it sets beyond the shared options below. */
const project = (name: string, include: string[], test: TestProjectInlineConfiguration["test"] = {}): TestProjectInlineConfiguration => ({
  extends: true,
  test: { name, include, ...test },
});

export default defineConfig({
  // The examples import the package by name, as users do; here those names are the sources themselves.
  resolve: {
    alias: [
      { find: /^ingestion-api$/, replacement: fileURLToPath(new URL("src/index.ts", import.meta.url)) },
      { find: /^ingestion-api\/sandbox$/, replacement: fileURLToPath(new URL("src/sandbox/in-process.ts", import.meta.url)) },
      { find: /^ingestion-api\/redis$/, replacement: fileURLToPath(new URL("src/redis.ts", import.meta.url)) },
    ],
  },
  test: {
    // Vitest's default on 2 cores is one file at a time (cores - 1); most files here wait on sockets, processes and
    // timers, so three at a time keep both cores busy (when each file loaded its own modules the suite took 456 s with
    // one, 290 s with two, 262 s with three). With shared modules four took 243 to 254 s against 263 s with three, but
    // starved process starts under load: Prism behind `npm start` missed its 20 s, once in five runs.
    maxWorkers: 3,
    // A worker's files share their modules instead of loading the SDK, the sandbox and their dependencies again each:
    // 17% less CPU time for `npm test` (563 s to 468 s, three at a time), 45% for the unit project (59 s to 32 s).
    // What a file leaves in a module, the next file of its worker sees: a test's client takes a rate-limit store or a
    // credential of its own (CONTRIBUTING.md), and test/support/child-reaper.ts spares esbuild's service, which all
    // files share.
    isolate: false,
    projects: [
      project("unit", unitTests, { setupFiles: ["test/support/unit-guard.ts"], testTimeout: 5_000, sequence: { groupOrder: 3 } }),
      project("prism", prismTests, { globalSetup: [prismServers], setupFiles: [childReaper], testTimeout: 20_000, sequence: { groupOrder: 3 } }),
      // Loopback servers, child processes, browsers and real time: each test bounds its own waits, and a busy
      // 2-core machine can take several times as long as an idle one.
      project("integration", [allTests], {
        exclude: [...unitTests, ...prismTests, ...fleetTests, ...parityTests],
        setupFiles: [childReaper],
        testTimeout: 20_000,
        sequence: { groupOrder: 3 },
      }),
      // All four side by side (a worker each, beyond the three above): they wait on real time, Redis and their
      // processes, and leave a core mostly idle; three workers left one file to wait for the others (4.5 s).
      project("fleet", fleetTests, { setupFiles: [childReaper], testTimeout: 60_000, maxWorkers: fleetTests.length, sequence: { groupOrder: 1 } }),
      project("parity", parityTests, { setupFiles: [childReaper], testTimeout: 60_000, sequence: { groupOrder: 2 } }),
    ],
  },
});
