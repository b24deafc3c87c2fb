// How `ingestion-api check-traffic` tells what it found: each exchange with a finding (its index, time, request
// and operation) and its findings (the part, where in it, the rule); as JSON for tools; as JUnit XML for CI. The
// wheel's command prints the same shapes.
import { xml } from "../verify/report.js";
import type { CheckedExchange } from "./check.js";
import { pathAndQuery, type Recording } from "./recording.js";

export interface TrafficReport {
  file: string;
  format: Recording["format"];
  checked: CheckedExchange[];
}

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? "" : "s"}`;
export const passed = (report: TrafficReport) => report.checked.every(({ findings }) => findings.length === 0);

/** The request as a line shows it: the method and the path with its query (the host is the same for all). */
function requested({ exchange }: CheckedExchange): string {
  const { path, query } = pathAndQuery(exchange.url);
  return `${exchange.method.toUpperCase()} ${path}${query ? `?${query}` : ""}`;
}

const heading = (checked: CheckedExchange) =>
  `#${checked.exchange.index} ${checked.exchange.time ?? "-"} ${requested(checked)}  ${checked.operation?.operationId ?? "?"}`;

/** The summary people read. */
export function summary(report: TrafficReport, version: string): string {
  const lines = [`ingestion-api check-traffic ${version}: ${report.file}, ${plural(report.checked.length, "exchange")} (${report.format})`];
  const failing = report.checked.filter(({ findings }) => findings.length > 0);
  for (const checked of failing) {
    lines.push("", heading(checked));
    for (const { part, where, rule } of checked.findings) lines.push(`  ✗ ${part}${where ? ` ${where}` : ""}: ${rule}`);
  }
  const byOperation = new Map<string, number>();
  for (const { operation } of report.checked) if (operation) byOperation.set(operation.operationId, (byOperation.get(operation.operationId) ?? 0) + 1);
  const unanswered = report.checked.filter(({ exchange }) => exchange.response === undefined).length;
  lines.push(
    "",
    `Operations: ${byOperation.size > 0 ? [...byOperation].map(([operationId, count]) => `${operationId} ${count}`).join(", ") : "none"}.${
      unanswered > 0 ? ` ${plural(unanswered, "exchange")} without an answer: only the request was checked.` : ""
    }`,
    failing.length === 0
      ? `PASSED: ${plural(report.checked.length, "exchange")}, each as the contract says.`
      : `FAILED: ${plural(
          failing.reduce((sum, { findings }) => sum + findings.length, 0),
          "finding",
        )} in ${failing.length} of ${plural(report.checked.length, "exchange")}.`,
  );
  return lines.join("\n");
}

/** The report as JSON, for tools: every finding with the exchange it is in. */
export function json(report: TrafficReport, version: string): string {
  const findings = report.checked.flatMap(({ exchange, operation, findings: found }) =>
    found.map((finding) => ({
      index: exchange.index,
      time: exchange.time ?? null,
      method: exchange.method.toUpperCase(),
      url: exchange.url,
      operation: operation?.operationId ?? null,
      ...finding,
    })),
  );
  const body = {
    tool: "ingestion-api check-traffic",
    version,
    file: report.file,
    format: report.format,
    exchanges: report.checked.length,
    passed: passed(report),
    findings,
  };
  return `${JSON.stringify(body, null, 2)}\n`;
}

/** JUnit XML: a test suite per operation (`unknown` for exchanges that are none), a test case per exchange. */
export function junit(report: TrafficReport): string {
  const suiteOf = ({ operation }: CheckedExchange) => (operation ? `${operation.api.name}.${operation.operationId}` : "unknown");
  const suites = [...new Set(report.checked.map(suiteOf))].map((suite) => {
    const cases = report.checked.filter((checked) => suiteOf(checked) === suite);
    const testcases = cases.map((checked) => {
      const open = `    <testcase name="${xml(`#${checked.exchange.index} ${requested(checked)}`)}" classname="${xml(suite)}"`;
      if (checked.findings.length === 0) return `${open}/>`;
      const lines = checked.findings.map(({ part, where, rule }) => `${part}${where ? ` ${where}` : ""}: ${rule}`);
      return `${open}><failure message="${xml(lines[0] ?? "")}">${xml(lines.join("\n"))}</failure></testcase>`;
    });
    const failures = cases.filter(({ findings }) => findings.length > 0).length;
    return `  <testsuite name="${xml(suite)}" tests="${cases.length}" failures="${failures}" errors="0" skipped="0">\n${testcases.join("\n")}\n  </testsuite>`;
  });
  const failures = report.checked.filter(({ findings }) => findings.length > 0).length;
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="ingestion-api check-traffic" tests="${report.checked.length}" failures="${failures}" errors="0">\n${suites.join("\n")}\n</testsuites>\n`;
}
