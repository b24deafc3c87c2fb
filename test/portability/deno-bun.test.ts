// The built package under Deno and Bun (the npm packages `deno` and `bun`, pinned devDependencies), installed in a
// consumer project and imported by name as an ES module, as a user's app does:
// - each of the seven operations against a sandbox over a real socket, checked against what the sandbox holds, with
//   a 404 of each interface as NotFoundError and a body out of contract refused before sending
//   (test/portability/every-operation.mjs makes the calls);
// - every example (examples/*.ts, configured from the environment) against the Prism mocks through smoke.mjs,
//   printing what the same examples print under this Node.
// Deno runs offline with the fewest permissions that work: no config, lock file, remote module or npm download
// (node_modules as it is), network for 127.0.0.1 only, and for the examples the SDK's environment variables and the
// compiled examples' directory; its cache goes to a temporary directory. Locally a runtime that does not run is
// skipped, saying why; in CI (CI=true) that is a failure.
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { root } from "../../scripts/lib/toolchain.mjs";
import { alerts, management } from "../../src/contract/interfaces.js";
import { exampleSeed } from "../../src/sandbox/seed.js";
import { startSandbox } from "../../src/sandbox/server.js";
import { type CompiledExamples, compileExamples } from "../support/compiled-examples.js";
import { type ConsumerProject, createConsumerProject } from "../support/consumer-project.js";
import { operation } from "../support/operations.js";
import { type Collected, spawnAndCollect } from "../support/processes.js";
import { sandboxCredentials } from "../support/sandbox.js";
import { organizationId, pipe, settingsResult, tileAlert } from "../support/sdk-fixtures.js";
import { skipOrFailInCi } from "../support/system-tools.js";

type Runtime = "deno" | "bun";

/** Each runtime's binary, as its npm package installs it, and how it runs a script of the consumer's with `allowed` permissions. */
const runtimes: Record<Runtime, { binary: string; args: (script: string, allowed?: { env: string[]; read: string[] }) => string[] }> = {
  deno: {
    binary: join(root, "node_modules", ".bin", "deno"),
    args: (script, allowed) => [
      "run",
      ...["--no-config", "--no-lock", "--no-remote", "--node-modules-dir=manual", "--no-prompt", "--allow-net=127.0.0.1"],
      ...(allowed ? [`--allow-env=${allowed.env.join(",")}`, `--allow-read=${allowed.read.join(",")}`] : []),
      script,
    ],
  },
  bun: {
    binary: join(root, "node_modules", ".bin", "bun"),
    // --no-install: never install a missing package on the fly (Bun's auto-install); node_modules is used as it is.
    args: (script) => ["--no-install", script],
  },
};

/** The version each runtime reports (`deno 2.9.6 (stable, ...)`, `1.4.4`), or undefined for one that does not run here. */
const versions = Object.fromEntries(
  Object.entries(runtimes).map(([name, { binary }]) => {
    const run = spawnSync(binary, ["--version"], { encoding: "utf8", timeout: 30_000 });
    return [name, run.status === 0 ? /(\d+\.\d+\.\d+\S*)/.exec(run.stdout)?.[1] : undefined];
  }),
) as Record<Runtime, string | undefined>;
for (const name of Object.keys(runtimes) as Runtime[])
  skipOrFailInCi(versions[name] ? undefined : `skipping the ${name} portability tests: node_modules/.bin/${name} does not run (npm ci installs it)`);

// What the calls send, from the specs' examples, and IDs no resource has.
const endpoint = Object.values(operation("createReversePrivateEndpoint").requestExamples)[0] as Record<string, unknown>;
const settings = Object.values(operation("updatePipeSettings").requestExamples)[0] as Record<string, unknown>;
const filter = operation("listServices").example.query.filter as string[];
const missingPipeId = "00000000-0000-4000-8000-000000000000";
const missingAlertId = "000000000000000000000000";

/** A consumer project with the package installed as npm installs its tarball: the shipped files, the dependencies linked. */
let project: ConsumerProject;
let consumer: string;
let examples: CompiledExamples;
/** What the examples print under this Node, from the same consumer project. */
let printedByNode: Record<string, string[]>;
beforeAll(async () => {
  expect(existsSync(join(root, "dist", "index.js")), "run `npm test` (or `npm run compile`): the runtimes run the built package").toBe(true);
  project = createConsumerProject();
  consumer = project.dir;
  for (const script of ["every-operation.mjs", "smoke.mjs", "run-examples.mjs"])
    copyFileSync(join(root, "test", "portability", script), join(consumer, script));
  examples = await compileExamples();
  const byNode = await run(process.execPath, ["smoke.mjs", ...smokeArguments()]);
  expect(byNode.status, `the examples failed under Node:\n${byNode.stderr}`).toBe(0);
  printedByNode = (JSON.parse(byNode.stdout.trim().split("\n").at(-1) ?? "") as { printed: Record<string, string[]> }).printed;
}, 60_000);
afterAll(() => {
  examples?.remove();
  project?.remove();
});

