// bench/RESULTS.md holds one section per benchmark, each between markers, so `npm run bench` and
// `npm run bench:rate-limit` each rewrite their own and keep the other's.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const resultsFile = fileURLToPath(new URL("RESULTS.md", import.meta.url));
const header = "# Benchmark results\n\nWritten by `npm run bench` and `npm run bench:rate-limit`; method and targets in [README.md](README.md).\n";

/** Replaces (or adds) the section named `name` of bench/RESULTS.md with `markdown`. */
export function writeResultsSection(name, markdown) {
  const start = `<!-- ${name} -->`;
  const end = `<!-- /${name} -->`;
  const text = existsSync(resultsFile) ? readFileSync(resultsFile, "utf8") : header;
  const block = `${start}\n${markdown.trim()}\n${end}`;
  const from = text.indexOf(start);
  const to = text.indexOf(end);
  const next = from >= 0 && to > from ? text.slice(0, from) + block + text.slice(to + end.length) : `${text.trimEnd()}\n\n${block}\n`;
  writeFileSync(resultsFile, next);
}
