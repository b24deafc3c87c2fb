// The package as npm packs it from a checkout, and as a TypeScript user meets it once installed: `prepack`
// compiles dist/, `npm pack --json` prints only JSON, and in a consumer project `tsc --strict` passes and the
// editor (TypeScript's language service) shows the known values of an open enum, every branch of a request
// union, each method's description, and each field's description and bounds. Packed from a copy, so this suite's build never races dist/.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, posix } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { withCodeSamples } from "../../scripts/lib/code-samples.mjs";
import { root } from "../../scripts/lib/toolchain.mjs";
import { defaultBaseUrl, operationsOf } from "../../src/contract/openapi.js";
import { type ConsumerProject, createConsumerProject } from "../support/consumer-project.js";
import { openEditor } from "../support/editor.js";
import { headingAnchors, isExternal, linkTargets } from "../support/markdown-links.js";
import { spawnAndCollect } from "../support/processes.js";
import { copyProject, type ProjectCopy } from "../support/project-copy.js";
import { accepted, refused, typing } from "../support/request-unions.js";
import { sandboxBanner } from "../support/sandbox.js";
import { commandThatRuns, skipOrFailInCi } from "../support/system-tools.js";

const packageJson = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { files: string[] };

let copy: ProjectCopy;
let packed: { filename: string; files: { path: string }[] };
let stdout: string;
beforeAll(() => {
  // What prepack needs to compile, and what `files` ships; dist/ is left out, so prepack must build it.
  const shipped = packageJson.files.filter((path) => path !== "dist");
  copy = copyProject(["package.json", "tsconfig.json", "tsconfig.build.json", "redocly.yaml", "src", "generated", "scripts", ...shipped]);
  const npm = process.env.npm_execpath;
  const [command, args] = npm ? [process.execPath, [npm, "pack", "--json"]] : ["npm", ["pack", "--json"]];
  const run = spawnSync(command, [...args, "--pack-destination", copy.dir], { cwd: copy.dir, encoding: "utf8", timeout: 120_000 });
  expect(run.status, run.stderr).toBe(0);
  stdout = run.stdout;
}, 120_000);
afterAll(() => copy?.remove());

