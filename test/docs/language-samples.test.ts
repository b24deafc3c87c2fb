// The Python and Go samples of the rendered docs, generated from each operation's examples, run against the sandbox
// (a real socket) through a recording proxy: each sends its operation's example request, the body being the named
// example, signs in as it says, prints the 200 answer, and on an error status prints the status and exits non-zero.
// Python runs on the system python3 (standard library only); Go builds every program in one `go build`. Locally a
// language whose toolchain is missing is skipped with a one-line reason; in CI (CI=true) that is a failure instead.
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { operationsOf } from "../../src/contract/openapi.js";
import { goSample, pythonSample } from "../../src/samples/http-samples.js";
import { sandboxCredentials } from "../../src/samples/sample-environment.js";
import { exampleSeed } from "../../src/sandbox/seed.js";
import { type Sandbox, startSandbox } from "../../src/sandbox/server.js";
import { bundles } from "../support/bundles.js";
import { authorizationOf } from "../support/credentials.js";
import { type Operation, operations } from "../support/operations.js";
import { type Collected, spawnAndCollect } from "../support/processes.js";
import { type ScriptedServer, startScriptedServer } from "../support/scripted-server.js";
import { commandThatRuns, skipOrFailInCi } from "../support/system-tools.js";

const python3 = commandThatRuns(["/usr/bin/python3", "python3"], ["--version"]);
const go = commandThatRuns(["go", "/usr/bin/go"], ["version"]);
skipOrFailInCi(python3 ? undefined : "skipping the Python samples: no python3 (apt-get install python3)");
skipOrFailInCi(go ? undefined : "skipping the Go samples: no go (apt-get install golang-go)");

const entryOf = (o: Operation) => operationsOf(bundles[o.api]).find((entry) => entry.operationId === o.operationId)!;
const defaultBase = (o: Operation) => bundles[o.api].servers[0].variables[o.api === "management" ? "base_url" : "alerts_url"].default as string;
const table = operations.map((o) => [o.operationId, o] as const);
/** The samples run with wrong credentials: one of each interface (Basic, then Bearer), one a create. */
const failing = [operations.find((o) => o.api === "management")!, operations.find((o) => o.api === "alerts" && o.requestBody)!];
/**
 * A create whose body carries text a naive literal would break (quotes, a backquote, a backslash, a newline,
 * non-ASCII): each language must send it as it is.
 */
const awkward = (() => {
  const o = operations.find((candidate) => candidate.operationId === "createAlert")!;
  return { o, body: { ...(o.example.body as object), message: `"quoted", \`raw\`, C:\\path, line\nbreak, café ✓` } };
})();

/** The environment the samples run in, with their credentials right (the sandbox's) or wrong. */
const credentialsEnv = (right: boolean) => ({
  ...process.env,
  INGESTION_API_KEY_ID: sandboxCredentials.keyId,
  INGESTION_API_KEY_SECRET: right ? sandboxCredentials.keySecret : "not-the-secret",
  INGESTION_ALERTS_TOKEN: right ? sandboxCredentials.token : "not-the-token",
});
const authorization = (o: Operation) => authorizationOf(sandboxCredentials)[o.api];

// The Go programs: one module of one program per sample, which one `go build` compiles, in parallel and while the
// Python samples run, with a cache kept across runs under the OS temp dir. Only the standard library: nothing is
// downloaded (GOPROXY=off).
const goEnv = {
  ...process.env,
  GOCACHE: join(tmpdir(), "ingestion-api-go-cache"),
  GOPATH: join(tmpdir(), "ingestion-api-go-path"),
  GOFLAGS: "",
  GOPROXY: "off",
  GO111MODULE: "on",
  GOWORK: "off",
  GOTOOLCHAIN: "local",
};
const goPrograms = [
  ...operations.flatMap((o) => (["docs", "pasteable"] as const).map((variant) => ({ o, variant, label: `go-${variant}-${o.operationId}` }))),
  ...failing.map((o) => ({ o, variant: "401" as const, label: `go-401-${o.operationId}` })),
  { o: awkward.o, variant: "awkward" as const, label: "go-awkward" },
];
let goWork = "";
let goBuilt: Promise<Collected>;

function startGoBuild() {
  goWork = mkdtempSync(join(tmpdir(), "ingestion-api-go-samples-"));
  writeFileSync(join(goWork, "go.mod"), "module samples\n\ngo 1.19\n");
  for (const { o, variant, label } of goPrograms) {
    mkdirSync(join(goWork, label));
    const source = goSample(bundles[o.api], entryOf(o), {
      baseUrl: baseOf(label),
      sandboxCredentials: variant === "pasteable",
      ...(variant === "awkward" && { body: awkward.body }),
    });
    writeFileSync(join(goWork, label, "main.go"), source);
  }
  // Without a symbol table and DWARF (-s -w): nothing here debugs the programs, and linking each costs a third less.
  goBuilt = spawnAndCollect(go!, ["build", "-ldflags=-s -w", "-o", `${join(goWork, "bin")}/`, "./..."], { cwd: goWork, env: goEnv });
}

