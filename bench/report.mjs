// Turns one runtime's samples into its tables and target verdicts, as Markdown for the console and bench/RESULTS.md.
// The targets judge wall-clock ratios, as issue 21 states them; the CPU time per call stands beside each figure.
import { cpus, loadavg, release, totalmem } from "node:os";
import { besideKey, blockRatios, median, medianRatio, quantile } from "./blocks.mjs";
import { baseline, peerNames, sdkName, selfCheckName } from "./contenders.mjs";

const ops = ["GET", "PUT"];
/** How far a peer may be ahead of the SDK, in ratio to the baseline, before the SDK counts as behind it. */
const peerMargin = 0.05;
/** The share of the baseline's calls per second the SDK must reach with 64 in flight. */
const inFlightFloor = 0.9;
/** The most heap the SDK may allocate per call above raw fetch. */
const heapMarginBytes = 6 * 1024;

export function machine() {
  const cores = cpus();
  return `${cores[0]?.model.trim() ?? "unknown CPU"}, ${cores.length} cores, ${Math.round(totalmem() / 2 ** 30)} GiB, Linux ${release()}`;
}

export const load = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(" ");

// Heap is measured over sequential calls, so its columns sit in the one-call-at-a-time table.
const kinds = {
  µs: { label: "µs/call", title: "One call at a time", wallLabel: "µs/call", digits: 1, faster: -1, heapBeside: true },
  "calls/s": { label: "calls/s, 64 in flight", title: "64 calls in flight", wallLabel: "calls/s", digits: 0, faster: 1, heapBeside: false },
};

/** `name`'s figure in `series` (samples.wall or samples.cpu) over the baseline's measured beside it, the median over blocks; the baseline's own is 1. */
function toBaseline(series, name, op, kind) {
  return name === baseline ? 1 : medianRatio(series, `${name} ${op} ${kind}`, besideKey(name, op, kind));
}

/** `name`'s figure in `series` over `to`'s: a ratio between two contenders goes through the baseline each was measured beside. */
const ratio = (series, name, op, kind, to = baseline) => toBaseline(series, name, op, kind) / toBaseline(series, to, op, kind);

/** `name`'s figure in `series` in one block, the median over blocks: the baseline's over all its runs beside the others. */
function figure(series, name, op, kind) {
  if (name !== baseline) return median(series.get(`${name} ${op} ${kind}`));
  const beside = besideKey("", op, kind);
  return median([...series].filter(([key]) => key.startsWith(beside)).flatMap(([, values]) => values));
}

/** How far the SDK's per-block ratios to the baseline beside it move within the run: their interquartile range, wall and CPU, per figure. */
function ratioSpreads(samples) {
  const interquartileRange = (values) => quantile(values, 0.75) - quantile(values, 0.25);
  return Object.keys(kinds).flatMap((kind) =>
    ops.map((op) => {
      const spread = (series) => interquartileRange(blockRatios(series, `${sdkName} ${op} ${kind}`, besideKey(sdkName, op, kind)));
      return { figure: `${op} ${kinds[kind].label}`, wall: spread(samples.wall), cpu: spread(samples.cpu) };
    }),
  );
}

