// Turns one runtime's samples into its table and target verdicts, as Markdown for the console and bench/RESULTS.md.
import { cpus, loadavg, release, totalmem } from "node:os";
import { besideKey, median, medianRatio } from "./blocks.mjs";
import { baseline, peerNames, sdkName } from "./contenders.mjs";

const ops = ["GET", "PUT"];
/** How far a peer may be ahead of the SDK, in ratio to the baseline, before the SDK counts as slower. */
const peerMargin = 0.03;
/** The most heap the SDK may allocate per call above raw fetch. */
const heapMarginBytes = 8 * 1024;

export function machine() {
  const cores = cpus();
  return `${cores[0]?.model.trim() ?? "unknown CPU"}, ${cores.length} cores, ${Math.round(totalmem() / 2 ** 30)} GiB, Linux ${release()}`;
}

export const load = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(" ");

const kinds = { µs: { label: "µs/call", digits: 1, faster: -1 }, "calls/s": { label: "calls/s, 64 in flight", digits: 0, faster: 1 } };

/** `name`'s figure divided by the baseline's measured beside it, the median over blocks; the baseline's own is 1. */
function toBaseline(samples, name, op, kind) {
  return name === baseline ? 1 : medianRatio(samples, `${name} ${op} ${kind}`, besideKey(name, op, kind));
}

/** `name`'s figure in one block, the median over blocks: the baseline's over all its runs beside the others. */
function figure(samples, name, op, kind) {
  if (name !== baseline) return median(samples.get(`${name} ${op} ${kind}`));
  const beside = besideKey("", op, kind);
  return median([...samples].filter(([key]) => key.startsWith(beside)).flatMap(([, values]) => values));
}

/** The target verdicts of one runtime: { targets: { what, measured, limit, met }[], notes: string[] }. */
export function judgeRuntime({ names, samples, heap, judged }) {
  // A ratio between two contenders goes through the baseline each was measured beside.
  const ratio = (name, op, kind, to = baseline) => toBaseline(samples, name, op, kind) / toBaseline(samples, to, op, kind);
  const verdict = (met) => (judged ? met : undefined);
  const targets = [];
  for (const op of ops) {
    const perCall = ratio(sdkName, op, "µs");
    targets.push({ what: `${sdkName}, ${op} per call`, measured: `${perCall.toFixed(2)}× baseline`, limit: "≤ 1.05×", met: verdict(perCall <= 1.05) });
  }
  for (const op of ops) {
    const throughput = ratio(sdkName, op, "calls/s");
    targets.push({
      what: `${sdkName}, ${op} calls/s at 64 in flight`,
      measured: `${throughput.toFixed(2)}× baseline`,
      limit: "≥ 0.95×",
      met: verdict(throughput >= 0.95),
    });
  }
  for (const kind of Object.keys(kinds)) {
    for (const op of ops) {
      const { faster } = kinds[kind];
      const sdk = ratio(sdkName, op, kind);
      const peers = peerNames.filter((name) => names.includes(name)).map((name) => ({ name, value: ratio(name, op, kind) }));
      // The peer furthest ahead: the fastest per call, the most calls per second.
      const best = peers.reduce((a, b) => (faster * (b.value - a.value) > 0 ? b : a));
      const ahead = faster * (best.value - sdk);
      targets.push({
        what: `no peer ahead of the SDK, ${op} ${kinds[kind].label}`,
        measured: `best ${best.name} ${best.value.toFixed(2)}× against ${sdk.toFixed(2)}×`,
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
      limit: "≤ 8 KB",
      met: verdict(above <= heapMarginBytes),
    });
  }
  // How much of the SDK's gap to raw fetch is the signal alone: raw fetch + AbortController/timer's gap over the SDK's.
  const notes = [];
  for (const kind of Object.keys(kinds)) {
    const shares = ops.map((op) => {
      const gap = (name) => kinds[kind].faster * (1 - ratio(name, op, kind, "raw fetch"));
      const sdkGap = gap(sdkName);
      const signalGap = gap(baseline);
      const share = sdkGap > 0 ? `${Math.round((100 * signalGap) / sdkGap)}%` : "no gap";
      return `${op} ${share} (SDK ${ratio(sdkName, op, kind, "raw fetch").toFixed(2)}×, signal alone ${ratio(baseline, op, kind, "raw fetch").toFixed(2)}× raw fetch)`;
    });
    notes.push(`Share of the SDK's gap to raw fetch that the per-attempt signal and timer alone cost, ${kinds[kind].label}: ${shares.join("; ")}.`);
  }
  return { targets, notes };
}

/** One runtime's section: the table, the verdicts (or "reported" where not judged), the notes. */
export function renderRuntime({ node, names, samples, heap, verdicts, plan, seconds }) {
  const lines = [
    `## Node ${node}${verdicts.targets[0].met === undefined ? " (reported, not judged)" : ""}`,
    "",
    "| client | GET µs/call | × base | PUT µs/call | × base | GET calls/s, 64 in flight | × base | PUT calls/s, 64 in flight | × base | heap/call GET | PUT |",
    "|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|",
  ];
  for (const name of names) {
    const cells = [];
    for (const kind of Object.keys(kinds)) {
      for (const op of ops) {
        cells.push(figure(samples, name, op, kind).toFixed(kinds[kind].digits), `${toBaseline(samples, name, op, kind).toFixed(2)}×`);
      }
    }
    for (const op of ops) cells.push(`${(heap[`${name} ${op}`] / 1024).toFixed(1)} KB`);
    lines.push(`| ${name} | ${cells.join(" | ")} |`);
  }
  lines.push("", "| target | measured | limit | verdict |", "|---|--:|--:|---|");
  for (const { what, measured, limit, met } of verdicts.targets) {
    lines.push(`| ${what} | ${measured} | ${limit} | ${met === undefined ? "reported" : met ? "met" : "**MISSED**"} |`);
  }
  lines.push("", ...verdicts.notes.flatMap((note) => [note, ""]));
  lines.push(
    `× base: median of per-block ratios to ${baseline}, run right beside each contender. ${plan.blocks} interleaved blocks of ${plan.calls} sequential calls and ` +
      `${plan.throughputCalls} calls at ${plan.inFlight} in flight per figure; heap: median of ${plan.heapRounds} rounds of ` +
      `${plan.heapCalls} calls with no collection. ${Math.round(seconds)} s.`,
  );
  return lines.join("\n");
}