let sandbox: Sandbox;
let proxy: ScriptedServer;
/** The sandbox's answers the proxy passed on, by the label the sample's base URL carries. */
const answers = new Map<string, { status: number; body: string }[]>();

beforeAll(async () => {
  sandbox = await startSandbox({ seed: exampleSeed(), credentials: sandboxCredentials });
  // `/<label>/v1/...` goes to the sandbox as `/v1/...`; the label says which sample sent it.
  proxy = await startScriptedServer((request, response, body) => {
    const [, label = "", rest = ""] = /^\/([^/]+)(\/.*)$/.exec(request.url ?? "") ?? [];
    const headers = Object.fromEntries(
      ["authorization", "content-type", "prefer"].flatMap((name) => (request.headers[name] ? [[name, String(request.headers[name])]] : [])),
    );
    fetch(sandbox.url + rest, { method: request.method ?? "GET", headers, body: body === "" ? null : body })
      .then(async (answer) => {
        const text = await answer.text();
        answers.set(label, [...(answers.get(label) ?? []), { status: answer.status, body: text }]);
        response.writeHead(answer.status, { "content-type": answer.headers.get("content-type") ?? "text/plain" }).end(text);
      })
      .catch((error: Error) => response.writeHead(502).end(error.message));
  });
  if (go) startGoBuild();
});
// Each sample starts from the seed: an earlier one's replacement would move the updatedAt a later read prints.
beforeEach(() => sandbox.state.reset());
afterAll(async () => {
  await goBuilt?.catch(() => undefined);
  if (goWork) rmSync(goWork, { recursive: true, force: true });
  await proxy?.close();
  await sandbox?.close();
});

/** The base URL of a sample: the proxy, with the label its requests are recorded under. */
const baseOf = (label: string) => `${proxy.url}/${label}`;

/**
 * That a sample run under `label` sent the operation's example request with the body its named example and the
 * sandbox's credentials, once, and printed the sandbox's 200 answer, whole: the operation's declared 200 answer, about
 * the example's resource (the one it read, or one made of the example body).
 */
function expectExampleExchange(o: Operation, label: string, { status, stdout, stderr }: Collected) {
  expect(status, stderr + stdout).toBe(0);
  const sent = proxy.requests.filter((request) => request.url.startsWith(`/${label}/`));
  expect(sent).toHaveLength(1);
  const [request] = sent;
  expect(request!.method).toBe(o.method);
  expect(request!.url).toBe(`/${label}${o.example.url}`);
  expect(request!.headers.authorization).toBe(authorization(o));
  if (o.requestBody) {
    expect(request!.headers["content-type"]).toBe("application/json");
    const body = JSON.parse(request!.body);
    expect(body).toEqual(o.example.body);
    expect(Object.values(o.requestExamples)).toContainEqual(body);
  } else {
    expect(request!.body).toBe("");
  }
  const [answer] = answers.get(label) ?? [];
  expect(answer?.status, answer?.body).toBe(200);
  const printed = JSON.parse(stdout);
  expect(printed).toEqual(JSON.parse(answer!.body));
  expect(o.validators.response(printed), JSON.stringify(o.validators.response.errors)).toBe(true);
  const resource = printed.result ?? printed.data;
  const example = o.exampleResponse() as { result?: unknown; data?: unknown };
  if (o.requestBody) {
    // A create or a replacement: the resource answered carries the example body's values, where it has its fields.
    const shared = Object.keys(o.example.body as object).filter((field) => field in resource);
    expect(shared.length).toBeGreaterThan(Object.keys(o.example.body as object).length / 2);
    for (const field of shared) expect(resource[field], field).toEqual((o.example.body as Record<string, unknown>)[field]);
  } else {
    expect(resource).toEqual(example.result ?? example.data);
  }
}

/** That a sample that got a 401 (wrong credentials) exited with 1, printing the status and the sandbox's answer. */
function expectFailure(label: string, { status, stdout, stderr }: Collected) {
  const [answer] = answers.get(label) ?? [];
  expect(answer?.status).toBe(401);
  expect(status, stdout).toBe(1);
  expect(stderr).toContain("HTTP 401 Unauthorized");
  expect(stderr).toContain(answer!.body);
}

/** That the awkward body arrived as it was, and the sandbox made the alert of it. */
function expectAwkwardBody(label: string, { status, stdout, stderr }: Collected) {
  expect(status, stderr + stdout).toBe(0);
  const [request] = proxy.requests.filter((candidate) => candidate.url.startsWith(`/${label}/`));
  expect(JSON.parse(request!.body)).toEqual(awkward.body);
  expect(JSON.parse(stdout).data.message).toBe(awkward.body.message);
}

