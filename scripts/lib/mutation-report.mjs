// Reads Stryker's JSON report (mutation-testing-report-schema): the score per file and the mutants no test noticed,
// for `npm run test:mutation`'s summary line and scripts/mutation-report.mjs's tables.
import { readFileSync } from "node:fs";

const detected = new Set(["Killed", "Timeout"]);
// Stryker's score counts these and the detected ones; compile and runtime errors and ignored mutants are not scored.
const undetected = new Set(["Survived", "NoCoverage"]);

/** The report as Stryker wrote it. */
export function readMutationReport(file) {
  return JSON.parse(readFileSync(file, "utf8"));
}

/** Per file (and a total): detected (killed or timed out), survived, not covered by any test, and the score in %. */
export function scoresOf(report) {
  const rows = Object.entries(report.files)
    .map(([file, { mutants }]) => tally(file, mutants))
    .sort((a, b) => a.file.localeCompare(b.file));
  return {
    rows,
    total: tally(
      "all",
      Object.values(report.files).flatMap(({ mutants }) => mutants),
    ),
  };
}

function tally(file, mutants) {
  const count = (statuses) => mutants.filter((mutant) => statuses.has(mutant.status)).length;
  const row = { file, detected: count(detected), survived: count(new Set(["Survived"])), noCoverage: count(new Set(["NoCoverage"])) };
  const scored = row.detected + row.survived + row.noCoverage;
  return { ...row, scored, score: scored === 0 ? 100 : (100 * row.detected) / scored };
}

/** The mutants that survived or that no test reached, by file and line: where, which mutator, original -> replacement. */
export function undetectedOf(report) {
  return Object.entries(report.files)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([file, { source, mutants }]) => ({
      file,
      mutants: mutants
        .filter((mutant) => undetected.has(mutant.status))
        .sort((a, b) => a.location.start.line - b.location.start.line || a.location.start.column - b.location.start.column)
        .map((mutant) => ({
          line: mutant.location.start.line,
          status: mutant.status,
          mutator: mutant.mutatorName,
          original: oneLine(originalText(source, mutant.location)),
          replacement: oneLine(mutant.replacement ?? ""),
        })),
    }));
}

/** The source text a mutant replaces (lines and columns are 1-based; the end column is exclusive). */
function originalText(source, { start, end }) {
  const lines = source.split("\n");
  if (start.line === end.line) return lines[start.line - 1].slice(start.column - 1, end.column - 1);
  return [lines[start.line - 1].slice(start.column - 1), ...lines.slice(start.line, end.line - 1), lines[end.line - 1].slice(0, end.column - 1)].join("\n");
}

/** Whitespace collapsed and long text cut, so a mutant fits a line of a table. */
function oneLine(text, max = 90) {
  // A chained call broken over lines reads as one: `value\n  .join("=")` becomes `value.join("=")`.
  const flat = text
    .replace(/\s*\n\s*(?=\.)/g, "")
    .replace(/\s+/g, " ")
    .trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
