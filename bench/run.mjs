// npm run bench: what the SDK costs per call on top of the network, against raw fetch and bare
// openapi-fetch, on one canned loopback server; plus validation, import time and bundle size.
// Prints the table and the target verdicts and writes bench/RESULTS.md (exit 1 if a target is missed).
// `--quick` (CI) runs a few hundred calls to check that the benchmark works, judges nothing, writes nothing.

import { deepStrictEqual } from "node:assert";
import { fork } from "node:child_process";
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { callsPerSecond, interleave, median, medianRatio, microsecondsPerCall } from "./blocks.mjs";
import { bundleSizes } from "./bundle-size.mjs";
import { createContenders } from "./contenders.mjs";
import { settings } from "./fixtures.mjs";
import { importMilliseconds } from "./import-time.mjs";
import { load, machine, renderResults } from "./report.mjs";
import { validationTasks } from "./validation-time.mjs";

const quick = process.argv.includes("--quick");
const plan = quick
  ? { blocks: 2, calls: 50, throughputCalls: 128, inFlight: 64, warmup: 20, imports: 2, validations: 10_000 }
  : { blocks: 30, calls: 400, throughputCalls: 1600, inFlight: 64, warmup: 2000, imports: 21, validations: 100_000 };
const loadBefore = load();

const server = fork(fileURLToPath(new URL("canned-server.mjs", import.meta.url)), { stdio: "inherit" });
const { port } = await new Promise((resolve, reject) => server.once("message", resolve).once("error", reject));
try {
  const contenders = await createContenders(`http://127.0.0.1:${port}`);
  // Every contender must get the right answer before it is timed.
  for (const { name, calls } of contenders) {
    for (const op of ["get", "put"]) deepStrictEqual(await calls[op](), settings, `${name} ${op} returned something else`);
  }
  for (const { calls } of contenders) {
    for (const op of ["get", "put"]) {
      await microsecondsPerCall(calls[op], plan.warmup);
      await callsPerSecond(calls[op], plan.warmup, plan.inFlight);
    }
  }

  const tasks = contenders.flatMap(({ name, calls }) =>
    ["GET", "PUT"].flatMap((op) => {
      const call = calls[op.toLowerCase()];
      return [
        { key: `${name} ${op} µs`, run: () => microsecondsPerCall(call, plan.calls) },
        { key: `${name} ${op} calls/s`, run: () => callsPerSecond(call, plan.throughputCalls, plan.inFlight) },
      ];
    }),
  );
  const samples = await interleave(plan.blocks, [...tasks, ...validationTasks(plan.validations)]);
  const importSamples = await interleave(plan.imports, [
    { key: "openapi-fetch", run: async () => importMilliseconds("openapi-fetch") },
    { key: "SDK", run: async () => importMilliseconds("./dist/index.js") },
  ]);
  const [size] = bundleSizes();

  const names = contenders.map(({ name }) => name);
  const [raw, rawWithTimeout, , sdk] = names;
  const figures = {
    value: (key) => median(samples.get(key)),
    toRaw: (name, op, kind) => medianRatio(samples, `${name} ${op} ${kind}`, `${raw} ${op} ${kind}`),
  };
  const perCall = (op) => figures.toRaw(sdk, op, "µs");
  const throughput = (op) => figures.toRaw(sdk, op, "calls/s");
  const bodyMicroseconds = figures.value("validate settings body");
  const importRatio = medianRatio(importSamples, "SDK", "openapi-fetch");
  const targets = [
    ...["GET", "PUT"].map((op) => ({ what: `${sdk}, ${op} per call`, measured: `${perCall(op).toFixed(2)}× raw`, limit: "≤ 1.10×", met: perCall(op) <= 1.1 })),
    ...["GET", "PUT"].map((op) => ({
      what: `${sdk}, ${op} calls/s at ${plan.inFlight} in flight`,
      measured: `${throughput(op).toFixed(2)}× raw`,
      limit: "≥ 0.90×",
      met: throughput(op) >= 0.9,
    })),
    { what: "validation of a settings body", measured: `${bodyMicroseconds.toFixed(2)} µs`, limit: "≤ 2 µs", met: bodyMicroseconds <= 2 },
    { what: "import of dist/index.js", measured: `${importRatio.toFixed(2)}× openapi-fetch`, limit: "≤ 1.50×", met: importRatio <= 1.5 },
    { what: size.name, measured: `${(size.size / 1000).toFixed(2)} kB`, limit: `≤ ${(size.sizeLimit / 1000).toFixed(2)} kB`, met: size.passed },
  ];
  const overTimeout = (op, kind) => medianRatio(samples, `${sdk} ${op} ${kind}`, `${rawWithTimeout} ${op} ${kind}`).toFixed(2);
  const extras = [
    [`${sdk} against ${rawWithTimeout}, per call (GET, PUT)`, `${overTimeout("GET", "µs")}×, ${overTimeout("PUT", "µs")}×`],
    [`${sdk} against ${rawWithTimeout}, calls/s (GET, PUT)`, `${overTimeout("GET", "calls/s")}×, ${overTimeout("PUT", "calls/s")}×`],
    ["validation of the path parameters", `${figures.value("validate path parameters").toFixed(2)} µs`],
    ["`await import()` of openapi-fetch, fresh process", `${median(importSamples.get("openapi-fetch")).toFixed(1)} ms`],
    ["`await import()` of dist/index.js, fresh process", `${median(importSamples.get("SDK")).toFixed(1)} ms`],
  ];
  const runSettings =
    `${plan.blocks} interleaved blocks of ${plan.calls} sequential calls and ${plan.throughputCalls} calls at ${plan.inFlight} in flight per figure; ` +
    `${plan.imports} fresh processes per import; ${plan.validations} validations per block. ` +
    `${machine()}; load average ${loadBefore} before, ${load()} after.`;
  const table = renderResults({ contenders: names, figures, targets, extras, settings: runSettings });
  const missed = targets.filter(({ met }) => !met).length;
  console.log(table);

  if (quick) {
    console.log(`bench: quick run of every contender finished (${missed} of ${targets.length} targets missed, not judged in quick mode)`);
  } else {
    const resultsFile = fileURLToPath(new URL("RESULTS.md", import.meta.url));
    writeFileSync(
      resultsFile,
      `# Benchmark results\n\nWritten by \`npm run bench\` on ${new Date().toISOString().slice(0, 10)}. Budgets and method: README, "Performance".\n\n${table}\n`,
    );
    console.log(`bench: ${targets.length - missed} of ${targets.length} targets met; wrote bench/RESULTS.md`);
    process.exitCode = missed > 0 ? 1 : 0;
  }
} finally {
  server.disconnect();
}