describe.skipIf(!python3)("the Python samples", () => {
  const runPython = (source: string, right = true) => spawnAndCollect(python3!, ["-"], { input: source, env: credentialsEnv(right) });

  it.each(table)("%s: the docs' script sends its example request and prints the 200 answer", async (operationId, o) => {
    const label = `python-${operationId}`;
    const source = pythonSample(bundles[o.api], entryOf(o), { baseUrl: baseOf(label) });
    // What ran is what the docs show, but for the server.
    expect(source.replace(baseOf(label), defaultBase(o))).toBe(pythonSample(bundles[o.api], entryOf(o)));
    expectExampleExchange(o, label, await runPython(source));
  });

  it.each(table)("%s: the pasteable script with the sandbox's credentials does the same", async (operationId, o) => {
    const label = `python-pasteable-${operationId}`;
    const source = pythonSample(bundles[o.api], entryOf(o), { baseUrl: baseOf(label), sandboxCredentials: true });
    expect(source).not.toContain("os.environ");
    // The environment's credentials are wrong: it must not read them.
    expectExampleExchange(o, label, await runPython(source, false));
  });

  it("sends a body with quotes, a backquote, a backslash, a newline and non-ASCII text as it is", async () => {
    const source = pythonSample(bundles.alerts, entryOf(awkward.o), { baseUrl: baseOf("python-awkward"), body: awkward.body });
    expectAwkwardBody("python-awkward", await runPython(source));
  });

  it("sends the Prefer header the playground adds for a failure on purpose, and prints the declared answer it asks for", async () => {
    const o = failing[0] as Operation;
    const label = "python-prefer";
    const { status, stderr } = await runPython(pythonSample(bundles[o.api], entryOf(o), { baseUrl: baseOf(label), prefer: "code=404" }));
    const [request] = proxy.requests.filter((candidate) => candidate.url.startsWith(`/${label}/`));
    expect(request?.headers.prefer).toBe("code=404");
    expect(answers.get(label)?.map(({ status: answered }) => answered)).toEqual([404]);
    expect(status).toBe(1);
    expect(stderr).toContain("HTTP 404 Not Found");
  });

  it.each(failing.map((o) => [o.operationId, o] as const))(
    "%s with wrong credentials: prints the 401 and its body, and exits non-zero",
    async (operationId, o) => {
      const label = `python-401-${operationId}`;
      expectFailure(label, await runPython(pythonSample(bundles[o.api], entryOf(o), { baseUrl: baseOf(label) }), false));
    },
  );
});

describe.skipIf(!go)("the Go samples", () => {
  /** Runs a built program, once the build is done (failing with its output if it failed). */
  async function runGo(label: string, right = true): Promise<Collected> {
    const build = await goBuilt;
    expect(build.status, build.stderr).toBe(0);
    expect(existsSync(join(goWork, "bin", label))).toBe(true);
    return spawnAndCollect(join(goWork, "bin", label), [], { env: credentialsEnv(right) });
  }

  it("are as gofmt formats them, and go vet finds nothing in them", async () => {
    const goroot = (await spawnAndCollect(go!, ["env", "GOROOT"], { env: goEnv })).stdout.trim();
    const gofmt = await spawnAndCollect(join(goroot, "bin", "gofmt"), ["-l", "."], { cwd: goWork });
    expect(gofmt.status, gofmt.stderr).toBe(0);
    expect(gofmt.stdout, "files gofmt would change").toBe("");
    const vet = await spawnAndCollect(go!, ["vet", "./..."], { cwd: goWork, env: goEnv });
    expect(vet.status, vet.stderr).toBe(0);
  }, 120_000);

  it.each(table)(
    "%s: the docs' program sends its example request and prints the 200 answer",
    async (operationId, o) => {
      const label = `go-docs-${operationId}`;
      const source = goSample(bundles[o.api], entryOf(o), { baseUrl: baseOf(label) });
      expect(source.replace(baseOf(label), defaultBase(o))).toBe(goSample(bundles[o.api], entryOf(o)));
      expectExampleExchange(o, label, await runGo(label));
    },
    120_000,
  );

  it.each(table)(
    "%s: the pasteable program with the sandbox's credentials does the same",
    async (operationId, o) => {
      const label = `go-pasteable-${operationId}`;
      expect(goSample(bundles[o.api], entryOf(o), { sandboxCredentials: true })).not.toContain("os.Getenv");
      const result = await runGo(label, false);
      expectExampleExchange(o, label, result);
    },
    120_000,
  );

  it.each(failing.map((o) => [o.operationId] as const))(
    "%s with wrong credentials: prints the 401 and its body, and exits non-zero",
    async (operationId) => {
      const label = `go-401-${operationId}`;
      expectFailure(label, await runGo(label, false));
    },
    120_000,
  );

  it("sends a body with quotes, a backquote, a backslash, a newline and non-ASCII text as it is", async () => {
    expectAwkwardBody("go-awkward", await runGo("go-awkward"));
  }, 120_000);
});
