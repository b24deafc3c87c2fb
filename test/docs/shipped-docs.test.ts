// Every word a user reads holds: each fenced block of the Markdown files the package and the release archive ship,
// checked as a reader uses it, against the package installed from its files in a project of its own
// (test/support/consumer-project.ts) and `ingestion-api sandbox` run from there. A TypeScript block with an import
// compiles alone, as pasted, and runs; one without continues its file's last whole block (fenced-blocks.ts). Shell
// blocks run with bash, Python with python3 and jsonschema, Go with Go and kin-openapi, against that sandbox (its
// address and the examples' local ports rewritten to the ones here); JSON is a vector the contract ships; YAML
// parses. A block that cannot run here carries a mark in its info string, from the list below, and is listed. The
// words: no version but the current one, nothing about the project's own machines.
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { freePort } from "../../scripts/lib/mock-servers.mjs";
import { root } from "../../scripts/lib/toolchain.mjs";
import { startDocsServer } from "../../src/docs/server.js";
import { type ConsumerProject, createConsumerProject } from "../support/consumer-project.js";
import { type FencedBlock, fencedBlocks, isWhole, promisedOutput, typeScriptModules } from "../support/fenced-blocks.js";
import { harRecorder } from "../support/har-recorder.js";
import { spawnAndCollect } from "../support/processes.js";
import { python3, pythonMissing, skipPython } from "../support/python.js";
import { sandboxBanner } from "../support/sandbox.js";
import { goWithKinOpenapi, kinOpenapiEnv, skipOrFailInCi } from "../support/system-tools.js";

// The wheel's README (its description on an index) is shipped too, beside the wheel in the docs' downloads.
const shippedDocs = ["README.md", "RATE-LIMITS.md", "CONTRACT.md", "SECURITY.md", "contract/python/README.md"];
const blocks = shippedDocs.flatMap(fencedBlocks);
const ofLanguage = (language: string) => blocks.filter((block) => block.language === language);

/** Why a block does not run here: each mark an info string may carry. */
const marks: Record<string, string> = {
  "needs-redis": "connects to a Redis server at its default address",
  "ci-workflow": "steps of a CI service's workflow (parsed as YAML, not run)",
  output: "what a command prints (test/verify/verify.test.ts and test/traffic/check-traffic.test.ts compare it with a run)",
};
const unmarked = (block: FencedBlock) => block.marks.length === 0;

const { version, devDependencies } = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
  version: string;
  devDependencies: Record<string, string>;
};

// The sandbox's defaults, as it prints them and the docs use them.
const sandboxAddress = "http://127.0.0.1:4012";
const readerEnv: NodeJS.ProcessEnv = {
  ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith("INGESTION_"))),
  KEY_ID: "sandbox-key-id",
  KEY_SECRET: "sandbox-key-secret",
  TOKEN: "sandbox-token",
};

it("has only blocks of a kind it checks, marked only with marks it knows, and lists the marked ones", () => {
  expect(blocks.filter(({ language }) => !["ts", "sh", "python", "go", "json", "yaml", "text"].includes(language)).map(({ name }) => name)).toEqual([]);
  expect(blocks.filter(({ marks: given }) => given.some((mark) => !(mark in marks))).map(({ name }) => name)).toEqual([]);
  // Output is not code: a text block says so with its mark.
  expect(
    ofLanguage("text")
      .filter(unmarked)
      .map(({ name }) => name),
  ).toEqual([]);
  const exceptions = blocks.filter((block) => !unmarked(block));
  console.log(
    `shipped docs: ${blocks.length} blocks; not run here: ${exceptions.map(({ name, language, marks: given }) => `${name} (${language}: ${given.map((mark) => marks[mark]).join("; ")})`).join(", ")}`,
  );
  expect(exceptions.length).toBeLessThanOrEqual(5);
});