/** The target verdicts of one runtime, `samples` being { wall, cpu }: { targets: { what, measured, limit, met }[], notes: string[] }. */
export function judgeRuntime({ names, samples, heap, judged }) {
  const wall = (name, op, kind, to) => ratio(samples.wall, name, op, kind, to);
  const cpu = (name, op, kind, to) => ratio(samples.cpu, name, op, kind, to);
  const verdict = (met) => (judged ? met : undefined);
  const targets = [];
  for (const op of ops) {
    const throughput = wall(sdkName, op, "calls/s");
    targets.push({
      what: `${sdkName}, ${op} calls/s at 64 in flight`,
      measured: `${throughput.toFixed(2)}× baseline (CPU ${cpu(sdkName, op, "calls/s").toFixed(2)}×)`,
      limit: `≥ ${inFlightFloor.toFixed(2)}×`,
      met: verdict(throughput >= inFlightFloor),
    });
  }
  for (const kind of Object.keys(kinds)) {
    for (const op of ops) {
      const { faster } = kinds[kind];
      const sdk = wall(sdkName, op, kind);
      const peers = peerNames.filter((name) => names.includes(name)).map((name) => ({ name, value: wall(name, op, kind) }));
      // The peer furthest ahead: the fastest per call, the most calls per second.
      const best = peers.reduce((a, b) => (faster * (b.value - a.value) > 0 ? b : a));
      const ahead = faster * (best.value - sdk);
      targets.push({
        what: `no peer ahead of the SDK, ${op} ${kinds[kind].label}`,
        measured: `best ${best.name} ${best.value.toFixed(2)}× against ${sdk.toFixed(2)}× (CPU ${cpu(best.name, op, kind).toFixed(2)}× against ${cpu(sdkName, op, kind).toFixed(2)}×)`,
        limit: `ahead ≤ ${peerMargin}`,
        met: verdict(ahead <= peerMargin),
      });
    }
  }
  for (const op of ops) {
    const above = heap[`${sdkName} ${op}`] - heap[`raw fetch ${op}`];
    targets.push({
      what: `heap per call above raw fetch, ${op}`,
      measured: `${(above / 1024).toFixed(1)} KB`,
      limit: `≤ ${heapMarginBytes / 1024} KB`,
      met: verdict(above <= heapMarginBytes),
    });
  }
  // How much of the SDK's gap to raw fetch is the signal alone: raw fetch + AbortController/timer's gap over the SDK's.
  const notes = [];
  for (const kind of Object.keys(kinds)) {
    const shares = ops.map((op) => {
      const gap = (name) => kinds[kind].faster * (1 - wall(name, op, kind, "raw fetch"));
      const sdkGap = gap(sdkName);
      const signalGap = gap(baseline);
      const share = sdkGap > 0 ? `${Math.round((100 * signalGap) / sdkGap)}%` : "no gap";
      return `${op} ${share} (SDK ${wall(sdkName, op, kind, "raw fetch").toFixed(2)}×, signal alone ${wall(baseline, op, kind, "raw fetch").toFixed(2)}× raw fetch)`;
    });
    notes.push(`Share of the SDK's gap to raw fetch that the per-attempt signal and timer alone cost, ${kinds[kind].label}: ${shares.join("; ")}.`);
  }
  if (names.includes(selfCheckName)) {
    const figures = Object.keys(kinds).flatMap((kind) => ops.map((op) => `${op} ${kinds[kind].label} ${wall(selfCheckName, op, kind).toFixed(2)}×`));
    notes.push(
      `The method's own error in this run: the baseline measured against itself, as a contender (A/A), reads ${figures.join("; ")} ` +
        "where an exact method would read 1.00×; a ratio that close to its limit is within the error.",
    );
  }
  const spreads = ratioSpreads(samples);
  const wallOverCpu = median(spreads.map(({ wall, cpu }) => wall / cpu));
  notes.push(
    `How far the SDK's per-block ratio to the baseline moves within this run (interquartile range over blocks, wall / CPU): ` +
      `${spreads.map(({ figure, wall, cpu }) => `${figure} ${wall.toFixed(3)} / ${cpu.toFixed(3)}`).join("; ")}; ` +
      `the wall ratio spreads ${wallOverCpu.toFixed(1)}× as far as the CPU ratio (median over the four).`,
  );
  return { targets, notes, spreads };
}

/** One runtime's section: a table per kind of run, the verdicts (or "reported" where not judged), the notes. */
export function renderRuntime({ node, names, samples, heap, verdicts, plan, seconds }) {
  const lines = [`### Node ${node}${verdicts.targets[0].met === undefined ? " (reported, not judged)" : ""}`, ""];
  for (const [kind, { title, wallLabel, digits, heapBeside }] of Object.entries(kinds)) {
    const columns = ops.flatMap((op) => [`${op} ${wallLabel}`, "× base", `${op} CPU µs/call`, "CPU × base"]);
    if (heapBeside) columns.push("heap/call GET", "PUT");
    lines.push(`${title}:`, "", `| client | ${columns.join(" | ")} |`, `|---|${columns.map(() => "--:").join("|")}|`);
    for (const name of names) {
      const cells = ops.flatMap((op) => [
        figure(samples.wall, name, op, kind).toFixed(digits),
        `${toBaseline(samples.wall, name, op, kind).toFixed(2)}×`,
        figure(samples.cpu, name, op, kind).toFixed(1),
        `${toBaseline(samples.cpu, name, op, kind).toFixed(2)}×`,
      ]);
      if (heapBeside) cells.push(...ops.map((op) => `${(heap[`${name} ${op}`] / 1024).toFixed(1)} KB`));
      lines.push(`| ${name} | ${cells.join(" | ")} |`);
    }
    lines.push("");
  }
  lines.push("| target (wall-clock ratios; CPU beside) | measured | limit | verdict |", "|---|--:|--:|---|");
  for (const { what, measured, limit, met } of verdicts.targets) {
    lines.push(`| ${what} | ${measured} | ${limit} | ${met === undefined ? "reported" : met ? "met" : "**MISSED**"} |`);
  }
  lines.push("", ...verdicts.notes.flatMap((note) => [note, ""]));
  lines.push(
    `µs/call and calls/s are wall-clock; CPU µs/call is the client process's CPU time per call (user + system, \`process.cpuUsage\`; ` +
      `the server runs in a process of its own), lower is cheaper in both tables. × base and CPU × base: median of per-block ratios to ` +
      `${baseline}, run right beside each contender. ${plan.blocks} interleaved blocks of ${plan.calls} sequential calls and ` +
      `${plan.throughputCalls} calls at ${plan.inFlight} in flight per figure; heap: median of ${plan.heapRounds} rounds of ` +
      `${plan.heapCalls} calls with no collection. ${Math.round(seconds)} s.`,
  );
  return lines.join("\n");
}
