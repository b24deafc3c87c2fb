// npm run compile: builds the package into dist/ from src/ (and the generated/ modules it imports).
//   dist/index.js, dist/index.cjs   one bundled ES module and one CommonJS file (esbuild), openapi-fetch bundled in
//                                   (its license in dist/THIRD-PARTY-LICENSES.md)
//   dist/sandbox.js, dist/sandbox.cjs  `ingestion-api/sandbox`, the in-process sandbox: the engine, the bundles and
//                                   every validator bundled in, no `node:` import (it runs in browsers and jsdom)
//   dist/redis.js, dist/redis.cjs   `ingestion-api/redis`, the shared rate-limit store (its own Lua scripts); the
//                                   Redis client stays the caller's (an optional peer)
//   dist/validators/<api>[-responses].js  the generated validators, each an ES module of its own that a
//                                   client imports when it is made (and the responses' only with validateResponses):
//                                   the package's import parses none of them
//   dist/cli.js                     the `ingestion-api` command (sandbox, verify, check-traffic, docs), a Node program bundled on its own
//   dist/<path>.d.ts, .d.cts        tsc's declarations for src/ and generated/, tree kept as in the repo;
//                                   each .d.ts has a .d.cts twin whose relative imports end in .cjs, so
//                                   `require` consumers get CommonJS-typed declarations (what attw checks)
// Only dist/validators/ is minified; the rest is readable code, as a stack trace and an uncaught error show it.
// Type errors fail the build (tsconfig.build.json, without @types/node, so nothing Node-only leaks
// into the declarations), and so does any `node:` import or `require(` in the ES module.
import { chmodSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import { build } from "esbuild";
import ts from "typescript";
import { root } from "./lib/toolchain.mjs";

const outDir = join(root, "dist");

rmSync(outDir, { recursive: true, force: true });

// JavaScript. `neutral` assumes no Node built-ins, so an import of one fails the build.
const common = {
  absWorkingDir: root,
  entryPoints: ["src/index.ts"],
  bundle: true,
  platform: "neutral",
  target: "es2022",
  // openapi-fetch (pinned exactly) is bundled in rather than imported: resolving a package from dist/ is about
  // half of what the package's import would otherwise cost. It stays a dependency for its types, which type `raw`.
  external: [],
  // Not minified: an uncaught error prints the line that threw, and a user reads our code there and in the debugger
  // (an application's bundler minifies). A source map beside each file leads a stack trace back to src/.
  minify: false,
  // The bundle renames a name that two modules share (`rank2`); `.name` and stack frames keep the one in src/.
  keepNames: true,
  sourcemap: true,
  legalComments: "none",
  logLevel: "warning",
};
// The validator modules stay modules of their own, imported by the client at run time from beside it.
const validatorModules = /\/generated\/validators\/([\w-]+)\.js$/;
const validatorsBesideTheClient = {
  name: "validators beside the client",
  setup(build) {
    build.onResolve({ filter: validatorModules }, ({ path, kind }) => {
      if (kind !== "dynamic-import") throw new Error(`compile: ${path} is imported statically; the client must import it when it is made`);
      return { path: `./validators/${validatorModules.exec(path)[1]}.js`, external: true };
    });
  },
};
// The clients' validators; the headers' are read only by `ingestion-api verify`, bundled into dist/cli.js.
const validatorFiles = readdirSync(join(root, "generated", "validators")).filter((file) => file.endsWith(".js") && !file.endsWith("-headers.js"));
const [esmBuild] = await Promise.all([
  build({ ...common, format: "esm", outfile: join(outDir, "index.js"), metafile: true, plugins: [validatorsBesideTheClient] }),
  build({ ...common, format: "cjs", outfile: join(outDir, "index.cjs"), plugins: [validatorsBesideTheClient] }),
  // The in-process sandbox: a test double for any runtime, so `neutral` too, with its own entry so no client carries it.
  ...["esm", "cjs"].map((format) =>
    build({ ...common, entryPoints: ["src/sandbox/in-process.ts"], format, outfile: join(outDir, format === "esm" ? "sandbox.js" : "sandbox.cjs") }),
  ),
  // The Redis store: a Node program's part, with its own entry so no client carries it.
  ...["esm", "cjs"].map((format) =>
    build({ ...common, entryPoints: ["src/redis.ts"], platform: "node", format, outfile: join(outDir, format === "esm" ? "redis.js" : "redis.cjs") }),
  ),
  // Generated code with no import of its own and no name worth keeping in a stack trace, minified: parsing the
  // validators is most of a client's import time, and it shrinks with their text. The sandbox and the command bundle
  // them readable (esbuild minifies an output whole or not at all), which costs them size, not the client.
  build({
    ...common,
    entryPoints: validatorFiles.map((file) => join("generated", "validators", file)),
    outdir: join(outDir, "validators"),
    format: "esm",
    minify: true,
    keepNames: false,
    sourcemap: false,
  }),
  // The package's command (`ingestion-api sandbox`, `verify`): a Node program of its own, bundled with the bundles and
  // validators it serves, so the client entry above never carries it. No source map: it would hold those bundles
  // and validators a second time (600 kB), for stack traces of a test server.
  build({
    ...common,
    sourcemap: false,
    entryPoints: ["src/cli/main.ts"],
    platform: "node",
    format: "esm",
    outfile: join(outDir, "cli.js"),
    banner: { js: "#!/usr/bin/env node" },
  }),
]);

// The command runs as a program of its own (`./dist/cli.js`, and the bin npm links to it).
chmodSync(join(outDir, "cli.js"), 0o755);

// The ES module imports its validators and nothing else: no package, no Node built-in, no require().
const imported = Object.values(esmBuild.metafile.outputs).flatMap((output) => output.imports.map(({ path, kind }) => `${kind} ${path}`));
const allowed = validatorFiles.map((file) => `dynamic-import ./validators/${file}`);
const unexpected = imported.filter((entry) => !allowed.includes(entry));
if (unexpected.length > 0) throw new Error(`compile: dist/index.js imports ${unexpected.join(", ")}; the client must run outside Node`);
const esm = readFileSync(join(outDir, "index.js"), "utf8");

// The bundled code's licenses travel with it, as the MIT and ISC licenses ask.
const bundledPackages = [{ name: "openapi-fetch", license: "LICENSE", into: "dist/index.js and dist/index.cjs" }];
writeFileSync(
  join(outDir, "THIRD-PARTY-LICENSES.md"),
  `# Code of other packages bundled into dist/\n\n${bundledPackages
    .map(({ name, license, into }) => {
      const { version } = JSON.parse(readFileSync(join(root, "node_modules", name, "package.json"), "utf8"));
      return `## ${name} ${version}, in ${into}\n\n${readFileSync(join(root, "node_modules", name, license), "utf8").trim()}\n`;
    })
    .join("\n")}`,
);

// Declarations.
const parsed = ts.getParsedCommandLineOfConfigFile(
  join(root, "tsconfig.build.json"),
  {},
  {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (d) => {
      throw new Error(ts.flattenDiagnosticMessageText(d.messageText, "\n"));
    },
  },
);
const program = ts.createProgram({ rootNames: parsed.fileNames, options: parsed.options });
const diagnostics = [...parsed.errors, ...ts.getPreEmitDiagnostics(program)];
if (diagnostics.length > 0) {
  const host = { getCanonicalFileName: (f) => f, getCurrentDirectory: () => root, getNewLine: () => "\n" };
  console.error(ts.formatDiagnosticsWithColorAndContext(diagnostics, host));
  process.exit(1);
}

// A .d.cts twin: relative `.js` specifiers (in `from "..."` and `import("...")`) become `.cjs`.
const toCommonJs = (text) => text.replace(/(\b(?:from|import)\s*\(?\s*)(["'])(\.{1,2}\/[^"'\n]*?)\.js\2/g, "$1$2$3.cjs$2");
const declarations = [];
function writeDeclaration(file, text) {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
  writeFileSync(file.replace(/\.d\.ts$/, ".d.cts"), toCommonJs(text));
  declarations.push(relative(root, file));
}

const emitted = program.emit(undefined, (file, text) => {
  if (file.endsWith(".d.ts")) writeDeclaration(file, text);
});
// tsc reports the emit as skipped when the program holds JSON modules (the sandbox's bundles), which have no
// declarations to emit: what counts is that it had nothing to say and wrote every entry's declarations.
const entryDeclarations = ["dist/src/index.d.ts", "dist/src/redis.d.ts", "dist/src/sandbox/in-process.d.ts"];
const unwritten = entryDeclarations.filter((file) => !declarations.includes(file));
if (emitted.diagnostics.length > 0 || unwritten.length > 0) {
  const said = emitted.diagnostics.map((d) => ts.flattenDiagnosticMessageText(d.messageText, " ")).join("; ");
  throw new Error(`compile: tsc did not write ${unwritten.join(", ") || "every declaration"}${said ? `: ${said}` : ""}`);
}

// Hand-written or generated .d.ts inputs from the repo (generated/validators/*.d.ts) are not emitted
// by tsc but are imported by the emitted ones: copy them alongside.
for (const source of program.getSourceFiles()) {
  const rel = relative(root, source.fileName);
  if (source.isDeclarationFile && !rel.startsWith(`..${sep}`) && !rel.split(sep).includes("node_modules")) {
    writeDeclaration(join(outDir, rel), source.text);
  }
}

console.error(
  `compile: wrote dist/index.js (${esm.length} B), dist/index.cjs, dist/validators/, dist/sandbox.js and .cjs, dist/redis.js and .cjs, dist/cli.js and ${declarations.length} declarations with .d.cts twins`,
);
