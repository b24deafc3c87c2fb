// Interleaved blocks: each block runs every task once, starting one place further along the list than
// the block before, so drift in the machine's speed falls on all tasks alike. A figure is the median
// over blocks; a ratio is the median of the ratios within each block, where the drift cancels.

/** The `q` quantile of `values` (0.5: the median), interpolated between the two nearest values. */
export function quantile(values, q) {
  const sorted = [...values].sort((a, b) => a - b);
  const position = (sorted.length - 1) * q;
  const below = Math.floor(position);
  return sorted[below] + (sorted[Math.ceil(position)] - sorted[below]) * (position - below);
}

export const median = (values) => quantile(values, 0.5);

/**
 * Runs `tasks` ({ key, run: async () => figure }) in `blocks` rotated rounds; each key's figure per block.
 * `beforeEach` runs before every task: the benchmark collects garbage there, since a rotation keeps each
 * task's neighbour, and a task would otherwise pay for the garbage the one before it left (ky's and openai's
 * 80–130 KB per call fell on the SDK, which follows them).
 */
export async function interleave(blocks, tasks, beforeEach = () => {}) {
  const samples = new Map(tasks.map(({ key }) => [key, []]));
  for (let block = 0; block < blocks; block++) {
    for (let i = 0; i < tasks.length; i++) {
      const { key, run } = tasks[(block + i) % tasks.length];
      beforeEach();
      samples.get(key)[block] = await run();
    }
  }
  return samples;
}

/**
 * Like `interleave`, for `pairs` of tasks ([{ key, run }, { key, run }]) whose ratio is what counts: the two tasks
 * of a pair run back to back, the first first in even blocks and the second first in odd ones, so the ratio
 * compares measurements taken moments apart. On this shared machine its speed drifts by tens of percent within
 * minutes, far more than between two neighbouring tasks.
 */
export async function interleavePairs(blocks, pairs, beforeEach = () => {}) {
  const samples = new Map(pairs.flat().map(({ key }) => [key, []]));
  for (let block = 0; block < blocks; block++) {
    for (let i = 0; i < pairs.length; i++) {
      const pair = pairs[(block + i) % pairs.length];
      for (const { key, run } of block % 2 ? [...pair].reverse() : pair) {
        beforeEach();
        samples.get(key)[block] = await run();
      }
    }
  }
  return samples;
}

/** The key of the baseline's figure measured beside `name`'s (`${name} ${op} ${kind}`). */
export const besideKey = (name, op, kind) => `baseline ${op} ${kind} beside ${name}`;

/** `key`'s value divided by `baseKey`'s value in the same block, for each block. */
export function blockRatios(samples, key, baseKey) {
  const base = samples.get(baseKey);
  return samples.get(key).map((value, block) => value / base[block]);
}

/** The median over blocks of `key`'s value divided by `baseKey`'s value in the same block. */
export const medianRatio = (samples, key, baseKey) => median(blockRatios(samples, key, baseKey));

/**
 * Wall time of `work` and the CPU time this process spent meanwhile (user + system, every thread, garbage
 * collection included), both in microseconds. CPU time leaves out the time spent waiting for a core that other
 * work on this shared machine holds, the largest part of wall time's drift.
 */
async function wallAndCpuMicroseconds(work) {
  const cpuBefore = process.cpuUsage();
  const started = process.hrtime.bigint();
  await work();
  const wall = Number(process.hrtime.bigint() - started) / 1000;
  const { user, system } = process.cpuUsage(cpuBefore);
  return { wall, cpu: user + system };
}

/** Over `calls` calls made one after another: `wall`, the mean time of one call, and `cpu`, CPU time per call, both in microseconds. */
export async function microsecondsPerCall(call, calls) {
  const { wall, cpu } = await wallAndCpuMicroseconds(async () => {
    for (let i = 0; i < calls; i++) await call();
  });
  return { wall: wall / calls, cpu: cpu / calls };
}

/** Over `calls` calls with `inFlight` always outstanding: `wall`, completed calls per second, and `cpu`, CPU microseconds per call. */
export async function callsPerSecond(call, calls, inFlight) {
  let started = 0;
  const worker = async () => {
    while (started++ < calls) await call();
  };
  const { wall, cpu } = await wallAndCpuMicroseconds(() => Promise.all(Array.from({ length: inFlight }, worker)));
  return { wall: calls / (wall / 1e6), cpu: cpu / calls };
}

/**
 * JavaScript heap allocated per call, in bytes, over `calls` sequential calls: the growth of the used heap
 * between a full collection and the end, in a round no collection interrupted (run with --expose-gc). The
 * median of `rounds` such rounds.
 */
export async function heapBytesPerCall(call, calls, rounds) {
  const { PerformanceObserver } = await import("node:perf_hooks");
  let collections = 0;
  const observer = new PerformanceObserver((list) => {
    collections += list.getEntries().length;
  });
  observer.observe({ entryTypes: ["gc"] });
  const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
  const perCall = [];
  try {
    for (let attempt = 0; perCall.length < rounds && attempt < rounds * 10; attempt++) {
      globalThis.gc();
      await settle();
      collections = 0;
      const before = process.memoryUsage().heapUsed;
      for (let i = 0; i < calls; i++) await call();
      const after = process.memoryUsage().heapUsed;
      await settle();
      if (collections === 0) perCall.push((after - before) / calls);
    }
  } finally {
    observer.disconnect();
  }
  if (perCall.length < rounds) throw new Error("bench: a garbage collection interrupted every heap round");
  return median(perCall);
}
