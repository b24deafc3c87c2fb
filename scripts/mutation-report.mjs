// `node scripts/mutation-report.mjs reports/mutation/<target>/mutation.json [more reports]`: Stryker's JSON report as
// Markdown, the score per file and then, grouped by file, every mutant that survived or that no test reached, for
// test/MUTATION.md. Several reports (one file's runs, `reports/mutation/<target>/<file>/`) are read as one: a file
// in more than one of them is taken from the last named, so a file's newest run stands for it.
import { relative } from "node:path";
import { readMutationReport, scoresOf, undetectedOf } from "./lib/mutation-report.mjs";

const files = process.argv.slice(2);
if (files.length === 0) {
  console.error("usage: node scripts/mutation-report.mjs reports/mutation/<target>/mutation.json [more reports]");
  process.exit(2);
}
const report = { files: Object.assign({}, ...files.map((file) => readMutationReport(file).files)) };
const { rows, total } = scoresOf(report);
/** Markdown code: a fence one backtick longer than any run of them inside, padded when the text starts or ends with one. */
function code(text) {
  const fence = "`".repeat(Math.max(0, ...[...text.matchAll(/`+/g)].map(([run]) => run.length)) + 1);
  const pad = text.startsWith("`") || text.endsWith("`") ? " " : "";
  return `${fence}${pad}${text}${pad}${fence}`;
}

const lines = [
  "| file | killed + timeout | survived | no coverage | mutants | score |",
  "|---|--:|--:|--:|--:|--:|",
  ...[...rows, total].map(
    (row) =>
      `| ${row.file === "all" ? "**all**" : row.file} | ${row.detected} | ${row.survived} | ${row.noCoverage} | ${row.scored} | ${row.score.toFixed(1)}% |`,
  ),
];
for (const { file: source, mutants } of undetectedOf(report)) {
  if (mutants.length === 0) continue;
  lines.push(
    "",
    `### ${source} (${mutants.filter((m) => m.status === "Survived").length} survived, ${mutants.filter((m) => m.status === "NoCoverage").length} not covered)`,
    "",
  );
  for (const mutant of mutants) {
    const where = `${source}:${mutant.line}`;
    const status = mutant.status === "NoCoverage" ? " (no coverage)" : "";
    lines.push(`- ${where} ${mutant.mutator}${status}: ${code(mutant.original)} -> ${code(mutant.replacement)}`);
  }
}
console.log(lines.join("\n"));
console.error(
  `mutation-report: ${files.map((file) => relative(process.cwd(), file)).join(", ")}: ${total.score.toFixed(1)}% of ${total.scored} mutants detected`,
);
