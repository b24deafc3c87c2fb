// The examples (examples/*.ts) compiled to plain ES modules for the portability tests, so every runtime runs
// exactly the code the README and the docs show. Each compiled example imports "ingestion-api" from
// `globalThis.ingestionApiUnderTest`: whatever module the runtime under test loaded (ESM, CommonJS, a browser's
// import map), set by test/portability/run-examples.mjs before the examples run.
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build } from "esbuild";
import { root } from "../../scripts/lib/toolchain.mjs";

export interface CompiledExamples {
  dir: string;
  /** The example names (file names without `.ts`), in the order they run. */
  names: string[];
  remove(): void;
}

export async function compileExamples(): Promise<CompiledExamples> {
  const names = readdirSync(join(root, "examples"))
    .filter((file) => file.endsWith(".ts"))
    .map((file) => file.slice(0, -3))
    .sort();
  const exported = Object.keys(await import(join(root, "dist", "index.js")));
  const dir = mkdtempSync(join(tmpdir(), "ingestion-api-examples-"));
  await build({
    absWorkingDir: root,
    entryPoints: names.map((name) => join("examples", `${name}.ts`)),
    outdir: dir,
    outExtension: { ".js": ".mjs" },
    bundle: true,
    format: "esm",
    platform: "neutral",
    target: "es2022",
    logLevel: "warning",
    plugins: [
      {
        name: "sdk-under-test",
        setup(plugin) {
          plugin.onResolve({ filter: /^ingestion-api$/ }, () => ({ path: "ingestion-api", namespace: "sdk-under-test" }));
          plugin.onLoad({ filter: /.*/, namespace: "sdk-under-test" }, () => ({
            contents: `export const { ${exported.join(", ")} } = globalThis.ingestionApiUnderTest;`,
            loader: "js",
          }));
        },
      },
    ],
  });
  return { dir, names, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