describe.each([...shippedDocs, "openapi/DECISIONS.md"])("the words of %s", (file) => {
  // The Revisions are history: what was true then.
  const text = readFileSync(join(root, file), "utf8").split(/^## Revisions$/m)[0] ?? "";

  it("name the package's current version, and the tools' pinned ones, wherever they name one", () => {
    const current = [version, version.split(".").slice(0, 2).join(".")];
    const named = [...text.matchAll(/ingestion-api(?:@| verify )(\d+\.\d+(?:\.\d+)?)/g)].map(([, named]) => named);
    expect(named.filter((named) => !current.includes(named ?? ""))).toEqual([]);
    const prism = [...text.matchAll(/@stoplight\/prism-cli@([\d.]+)/g)].map(([, pinned]) => pinned);
    expect(prism.filter((pinned) => pinned !== devDependencies["@stoplight/prism-cli"])).toEqual([]);
  });

  it("speak of the reader's setup, never of the project's own machines or where it was specified from", () => {
    const projectTalk = [
      /\bthe seed\b/i,
      /\bPyPI is out\b/i,
      /\bthis project's reach\b/i,
      /\bcannot download\b/i,
      /\bcould not run\b.*\bhere\b/i,
      /\bon this machine\b/i,
    ];
    expect(projectTalk.filter((pattern) => pattern.test(text)).map(String)).toEqual([]);
  });
});

describe("the first example", () => {
  const first = ofLanguage("ts").find(({ file }) => file === "README.md");
  const quickstart = readFileSync(join(root, "examples", "management.ts"), "utf8");

  it.each([
    ["README.md's first block", first?.code ?? ""],
    ["examples/management.ts (the landing page's Quickstart)", quickstart],
  ])("%s changes one setting and keeps the others, saying on that line that a PUT replaces them all", (_, code) => {
    expect(code).toMatch(/\/\/ A PUT replaces every setting[^\n]*\n[^\n]*changeSettings\(pipe, \(\w+\) => \(\{ \.\.\.\w+, \w+: \d+ \}\)\)/);
    expect(code).not.toMatch(/updateSettings\(/);
  });
});

describe("run as a reader runs them", () => {
  let project: ConsumerProject;
  let sandbox: ChildProcess;
  let sandboxUrl: string;
  let work: string;
  let docs: { url: string; close(): Promise<void> } | undefined;
  /**
   * The docs' wheel unpacked, for PYTHONPATH: the Python blocks import it as installed. The shell blocks install it
   * as a reader does (venv and pip, test/traffic/check-traffic.test.ts too); a third environment made with pip here
   * would cost 8 s of CPU for nothing more.
   */
  let wheelPath: string | undefined;
  const withWheel = (env: NodeJS.ProcessEnv) => ({ ...env, PYTHONPATH: wheelPath });

  beforeAll(async () => {
    project = createConsumerProject();
    // What the blocks import beside the package: a reader installs them (ioredis or redis, vitest, Node's types).
    for (const name of ["ioredis", "redis", "vitest", "@types/node"]) {
      mkdirSync(dirname(join(project.dir, "node_modules", name)), { recursive: true });
      symlinkSync(join(root, "node_modules", name), join(project.dir, "node_modules", name));
    }
    writeFileSync(
      join(project.dir, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          target: "ES2022",
          module: "NodeNext",
          moduleResolution: "NodeNext",
          noEmit: true,
          skipLibCheck: true,
          types: ["node"],
        },
      }),
    );
    work = mkdtempSync(join(tmpdir(), "ingestion-api-shipped-docs-"));
    sandbox = spawn(process.execPath, [join(project.installed, "dist", "cli.js"), "sandbox", "--port", "0"], {
      cwd: project.dir,
      stdio: ["pipe", "pipe", "inherit"],
    });
    const { printed, url } = await sandboxBanner(sandbox);
    sandboxUrl = url ?? "";
    expect(sandboxUrl, printed).not.toBe("");
    // The docs as a team serves them, for the blocks that download from them ($DOCS).
    docs = await startDocsServer({ dir: join(root, "build", "docs"), port: 0 });
    readerEnv.DOCS = docs.url.replace(/\/$/, "");
    // What the blocks about recorded traffic read: a HAR recorded from this sandbox.
    const recorder = harRecorder();
    const settings =
      "/v1/organizations/7b1e3f0a-5c2d-4e8f-9a6b-1c3d5e7f9a0b/services/3f6c2a1e-8b4d-4c7e-9f1a-2b3c4d5e6f70/pipes/9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a/settings";
    await recorder.fetch(`${sandboxUrl}${settings}`, { headers: { authorization: `Basic ${btoa("sandbox-key-id:sandbox-key-secret")}` } });
    await recorder.fetch(`${sandboxUrl}/api/v2/alerts/65f1c2d3e4b5a69788796a5b`, { headers: { authorization: "Bearer sandbox-token" } });
    writeFileSync(join(project.dir, "recorded.har"), JSON.stringify(recorder.har()));
    const wheel = join(root, "build", "docs", "downloads", `ingestion_api_contract-${version}-py3-none-any.whl`);
    // The wheel's README installs it from the folder it was downloaded to.
    copyFileSync(wheel, join(project.dir, basename(wheel)));
    if (python3 !== undefined) {
      wheelPath = join(work, "wheel");
      const unpacked = await spawnAndCollect(python3, ["-m", "zipfile", "--extract", wheel, wheelPath], { timeout: 30_000 });
      expect(unpacked.status, unpacked.stderr).toBe(0);
    }
  }, 60_000);
  afterAll(async () => {
    if (sandbox && sandbox.exitCode === null) {
      const exited = once(sandbox, "exit");
      sandbox.kill("SIGTERM");
      await exited;
    }
    await docs?.close();
    project?.remove();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  /** A block's code as pasted, but for the addresses: the sandbox here, and free ports for the servers it starts. */
  const pasted = (code: string, ports: Record<string, number> = {}) =>
    Object.entries(ports).reduce(
      (text, [port, free]) => text.replaceAll(`127.0.0.1:${port}`, `127.0.0.1:${free}`).replaceAll(`-p ${port} `, `-p ${free} `),
      code.replaceAll(sandboxAddress, sandboxUrl).replace(/http:\/\/127\.0\.0\.1:800[01]\b/g, sandboxUrl),
    );

  function expectPromised(block: FencedBlock, stdout: string) {
    for (const pattern of promisedOutput(block)) expect(stdout, `${block.name} prints what its text says`).toMatch(pattern);
  }

  describe("TypeScript", () => {
    const modules = typeScriptModules(ofLanguage("ts"));
    const fileOf = (block: FencedBlock) => `${block.file.replace(/\W+/g, "-")}-${block.line}`;

    it("compiles every block as pasted against the installed package, a whole one alone, under strict settings", () => {
      const names = modules.map(({ block, source }) => {
        const name = join(project.dir, `${fileOf(block)}.ts`);
        writeFileSync(name, `${source}\nexport {};\n`);
        return name;
      });
      const config = ts.getParsedCommandLineOfConfigFile(join(project.dir, "tsconfig.json"), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
      const program = ts.createProgram({ rootNames: names, options: config?.options ?? {} });
      const errors = Object.fromEntries(
        modules.map(({ block }, index) => [
          block.name,
          ts
            .getPreEmitDiagnostics(program, program.getSourceFile(names[index] ?? ""))
            .map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, " ")),
        ]),
      );
      expect(errors).toEqual(Object.fromEntries(modules.map(({ block }) => [block.name, []])));
      expect(modules.filter(({ block }) => isWhole(block)).length).toBeGreaterThanOrEqual(4);
    }, 60_000);

    const runnable = ofLanguage("ts").filter((block) => isWhole(block) && unmarked(block));
    it.each(runnable.map((block) => [block.name, block] as const))(
      "runs %s, a whole program, against the sandbox",
      async (_, block) => {
        const program = join(project.dir, `${fileOf(block)}.mjs`);
        writeFileSync(
          program,
          ts.transpileModule(pasted(block.code), { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText,
        );
        const run = await spawnAndCollect(process.execPath, [program], { cwd: project.dir, env: readerEnv, timeout: 30_000 });
        expect(run.status, run.stderr).toBe(0);
        expectPromised(block, run.stdout);
      },
      40_000,
    );

    it("README.md's first block, run, changed one setting and kept every other", async () => {
      const answer = await fetch(
        `${sandboxUrl}/v1/organizations/7b1e3f0a-5c2d-4e8f-9a6b-1c3d5e7f9a0b/services/3f6c2a1e-8b4d-4c7e-9f1a-2b3c4d5e6f70/pipes/9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a/settings`,
        {
          headers: { authorization: `Basic ${btoa("sandbox-key-id:sandbox-key-secret")}` },
        },
      );
      const { result } = (await answer.json()) as { result: Record<string, unknown> };
      expect(result).toMatchObject({ streaming_max_insert_wait_ms: 10000, engine_max_insert_threads: 4, engine_parallel_view_processing: true });
    });
  });

  describe("shell", () => {
    /**
     * A shell block as the test runs it: the package is installed and its sandbox runs already (the lines that do
     * that are left out), a Prism it starts is the checkout's (the version is checked above), started in the
     * background and waited for.
     */
    function script(code: string, ports: Record<string, number>): string {
      const prism = join(root, "node_modules", "@stoplight", "prism-cli", "dist", "index.js");
      const lines = pasted(code, ports)
        .split("\n")
        .map((line) => {
          if (/^npm install\b.*\bingestion-api\b/.test(line)) return ": the package is installed";
          if (/^npx ingestion-api sandbox\b/.test(line)) return ": the sandbox runs";
          const mock = /^npx -y @stoplight\/prism-cli@[\d.]+ (mock -p (\d+) .*?)(\s+#.*)?$/.exec(line);
          if (mock)
            return `node ${prism} ${mock[1]} >/dev/null 2>&1 &\nfor _ in $(seq 300); do curl -s -o /dev/null http://127.0.0.1:${mock[2]}/ && break; sleep 0.1; done`;
          return line;
        });
      // A server the block starts in the background ends with it: its parent, the shell, would not be there to end it.
      return ["trap 'kill $(jobs -p) 2>/dev/null || true' EXIT", ...lines].join("\n");
    }

    it.each(ofLanguage("sh").map((block) => [block.name, block] as const))(
      "runs %s against the sandbox",
      async (_, block) => {
        // A free port each for Prism's 4010 and 4011, should the block start them.
        const management = await freePort();
        let alerts = await freePort();
        while (alerts === management) alerts = await freePort();
        const run = await spawnAndCollect("bash", ["-eo", "pipefail", "-c", script(block.code, { 4010: management, 4011: alerts })], {
          cwd: project.dir,
          env: { ...readerEnv, PATH: `${join(project.dir, "node_modules", ".bin")}:${process.env.PATH}` },
          timeout: 90_000,
        });
        expect(run.status, `${run.stdout}\n${run.stderr}`).toBe(0);
        expect(run.stderr).not.toMatch(/curl: \(\d+\)/);
        expectPromised(block, run.stdout);
        // A comment that shows an answer ("# {...}") shows one the block's calls got.
        for (const [, shown] of block.code.matchAll(/^# (\{.*\})$/gm)) {
          const { result } = JSON.parse((shown ?? "").replace('"..."', '""')) as { result: unknown };
          expect(run.stdout).toContain(JSON.stringify(result));
        }
      },
      120_000,
    );
  });

  describe("Python", () => {
    it.skipIf(skipPython).each(ofLanguage("python").map((block) => [block.name, block] as const))(
      "runs %s with the docs' wheel importable, in the package's folder (the release archive's layout)",
      async (_, block) => {
        expect(python3, pythonMissing).toBeDefined();
        const run = await spawnAndCollect(python3 as string, ["-c", block.code], { cwd: project.installed, env: withWheel(readerEnv), timeout: 30_000 });
        expect(run.status, run.stderr).toBe(0);
        expect(promisedOutput(block).length).toBeGreaterThan(0);
        expectPromised(block, run.stdout);
      },
    );
  });

  describe("Go", () => {
    const { go, missing } = goWithKinOpenapi("the Go blocks");
    skipOrFailInCi(missing);

    it.skipIf(missing !== undefined).each(ofLanguage("go").map((block) => [block.name, block] as const))(
      "builds and runs %s with Debian's kin-openapi, in the package's folder",
      async (_, block) => {
        const dir = join(work, `go-${block.line}`);
        mkdirSync(dir);
        writeFileSync(join(dir, "main.go"), block.code);
        const env = { ...readerEnv, ...kinOpenapiEnv, GOCACHE: join(tmpdir(), "ingestion-api-go-cache") };
        // Linked without a symbol table and DWARF (-s -w): a third less linking, for a program run once.
        const run = await spawnAndCollect(go as string, ["run", "-ldflags=-s -w", join(dir, "main.go")], { cwd: project.installed, env, timeout: 120_000 });
        expect(run.status, run.stderr).toBe(0);
        expect(promisedOutput(block).length).toBeGreaterThan(0);
        expectPromised(block, run.stdout);
      },
      150_000,
    );
  });

  const vectorBlocks = ofLanguage("json").filter((block) => "operation" in (JSON.parse(block.code) as object));
  it.each(vectorBlocks.map((block) => [block.name, block] as const))("%s is a vector the package ships, as it is", (_, block) => {
    const shown = JSON.parse(block.code) as { operation: string; name: string; http: Record<string, unknown> };
    const shipped = ["management", "alerts"].flatMap((api) => {
      try {
        return JSON.parse(readFileSync(join(project.installed, "contract", "vectors", api, `${shown.operation}.json`), "utf8")) as { name: string }[];
      } catch {
        return [];
      }
    });
    const vector = shipped.find(({ name }) => name === shown.name);
    expect(vector, `a vector named ${shown.name}`).toBeDefined();
    // The path is shortened for the page; the rest is the vector's.
    const { http, ...rest } = shown;
    expect(vector).toMatchObject({ ...rest, http: { ...http, path: expect.any(String) } });
  });

  // The other JSON blocks are recorded exchanges, a line of the JSON Lines check-traffic reads: each keeps the contract.
  it.each(
    ofLanguage("json")
      .filter((block) => !vectorBlocks.includes(block))
      .map((block) => [block.name, block] as const),
  )("%s is an exchange both check-traffics pass, as one line of JSON Lines", async (_, block) => {
    const file = join(work, `exchange-${block.line}.jsonl`);
    writeFileSync(file, `${JSON.stringify(JSON.parse(block.code))}\n`);
    const commands: [string, string[]][] = [[process.execPath, [join(project.installed, "dist", "cli.js"), "check-traffic", file]]];
    if (wheelPath) commands.push([python3 as string, ["-m", "ingestion_api_contract", "check-traffic", file]]);
    for (const [command, args] of commands) {
      const run = await spawnAndCollect(command, args, { env: withWheel(process.env), timeout: 30_000 });
      expect(run.status, run.stdout + run.stderr).toBe(0);
      expect(run.stdout).toContain("PASSED: 1 exchange");
    }
  });

  it.each(ofLanguage("yaml").map((block) => [block.name, block] as const))("%s parses as YAML", (_, block) => {
    expect(() => parseYaml(block.code)).not.toThrow();
  });
});
