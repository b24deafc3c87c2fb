// The TypeScript samples the docs and the playground generate (src/samples/typescript-sample.js) type-check against
// the package's types, for every operation and each of its named examples (its example request when it names none),
// in one tsc run; the same run refuses a generated program whose body has a field the contract does not know; and,
// pasted as they are, with nothing but the server's address set, they get their 200 answers from the sandbox.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build } from "esbuild";
import { afterAll, beforeAll, expect, it } from "vitest";
import { root } from "../../scripts/lib/toolchain.mjs";
import { interfaces } from "../../src/contract/interfaces.js";
import { exampleRequest, namedExamples, operationsOf } from "../../src/contract/openapi.js";
import { sandboxCredentials } from "../../src/samples/sample-environment.js";
import { typescriptSample } from "../../src/samples/typescript-sample.js";
import { exampleSeed } from "../../src/sandbox/seed.js";
import { startSandbox } from "../../src/sandbox/server.js";
import { bundles } from "../support/bundles.js";
import { spawnAndCollect } from "../support/processes.js";

/** Every generated program, by the file it is checked as: `<operationId>.<example key>.ts`, or `<operationId>.ts`. */
const programs = (["management", "alerts"] as const).flatMap((api) =>
  operationsOf(bundles[api]).flatMap((entry) => {
    const named = namedExamples(bundles[api], entry);
    return named.length === 0
      ? [{ file: `${entry.operationId}.ts`, source: typescriptSample(bundles[api], entry, exampleRequest(bundles[api], entry)) }]
      : named.map(({ key, request }) => ({ file: `${entry.operationId}.${key}.ts`, source: typescriptSample(bundles[api], entry, request) }));
  }),
);

/** A program with a setting the contract does not have: it must not compile. */
const wrongField = (() => {
  const entry = operationsOf(bundles.management).find((candidate) => candidate.operationId === "updatePipeSettings")!;
  const request = exampleRequest(bundles.management, entry);
  return typescriptSample(bundles.management, entry, { ...request, body: { ...(request.body as object), streaming_max_insert_wait_seconds: 5 } });
})();

// A project of the generated files under the repository's compiler settings: its tsconfig extends the repository's,
// whose `paths` resolve `ingestion-api` to the sources, and reads the repository's @types (process.env) as it does.
let dir: string;
let printed: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "typescript-samples-"));
  mkdirSync(join(dir, "samples"));
  writeFileSync(join(dir, "package.json"), JSON.stringify({ type: "module" }));
  const compilerOptions = { typeRoots: [join(root, "node_modules", "@types")] };
  writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({ extends: join(root, "tsconfig.json"), compilerOptions, include: ["samples", "wrong-field.ts"] }));
  for (const { file, source } of programs) writeFileSync(join(dir, "samples", file), source);
  writeFileSync(join(dir, "wrong-field.ts"), wrongField);
  const tsc = join(root, "node_modules", "typescript", "bin", "tsc");
  printed = (await spawnAndCollect(process.execPath, [tsc, "-p", dir, "--pretty", "false"], { cwd: dir, timeout: 90_000 })).stdout;
}, 90_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it("generates a program for every operation and each of its named examples", () => {
  const operations = (["management", "alerts"] as const).flatMap((api) => operationsOf(bundles[api]));
  expect(programs.length).toBeGreaterThan(operations.length);
  for (const { operationId } of operations) expect(programs.some(({ file }) => file.startsWith(`${operationId}.`))).toBe(true);
});

it("type-checks every generated program against the package's types", () => {
  // Any error but the wrong field's: in a sample, or one that stopped tsc from checking them (a config, a module).
  const errors = printed.split("\n").filter((line) => / error TS\d+: /.test(line) && !line.startsWith("wrong-field.ts("));
  expect(errors).toEqual([]);
});

it("refuses a generated program whose body has a field the contract does not know", () => {
  const errors = printed.split("\n").filter((line) => line.startsWith("wrong-field.ts("));
  expect(errors).toHaveLength(1);
  expect(errors[0]).toContain("streaming_max_insert_wait_seconds");
});

it("runs every generated program as pasted against the sandbox: each prints the 200 answer", async () => {
  // The programs bundled with the package's sources, in place of the published "ingestion-api".
  const out = join(dir, "run");
  await build({
    absWorkingDir: root,
    entryPoints: programs.map(({ file }) => join(dir, "samples", file)),
    outdir: out,
    outExtension: { ".js": ".mjs" },
    alias: { "ingestion-api": "./src/index.ts" },
    bundle: true,
    platform: "node",
    format: "esm",
    logLevel: "warning",
  });
  const sandbox = await startSandbox({ seed: exampleSeed(), credentials: sandboxCredentials });
  try {
    // Only the address is set: the credentials must be the sandbox's that the programs fall back to.
    const unset = Object.fromEntries(
      Object.keys(process.env)
        .filter((name) => name.startsWith("INGESTION_"))
        .map((name) => [name, undefined]),
    );
    const env = { ...process.env, ...unset, [interfaces.management.environment.baseUrl]: sandbox.url, [interfaces.alerts.environment.baseUrl]: sandbox.url };
    for (const { file } of programs) {
      const run = await spawnAndCollect(process.execPath, [join(out, file.replace(/\.ts$/, ".mjs"))], { env, timeout: 30_000 });
      expect(run.status, `${file}: ${run.stderr}`).toBe(0);
      expect(JSON.parse(run.stdout), file).toBeTypeOf("object");
    }
  } finally {
    await sandbox.close();
  }
}, 120_000);
