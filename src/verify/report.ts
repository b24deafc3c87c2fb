// How `ingestion-api verify` tells what it found: a summary for people, grouped by operation (what passed, what
// failed with its first reasons, each problem of the answers once); the same as JSON for tools; JUnit XML for CI.
import type { Report } from "./run.js";
import type { CheckResult, Finding } from "./tally.js";

/** `1 min 5 s`, `850 ms`. */
export function duration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const seconds = Math.round(ms / 1000);
  return seconds < 60 ? `${seconds} s` : `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
}

/** Whether nothing failed: no check, and no answer the contract does not declare. */
export const passed = (report: Report) => report.findings.length === 0 && report.checks.every((check) => check.status !== "failed");

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? "" : "s"}`;
/** How many failures of one operation a summary shows before pointing at --json. */
const shownPerOperation = 5;

function label({ kind, name }: { kind: string; name: string }): string {
  return kind === "credentials" ? name : `${kind} ${JSON.stringify(name)}`;
}

/** The summary people read. */
export function summary(report: Report, version: string): string {
  const lines = [`ingestion-api verify ${version}`];
  for (const [api, url] of Object.entries(report.servers)) lines.push(`  ${api.padEnd(10)} ${url} (${report.rateLimits[api]})`);
  const operations = [...new Set(report.checks.map((check) => `${check.api}\u0000${check.operationId}`))];
  const width = Math.max(...operations.map((entry) => entry.split("\u0000")[1]?.length ?? 0));
  let api = "";
  for (const entry of operations) {
    const [entryApi = "", operationId = ""] = entry.split("\u0000");
    if (entryApi !== api) {
      api = entryApi;
      lines.push("", api);
    }
    const checks = report.checks.filter((check) => check.api === api && check.operationId === operationId);
    const failed = checks.filter((check) => check.status === "failed");
    const findings = report.findings.filter((finding) => finding.api === api && finding.operationId === operationId);
    const counts = [
      `${checks.filter((check) => check.status === "passed").length} passed`,
      ...(failed.length > 0 ? [`${failed.length} failed`] : []),
      ...(findings.length > 0 ? [plural(findings.length, "answer problem")] : []),
      ...(checks.some((check) => check.status === "skipped") ? [`${checks.filter((check) => check.status === "skipped").length} skipped`] : []),
    ];
    lines.push(`  ${operationId.padEnd(width)}  ${counts.join(", ")}`);
    for (const check of failed.slice(0, shownPerOperation)) {
      lines.push(`    ✗ ${label(check)}: ${check.reasons[0]}`);
      if (check.kind === "refusal" || check.kind === "acceptance") lines.push(`      rule: ${check.rule}`);
    }
    if (failed.length > shownPerOperation) lines.push(`    … and ${failed.length - shownPerOperation} more failed checks (--json lists them all)`);
    for (const finding of findings) lines.push(`    ✗ answer ${finding.about}: ${finding.problem} (${seen(finding)})`);
  }
  const skipped = report.checks.filter((check) => check.status === "skipped");
  const reasons = [...new Set(skipped.map((check) => check.skipped))];
  if (skipped.length > 0) {
    lines.push(
      "",
      `Not run: ${reasons.map((reason) => `${plural(skipped.filter((check) => check.skipped === reason).length, "check")} (${reason})`).join("; ")}.`,
    );
  }
  for (const [limitedApi, count] of Object.entries(report.limitedWhileKept)) {
    lines.push(
      `Note: ${limitedApi} answered 429 ${plural(count, "time")} while its declared limit was kept: the server is stricter than the contract says, or another client used the same credential.`,
    );
  }
  const ran = report.checks.filter((check) => check.status !== "skipped");
  const failedCount = report.checks.filter((check) => check.status === "failed").length;
  const checks = plural(ran.length, "check");
  const requests = `${plural(report.requests, "request")} in ${duration(report.durationMs)}`;
  const problems = report.findings.length === 1 ? "1 problem was" : `${report.findings.length} problems were`;
  lines.push(
    "",
    `Ran: ${ran.length > 0 ? kindsOf(ran) : "no check"}.`,
    passed(report)
      ? `PASSED: ${checks}, ${requests}; every answer is one the contract declares.`
      : `FAILED: ${failedCount} of ${checks} failed, and ${problems} found in the answers (${requests}).`,
  );
  return lines.join("\n");
}

