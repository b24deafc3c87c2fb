// Turns the benchmark's medians into the results table, the target verdicts and bench/RESULTS.md.
import { cpus, loadavg, release, totalmem } from "node:os";

const fixed = (value, digits) => value.toFixed(digits);

export function machine() {
  const cores = cpus();
  return `${cores[0]?.model.trim() ?? "unknown CPU"}, ${cores.length} cores, ${Math.round(totalmem() / 2 ** 30)} GiB, Linux ${release()}; Node ${process.version}`;
}

export const load = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(" ");

/**
 * Rows and verdicts, as Markdown. `figures.value(key)` is a task's median, `figures.toRaw(name, op, kind)`
 * its median ratio to raw fetch; `targets` lists { what, measured, limit, met }.
 */
export function renderResults({ contenders, figures, targets, extras, settings }) {
  const lines = [
    `| client | GET µs/call | × raw | PUT µs/call | × raw | GET calls/s, 64 in flight | × raw | PUT calls/s, 64 in flight | × raw |`,
    `|---|--:|--:|--:|--:|--:|--:|--:|--:|`,
  ];
  for (const name of contenders) {
    const cells = [];
    for (const kind of ["µs", "calls/s"]) {
      for (const op of ["GET", "PUT"]) {
        cells.push(fixed(figures.value(`${name} ${op} ${kind}`), kind === "µs" ? 1 : 0), `${figures.toRaw(name, op, kind).toFixed(2)}×`);
      }
    }
    lines.push(`| ${name} | ${cells.join(" | ")} |`);
  }
  lines.push("", "| target | measured | limit | verdict |", "|---|--:|--:|---|");
  for (const { what, measured, limit, met } of targets) lines.push(`| ${what} | ${measured} | ${limit} | ${met ? "met" : "**MISSED**"} |`);
  lines.push("", "| other figures | median |", "|---|--:|");
  for (const [what, value] of extras) lines.push(`| ${what} | ${value} |`);
  lines.push("", settings);
  return lines.join("\n");
}
