// node scripts/check-time-budget.mjs <step> <seconds>: fails when a CI step took longer than its budget in
// bench/time-budgets.json (twice what it took on the reference machine), so a slowdown is noticed.
// Silent when within budget: it runs after `npm test`, whose last line CI reads.
import { readFileSync } from "node:fs";
import { root } from "./lib/toolchain.mjs";

const [step, secondsArgument] = process.argv.slice(2);
const budgets = JSON.parse(readFileSync(`${root}/bench/time-budgets.json`, "utf8"));
const budget = budgets[step];
const seconds = Number(secondsArgument);
if (!budget || !Number.isFinite(seconds)) {
  console.error(`check-time-budget: usage: check-time-budget.mjs <${Object.keys(budgets).join("|")}> <seconds>`);
  process.exit(2);
}
const summary = `\`${budget.command}\` took ${seconds} s (budget ${budget.budgetSeconds} s, ${budget.measuredSeconds} s on the reference machine)`;
if (seconds > budget.budgetSeconds) {
  console.error(`check-time-budget: ${summary}; find what slowed it down, or re-measure and raise the budget in bench/time-budgets.json`);
  process.exit(1);
}
