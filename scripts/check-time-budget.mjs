// node scripts/check-time-budget.mjs <step> -- <command...>: runs a CI step and fails when it cost more than its
// budget in bench/time-budgets.json, so a slowdown is noticed. The budget is on CPU time (the step's processes,
// all cores summed), which other work on a shared machine barely moves, where wall time varies severalfold;
// wall time gets a loose cap of its own, so a step that starts waiting (a sleep, a timeout) is noticed too.
// Silent when within budget: it wraps `npm test`, whose last line CI reads.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { root } from "./lib/toolchain.mjs";

const [step, separator, command, ...args] = process.argv.slice(2);
// TIME_BUDGETS_FILE points at other budgets: the check's own test uses tiny ones.
const budgets = JSON.parse(readFileSync(process.env.TIME_BUDGETS_FILE ?? `${root}/bench/time-budgets.json`, "utf8"));
const budget = budgets[step];
if (!budget || separator !== "--" || !command) {
  console.error(`check-time-budget: usage: check-time-budget.mjs <${Object.keys(budgets).join("|")}> -- <command...>`);
  process.exit(2);
}

// CPU seconds of the processes this one has waited for, and theirs in turn (Linux: cutime and cstime of
// /proc/self/stat, in clock ticks of 1/100 s).
const childCpuSeconds = () => {
  const fields = readFileSync("/proc/self/stat", "utf8").split(") ")[1].split(" ");
  return (Number(fields[13]) + Number(fields[14])) / 100;
};

const cpuBefore = childCpuSeconds();
const started = performance.now();
const run = spawnSync(command, args, { cwd: root, stdio: "inherit" });
const wallSeconds = Math.round((performance.now() - started) / 100) / 10;
const cpuSeconds = Math.round((childCpuSeconds() - cpuBefore) * 10) / 10;
if (run.error) throw run.error;
if (run.status !== 0) process.exit(run.status ?? 1);

const over = [];
if (cpuSeconds > budget.cpuBudgetSeconds) over.push(`${cpuSeconds} s of CPU (budget ${budget.cpuBudgetSeconds} s, ${budget.measuredCpuSeconds} s measured)`);
if (wallSeconds > budget.wallCapSeconds) over.push(`${wallSeconds} s of wall time (cap ${budget.wallCapSeconds} s, ${budget.measuredWallSeconds} s measured)`);
if (over.length > 0) {
  console.error(
    `check-time-budget: \`${[command, ...args].join(" ")}\` took ${over.join(" and ")}; find what slowed it down, or re-measure in bench/time-budgets.json`,
  );
  process.exit(1);
}
// The figures of every run, so that re-measuring the budgets needs no other tool.
console.log(
  `check-time-budget: ${step} took ${cpuSeconds} s of CPU (budget ${budget.cpuBudgetSeconds} s) and ${wallSeconds} s of wall time (cap ${budget.wallCapSeconds} s)`,
);