it("npm pack --json prints only JSON, and packs dist/, the bundles and the vectors without sources or tests", () => {
  packed = (JSON.parse(stdout) as (typeof packed)[])[0]!;
  const paths = packed.files.map((file) => file.path);
  expect(paths).toEqual(
    expect.arrayContaining([
      "dist/index.js",
      "dist/index.cjs",
      "dist/cli.js",
      "dist/src/index.d.ts",
      "generated/openapi/management.json",
      "contract/vectors/alerts/createAlert.json",
    ]),
  );
  expect(paths.filter((path) => /^(src|test|scripts|openapi\/(management|alerts))\//.test(path))).toEqual([]);
});

it("links from its README only to files the tarball holds and to headings they have, so no link is dead in node_modules", () => {
  const { filename, files } = (JSON.parse(stdout) as (typeof packed)[])[0]!;
  const paths = files.map((file) => file.path);
  const packedText = (path: string) => spawnSync("tar", ["-xzOf", join(copy.dir, filename), `package/${path}`], { encoding: "utf8" }).stdout;
  const relative = linkTargets(packedText("README.md")).filter((target) => !isExternal(target));
  expect(relative.length).toBeGreaterThan(0);
  const dead = relative.filter((target) => {
    const [pathPart = "", anchor] = target.split("#");
    const path = posix.normalize(decodeURIComponent(pathPart.split("?")[0] ?? ""));
    const page = pathPart === "" ? "README.md" : path;
    // A folder resolves when the tarball holds a file under it; an anchor, when the page has that heading.
    const exists = pathPart === "" || paths.includes(path) || paths.some((packedPath) => packedPath.startsWith(`${path.replace(/\/$/, "")}/`));
    return !exists || (anchor !== undefined && !headingAnchors(packedText(page)).has(anchor));
  });
  expect(dead).toEqual([]);
});

describe("in a consumer project that installed the tarball", () => {
  let project: ConsumerProject;
  let consumer: string;
  const app = `import { createAlertsClient, createManagementClient, type PipeState } from "ingestion-api";

const management = createManagementClient({ baseUrl: "https://api.example.com", keyId: "id", keySecret: "secret" });
const pipe = await management.pipes.get({ organizationId: "o", serviceId: "s", pipeId: "p" });
if (pipe.state === "Running") console.log(pipe.state);
const known: PipeState = "Degraded";
await management.pipes.updateSettings({ organizationId: "o", serviceId: "s", pipeId: "p" }, { streaming_max_insert_wait_ms: 5000 });
console.log(known);
const alert = await createAlertsClient({ baseUrl: "https://alerts.example.com", token: "t" }).get("65f1c2d3e4b5a69788796a10");
if (alert.thresholdType === "above") console.log(alert.state);
`;

  beforeAll(() => {
    packed = (JSON.parse(stdout) as (typeof packed)[])[0]!;
    project = createConsumerProject(join(copy.dir, packed.filename));
    consumer = project.dir;
    writeFileSync(
      join(consumer, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: { strict: true, module: "NodeNext", moduleResolution: "NodeNext", target: "ES2022", lib: ["ES2022", "DOM"], noEmit: true },
        files: ["app.ts"],
      }),
    );
    writeFileSync(join(consumer, "app.ts"), app);
  });
  afterAll(() => project?.remove());

  /** What an editor shows in the consumer project: the app, and the request bodies of test/support/request-unions.ts. */
  const bodies = Object.fromEntries([...refused, ...accepted].map((entry, index) => [`body-${index}.ts`, entry.text]));
  const fileOf = (entry: { text: string }) => Object.keys(bodies).find((name) => bodies[name] === entry.text)!;
  const editor = () => openEditor(consumer, { "app.ts": app, [typing.file]: typing.text, ...bodies });

  it("type-checks under tsc --strict, the declarations included", () => {
    expect(editor().errors("app.ts")).toEqual([]);
  });

  it("offers the known values of pipe.state (an open enum) in completion, and names its type and values on hover", () => {
    const { completions, hover } = editor();
    expect(completions("app.ts", '"Running"', 1)).toEqual(expect.arrayContaining(["Running", "Degraded", "Stopped", "Failed"]));
    expect(hover("app.ts", "pipe.state", 5)).toContain("state: PipeState");
    expect(hover("app.ts", "pipe.state", 5)).toContain("Known values: `Unknown`, `Provisioning`, `Running`");
    expect(hover("app.ts", "PipeState")).toContain('"Running"');
  });

  it("offers the known values of an open enum that refers to a closed one (an alert's thresholdType)", () => {
    const { completions, hover } = editor();
    expect(completions("app.ts", '"above"', 1)).toEqual(["above", "below"]);
    expect(hover("app.ts", "alert.thresholdType", 7)).toContain("Known values: `above`, `below`; others may appear.");
  });

  it("offers every endpoint type and alert source at the empty string, while each body the contract refuses is an error", () => {
    const { completions, errors } = editor();
    for (const { needle, offers } of typing.expected) expect(completions(typing.file, needle).sort(), needle).toEqual([...offers].sort());
    for (const entry of refused) expect(errors(fileOf(entry)), entry.name).not.toEqual([]);
    for (const entry of accepted) expect(errors(fileOf(entry)), entry.name).toEqual([]);
  });

  it("shows updateSettings' description on hover", () => {
    expect(editor().hover("app.ts", "updateSettings", 1)).toContain("Replaces all the settings of a pipe");
    // A description is the hover's own text, never a raw JSDoc tag under the signature.
    for (const needle of ["updateSettings", "streaming_max_insert_wait_ms", "pipe.state"])
      expect(editor().hover("app.ts", needle, 1)).not.toContain("@description");
  });

  it("shows streaming_max_insert_wait_ms' description and bounds on hover, in the request", () => {
    const shown = editor().hover("app.ts", "streaming_max_insert_wait_ms", 1);
    expect(shown).toContain("Maximum wait, in milliseconds, before inserting streamed data");
    expect(shown).toContain("Bounds: 500 to 60000, inclusive.");
  });

  it("runs its ingestion-api command (the sandbox) from the installed files alone, and answers with its seed", async () => {
    const { installed } = project;
    const { bin } = JSON.parse(readFileSync(join(installed, "package.json"), "utf8")) as { bin: Record<string, string> };
    const child = spawn(process.execPath, [join(installed, bin["ingestion-api"] ?? ""), "sandbox", "--port", "0"], {
      cwd: consumer,
      stdio: ["ignore", "pipe", "inherit"],
    });
    try {
      const { printed, url } = await sandboxBanner(child, 15_000);
      const token = /Bearer token (\S+)/.exec(printed)?.[1];
      // The sandbox starts with the bundle's examples: an example alert is there to read.
      const bundle = JSON.parse(readFileSync(join(installed, "generated/openapi/alerts.json"), "utf8"));
      const alertId = Object.values<{ value: { data?: { id?: string } } }>(bundle.components.examples).find(({ value }) => value.data?.id)?.value.data?.id;
      const response = await fetch(`${url}/api/v2/alerts/${alertId}`, { headers: { authorization: `Bearer ${token}` } });
      expect(response.status).toBe(200);
    } finally {
      const exited = once(child, "exit");
      child.kill("SIGTERM");
      await exited;
    }
  });

  /** The pids of the processes that run the installed sandbox, or the shell npx runs it under. */
  const sandboxProcesses = () =>
    spawnSync("ps", ["-eo", "pid=,args="], { encoding: "utf8" })
      .stdout.split("\n")
      .filter((line) => (line.includes(consumer) && line.includes("sandbox")) || /sh -c '?ingestion-api'? sandbox/.test(line))
      .map((line) => Number(line.trim().split(" ")[0]));

  it("npx ingestion-api sandbox, stopped with SIGTERM as child.kill() sends it, leaves no process behind", async () => {
    // npx runs the command under `sh -c`, which does not pass the signal on: the sandbox must notice on its own.
    const child = spawn("npx", ["--no", "ingestion-api", "sandbox", "--port", "0"], { cwd: consumer, stdio: ["ignore", "pipe", "inherit"] });
    const { printed, url } = await sandboxBanner(child);
    expect(printed).toContain("Ctrl-C stops it.");
    // It answers before the kill, so that its refusing afterwards says the kill closed its port.
    expect(url).toBeDefined();
    expect((await fetch(`${url}/_sandbox/state?limit=0`)).status).toBe(200);
    expect(sandboxProcesses().length).toBeGreaterThan(0);
    const exited = once(child, "exit");
    child.kill("SIGTERM");
    await exited;
    // It checks on the processes it runs under twice a second.
    for (const deadline = Date.now() + 5_000; sandboxProcesses().length > 0 && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 100));
    expect(sandboxProcesses()).toEqual([]);
    await expect(fetch(`${url}/_sandbox/state?limit=0`)).rejects.toThrow();
  }, 60_000);
  describe("the references' curl, Python and Go samples, pasted as they are against `npx ingestion-api sandbox` from it", () => {
    const python3 = commandThatRuns(["/usr/bin/python3", "python3"], ["--version"]);
    const go = commandThatRuns(["go", "/usr/bin/go"], ["version"]);
    skipOrFailInCi(python3 ? undefined : "skipping the pasted Python samples: no python3 (apt-get install python3)");
    skipOrFailInCi(go ? undefined : "skipping the pasted Go samples: no go (apt-get install golang-go)");
    // What a reader pastes: neither the SDK's variables nor anything else of this process's INGESTION_* environment.
    const readerEnv = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith("INGESTION_")));
    // The Go programs: only the standard library, nothing downloaded; a build cache kept across runs.
    const goEnv = { ...readerEnv, GOCACHE: join(tmpdir(), "ingestion-api-go-cache"), GOPROXY: "off", GO111MODULE: "on", GOWORK: "off", GOFLAGS: "" };

    let sandbox: ChildProcess;
    let sandboxUrl: string;
    let work: string;
    /** Every sample of the installed bundles' references, with where it comes from and the base URL it calls by default. */
    let samples: { name: string; lang: string; source: string; defaultBase: string }[];

    beforeAll(async () => {
      sandbox = spawn("npx", ["--no", "ingestion-api", "sandbox", "--port", "0"], { cwd: consumer, env: readerEnv, stdio: ["pipe", "pipe", "inherit"] });
      const { printed, url } = await sandboxBanner(sandbox);
      sandboxUrl = url ?? "";
      expect(sandboxUrl, printed).not.toBe("");
      work = mkdtempSync(join(tmpdir(), "ingestion-api-pasted-"));
      samples = ["management", "alerts"].flatMap((api) => {
        const bundle = JSON.parse(readFileSync(join(project.installed, "generated", "openapi", `${api}.json`), "utf8"));
        const defaultBase = defaultBaseUrl(bundle);
        return operationsOf(withCodeSamples(bundle)).flatMap(({ operationId, operation }) =>
          (operation["x-codeSamples"] as { lang: string; label: string; source: string }[])
            .filter(({ lang }) => ["curl", "Python", "Go"].includes(lang))
            .map(({ lang, label, source }) => ({ name: `${operationId}: ${label}`, lang, source, defaultBase })),
        );
      });
    }, 60_000);
    afterAll(async () => {
      if (sandbox && sandbox.exitCode === null) {
        const exited = once(sandbox, "exit");
        // Its stdin closing stops the sandbox under npx's shell, which does not pass SIGTERM on.
        sandbox.stdin?.end();
        sandbox.kill("SIGTERM");
        await exited;
      }
      if (work) rmSync(work, { recursive: true, force: true });
    });

    /** A sample as pasted, but for the port: the sandbox here listens on a free one rather than its default. */
    const pasted = (sample: { source: string; defaultBase: string }) => sample.source.replaceAll(sample.defaultBase, sandboxUrl);

    it("calls by default the port `npx ingestion-api sandbox` listens on by default: the specs' first server", async () => {
      const help = await spawnAndCollect("npx", ["--no", "ingestion-api", "sandbox", "--help"], { cwd: consumer, env: readerEnv });
      const port = /--port +port to listen on \(default (\d+)/.exec(help.stdout)?.[1];
      expect(port, help.stdout).toBeDefined();
      expect(samples.length).toBeGreaterThan(0);
      for (const sample of samples) {
        expect(sample.defaultBase, sample.name).toBe(`http://127.0.0.1:${port}`);
        expect(sample.source, sample.name).toContain(sample.defaultBase);
      }
    }, 30_000);

    it("gets a 200 for each curl sample, run with bash", async () => {
      for (const sample of samples.filter(({ lang }) => lang === "curl")) {
        const run = await spawnAndCollect("bash", ["-c", pasted(sample)], { env: readerEnv, timeout: 30_000 });
        // --fail-with-body: any status but 2xx exits 22; the sandbox answers each operation's success as 200.
        expect(run.status, `${sample.name}\n${run.stdout}${run.stderr}`).toBe(0);
        expect(() => JSON.parse(run.stdout), sample.name).not.toThrow();
      }
    }, 60_000);

    it.skipIf(!python3)(
      "gets a 200 for each Python sample, run with python3",
      async () => {
        for (const [index, sample] of samples.filter(({ lang }) => lang === "Python").entries()) {
          const file = join(work, `sample-${index}.py`);
          writeFileSync(file, pasted(sample));
          const run = await spawnAndCollect(python3!, [file], { env: readerEnv, timeout: 30_000 });
          // An error status exits 1 with the status; a 200 prints the JSON answer.
          expect(run.status, `${sample.name}\n${run.stdout}${run.stderr}`).toBe(0);
          expect(() => JSON.parse(run.stdout), sample.name).not.toThrow();
        }
      },
      60_000,
    );

    it.skipIf(!go)(
      "gets a 200 for each Go sample, built and run with go",
      async () => {
        const goSamples = samples.filter(({ lang }) => lang === "Go");
        const module = join(work, "go");
        mkdirSync(module);
        writeFileSync(join(module, "go.mod"), "module pasted\n\ngo 1.19\n");
        for (const [index, sample] of goSamples.entries()) {
          mkdirSync(join(module, `sample${index}`));
          writeFileSync(join(module, `sample${index}`, "main.go"), pasted(sample));
        }
        const built = await spawnAndCollect(go!, ["build", "-o", `${join(module, "bin")}/`, "./..."], { cwd: module, env: goEnv, timeout: 150_000 });
        expect(built.status, built.stderr).toBe(0);
        for (const [index, sample] of goSamples.entries()) {
          const run = await spawnAndCollect(join(module, "bin", `sample${index}`), [], { env: readerEnv, timeout: 30_000 });
          // An error status exits 1 with the status; a 200 prints the JSON answer.
          expect(run.status, `${sample.name}\n${run.stdout}${run.stderr}`).toBe(0);
          expect(() => JSON.parse(run.stdout), sample.name).not.toThrow();
        }
      },
      180_000,
    );
  });
});
