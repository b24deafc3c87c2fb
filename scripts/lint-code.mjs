// npm run lint:code (and npm run format with --write): Biome's formatter and recommended lint rules over the
// TypeScript and scripts that biome.jsonc includes. Biome runs from its WebAssembly build: the registry this
// project installs from serves only the Linux builds of @biomejs/cli-*, so a lock written here with the native
// @biomejs/biome fails `npm ci`.
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { Biome, Distribution, spanInBytesToSpanInCodeUnits } from "@biomejs/js-api";
import { root } from "./lib/toolchain.mjs";

const write = process.argv.includes("--write");
// Files named after the options (`npm run format -- src/a.ts`) narrow the run to them.
const named = process.argv.slice(2).filter((arg) => !arg.startsWith("--"));

// biome.jsonc has whole-line comments only, which keeps it readable by JSON.parse once they are dropped.
const config = JSON.parse(readFileSync(`${root}/biome.jsonc`, "utf8").replace(/^\s*\/\/.*$/gm, ""));

// The WebAssembly build reads no files itself: list them as Biome's `files.includes` would (`**/*.ext` and `!folder`).
const extensions = config.files.includes.filter((glob) => glob.startsWith("**/*.")).map((glob) => glob.slice(4));
const excluded = config.files.includes.filter((glob) => glob.startsWith("!")).map((glob) => `${glob.slice(1)}/`);
const files = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard"], { cwd: root, encoding: "utf8" })
  .split("\n")
  .filter((file) => extensions.some((ext) => file.endsWith(ext)) && !excluded.some((folder) => file.startsWith(folder)))
  .filter((file) => named.length === 0 || named.includes(file));

const biome = await Biome.create({ distribution: Distribution.NODE });
const { projectKey } = biome.openProject(root);
biome.applyConfiguration(projectKey, config);

let findings = 0;
for (const file of files) {
  const source = readFileSync(`${root}/${file}`, "utf8");
  const formatted = biome.formatContent(projectKey, source, { filePath: file }).content;
  const lint = biome.lintContent(projectKey, formatted, { filePath: file, fixFileMode: write ? "safeFixes" : undefined });
  if (write && lint.content !== source) writeFileSync(`${root}/${file}`, lint.content);
  else if (formatted !== source) {
    console.log(`${file}: not formatted (npm run format)`);
    findings += 1;
  }
  const problems = lint.diagnostics.filter((d) => d.severity !== "information" && d.severity !== "hint");
  for (const problem of problems) console.log(`${file}:${position(formatted, problem.location.span)} ${problem.category} ${problem.description}`);
  findings += problems.length;
}

/** `line:column` of a diagnostic's span, which Biome counts in UTF-8 bytes. */
function position(source, span) {
  if (!span) return "1:1";
  const [start] = spanInBytesToSpanInCodeUnits(span, source);
  const lines = source.slice(0, start).split("\n");
  return `${lines.length}:${lines.at(-1).length + 1}`;
}

if (findings > 0) {
  console.error(`lint:code: ${findings} finding(s) in ${files.length} files`);
  process.exit(1);
}
console.log(`lint:code: ${files.length} files ${write ? "formatted" : "clean"} (Biome format and recommended rules)`);