const smokeArguments = () => [inject("managementUrl"), inject("alertsUrl"), organizationId, examples.dir, ...examples.names];

/**
 * Runs a command in the consumer project without blocking this process (where the sandbox answers), with only what
 * a runtime needs from the environment: no INGESTION_* variable reaches it, and its caches stay in the project.
 */
function run(command: string, args: string[], variables: Record<string, string> = {}): Promise<Collected> {
  const env = {
    ...variables,
    PATH: process.env.PATH ?? "",
    HOME: consumer,
    XDG_CACHE_HOME: join(consumer, ".cache"),
    DENO_DIR: join(consumer, ".deno"),
    ...{ NO_COLOR: "1", DENO_NO_UPDATE_CHECK: "1", DO_NOT_TRACK: "1" },
  };
  return spawnAndCollect(command, args, { cwd: consumer, env, timeout: 30_000, killSignal: "SIGKILL" });
}

interface Report {
  runtime: string;
  results: Record<string, { value?: any; error?: Record<string, any> }>;
  sentByRefusingClients: number;
}

describe.each(Object.keys(runtimes) as Runtime[])("%s", (name) => {
  const { binary, args } = runtimes[name];

  it.skipIf(!versions[name])("runs each operation through the installed package (ESM), and maps a 404 and a refused body to the SDK's errors", async () => {
    const sandbox = await startSandbox({ seed: exampleSeed(), credentials: sandboxCredentials });
    try {
      const seed = exampleSeed();
      const input = {
        url: sandbox.url,
        credentials: sandboxCredentials,
        organizationId,
        pipe,
        filter,
        endpoint,
        settings,
        alert: tileAlert,
        missingPipeId,
        missingAlertId,
      };
      const exited = await run(binary, [...args("every-operation.mjs"), JSON.stringify(input)]);
      expect(exited.status, `${name} exited with ${exited.status}:\n${exited.stderr}`).toBe(0);
      console.log(`${name} ${versions[name]}: every operation in ${exited.elapsedMs} ms${exited.stderr ? `; on stderr:\n${exited.stderr}` : ""}`);
      const report = JSON.parse(exited.stdout.trim().split("\n").at(-1) ?? "") as Report;
      expect(report.runtime, "the calls ran in another runtime than the one started").toBe(`${name} ${versions[name]}`);

      /** A call's value; fails naming the runtime, the call and what it threw. */
      const value = (label: string) => {
        expect(report.results[label], `${name}: ${label} was not called`).toBeDefined();
        expect(report.results[label]?.error, `${name}: ${label} threw`).toBeUndefined();
        return report.results[label]?.value;
      };
      /** A call's error; fails naming the runtime and the call when it did not throw. */
      const error = (label: string) => {
        expect(report.results[label], `${name}: ${label} was not called`).toBeDefined();
        expect(report.results[label]?.value, `${name}: ${label} resolved instead of throwing`).toBeUndefined();
        return report.results[label]?.error;
      };

      // listServices: the services the docs answer the filter's own example with.
      expect(value("listServices"), `${name}: listServices`).toEqual((operation("listServices").exampleResponse() as { result: unknown }).result);

      // createReversePrivateEndpoint: what was sent, with the sandbox's own fields; the sandbox holds the same.
      const createdEndpoint = value("createReversePrivateEndpoint");
      expect(createdEndpoint, `${name}: createReversePrivateEndpoint`).toMatchObject({ ...endpoint, serviceId: pipe.serviceId, status: "Ready" });
      expect(sandbox.state.data.reversePrivateEndpoints, `${name}: createReversePrivateEndpoint, in the sandbox`).toContainEqual(createdEndpoint);

      // getPipe, with the answer's request id and status through withResponse().
      const seeded = seed.pipes.find(({ id }) => id === pipe.pipeId);
      expect(value("getPipe"), `${name}: getPipe`).toEqual({ data: seeded, requestId: expect.stringMatching(/^[0-9a-f-]{36}$/), status: 200 });

      // getPipeSettings, updatePipeSettings (a full replacement, where null means the default: left out), and the settings read back.
      expect(value("getPipeSettings"), `${name}: getPipeSettings`).toEqual(settingsResult);
      const replaced = Object.fromEntries(Object.entries(settings).filter(([, setting]) => setting !== null));
      expect(value("updatePipeSettings"), `${name}: updatePipeSettings`).toEqual(replaced);
      expect(value("getPipeSettings after updatePipeSettings"), `${name}: getPipeSettings after updatePipeSettings`).toEqual(replaced);
      const stored = sandbox.state.data.pipes.find(({ id }) => id === pipe.pipeId)?.settings;
      expect(stored, `${name}: updatePipeSettings, in the sandbox`).toEqual(replaced);

      // createAlert, then getAlert reads the same alert back; the sandbox holds it.
      const createdAlert = value("createAlert");
      const { dashboardId, ...sentAlert } = tileAlert as typeof tileAlert & { dashboardId: string };
      expect(createdAlert, `${name}: createAlert`).toMatchObject({ ...sentAlert, dashboard: dashboardId, id: expect.stringMatching(/^[0-9a-f]{24}$/) });
      expect(value("getAlert"), `${name}: getAlert`).toEqual(createdAlert);
      expect(sandbox.state.data.alerts, `${name}: createAlert, in the sandbox`).toContainEqual(createdAlert);

      // A 404 of each interface is a NotFoundError of the runtime's own copy of the classes, with the server's body.
      const notFound = ["IngestionError", "ApiError", "NotFoundError"];
      expect(error("getPipe of an unknown pipe"), `${name}: getPipe of an unknown pipe`).toMatchObject({
        name: "NotFoundError",
        status: 404,
        body: { status: 404, [management.errorKey]: "Pipe not found" },
        requestId: expect.stringMatching(/^[0-9a-f-]{36}$/),
        instanceOf: notFound,
      });
      expect(error("getAlert of an unknown alert"), `${name}: getAlert of an unknown alert`).toMatchObject({
        name: "NotFoundError",
        status: 404,
        body: { [alerts.errorKey]: "Alert not found" },
        instanceOf: notFound,
      });

      // A body out of contract is refused by the request validator, naming the field, and never sent.
      const refused = ["IngestionError", "RequestValidationError"];
      expect(error("updatePipeSettings with a value out of bounds"), `${name}: updatePipeSettings with a value out of bounds`).toMatchObject({
        name: "RequestValidationError",
        instanceOf: refused,
        issues: [{ path: "/streaming_max_insert_wait_ms", message: expect.any(String) }],
      });
      expect(error("createAlert with an unknown interval"), `${name}: createAlert with an unknown interval`).toMatchObject({
        name: "RequestValidationError",
        instanceOf: refused,
        issues: [{ path: "/interval", message: expect.any(String) }],
      });
      expect(report.sentByRefusingClients, `${name}: a refused body was sent`).toBe(0);
      expect(sandbox.state.data.reversePrivateEndpoints.length - seed.reversePrivateEndpoints.length, `${name}: endpoints added`).toBe(1);
      expect(sandbox.state.data.alerts.length - seed.alerts.length, `${name}: alerts added (the refused one must not be)`).toBe(1);
    } finally {
      await sandbox.close();
    }
  });

  it.skipIf(!versions[name])("runs every example through smoke.mjs against the mocks, printing what Node prints", async () => {
    const environment = [management, alerts].flatMap(({ environment }) => Object.values(environment));
    const exited = await run(binary, [...args("smoke.mjs", { env: environment, read: [examples.dir] }), ...smokeArguments()]);
    expect(exited.status, `${name} exited with ${exited.status}:\n${exited.stderr}`).toBe(0);
    console.log(`${name} ${versions[name]}: every example in ${exited.elapsedMs} ms`);
    const { printed } = JSON.parse(exited.stdout.trim().split("\n").at(-1) ?? "") as { printed: Record<string, string[]> };
    expect(Object.keys(printed), `${name}: the examples that ran`).toEqual(examples.names);
    for (const example of examples.names) expect(printed[example], `${name}: examples/${example}.ts`).toEqual(printedByNode[example]);
  });
});

it.skipIf(!versions.deno)("under Deno without --allow-env, a client configured from the environment says the permission is missing", async () => {
  writeFileSync(
    join(consumer, "from-environment.mjs"),
    'import { createAlertsClient } from "ingestion-api";\ntry { createAlertsClient(); } catch (error) { console.log(error.message); }\n',
  );
  const exited = await run(runtimes.deno.binary, runtimes.deno.args("from-environment.mjs"), { INGESTION_ALERTS_TOKEN: "set-but-unseen" });
  expect(exited.stdout.trim()).toBe(
    "createAlertsClient: missing token; pass { token }, or let the runtime read INGESTION_ALERTS_TOKEN (Deno: --allow-env=INGESTION_ALERTS_TOKEN)",
  );
});