/** How many checks of each kind ran, in the order they run: `1 credentials check, 178 refusals, 97 acceptances, 8 flows`. */
function kindsOf(checks: CheckResult[]): string {
  const kinds: [CheckResult["kind"], string, string][] = [
    ["credentials", "credentials check", "credentials checks"],
    ["refusal", "refusal", "refusals"],
    ["acceptance", "acceptance", "acceptances"],
    ["authentication", "authentication check", "authentication checks"],
    ["flow", "flow", "flows"],
  ];
  return kinds
    .map(([kind, one, many]) => [checks.filter((check) => check.kind === kind).length, one, many] as const)
    .filter(([count]) => count > 0)
    .map(([count, one, many]) => `${count} ${count === 1 ? one : many}`)
    .join(", ");
}

const seen = (finding: Finding) => `${plural(finding.answers, "answer")}; first in ${label(finding.firstSeenIn)}`;

/** The report as JSON, for tools: every check with its reasons, and every problem of the answers. */
export function json(report: Report, version: string): string {
  return `${JSON.stringify({ tool: "ingestion-api verify", version, passed: passed(report), ...report }, null, 2)}\n`;
}

/** XML 1.0 refuses control characters other than tab and line breaks: they are left out. */
const allowedInXml = (c: string) => (c.codePointAt(0) ?? 0) >= 0x20 || c === "\t" || c === "\n" || c === "\r";
export const xml = (text: string) =>
  [...text]
    .filter(allowedInXml)
    .join("")
    .replace(/[<>&"']/g, (c) => `&${{ "<": "lt", ">": "gt", "&": "amp", '"': "quot", "'": "apos" }[c]};`);

function testcase(name: string, className: string, failure: string | undefined, skipped: string | undefined): string {
  const open = `    <testcase name="${xml(name)}" classname="${xml(className)}"`;
  if (skipped) return `${open}><skipped message="${xml(skipped)}"/></testcase>`;
  if (failure) return `${open}><failure message="${xml(failure.split("\n")[0] ?? "")}">${xml(failure)}</failure></testcase>`;
  return `${open}/>`;
}

/**
 * JUnit XML, as CI dashboards read it: a test suite per operation, a test case per check, and one per problem of
 * the answers (failing), under the operation where it was first seen.
 */
export function junit(report: Report): string {
  const suites = [...new Set(report.checks.map((check) => `${check.api}.${check.operationId}`))].map((suite) => {
    const checks = report.checks.filter((check) => `${check.api}.${check.operationId}` === suite);
    const findings = report.findings.filter((finding) => `${finding.api}.${finding.operationId}` === suite);
    const cases = [
      ...checks.map((check: CheckResult) =>
        testcase(label(check), suite, check.status === "failed" ? [...check.reasons, `rule: ${check.rule}`].join("\n") : undefined, check.skipped),
      ),
      ...findings.map((finding) => testcase(`answer ${finding.about}: ${finding.problem}`, suite, `${finding.problem} (${seen(finding)})`, undefined)),
    ];
    const failures = checks.filter((check) => check.status === "failed").length + findings.length;
    const skipped = checks.filter((check) => check.status === "skipped").length;
    return `  <testsuite name="${xml(suite)}" tests="${cases.length}" failures="${failures}" errors="0" skipped="${skipped}">\n${cases.join("\n")}\n  </testsuite>`;
  });
  const tests = report.checks.length + report.findings.length;
  const failures = report.checks.filter((check) => check.status === "failed").length + report.findings.length;
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="ingestion-api verify" tests="${tests}" failures="${failures}" errors="0" time="${(report.durationMs / 1000).toFixed(3)}">\n${suites.join("\n")}\n</testsuites>\n`;
}
