// One runtime's part of `npm run bench`, run by bench/run.mjs under each Node version (with --expose-gc):
// every contender, GET and PUT, per call and at 64 in flight, in interleaved blocks against one canned loopback
// server, then the heap allocated per call. Sends { node, names, samples: { wall, cpu }, heap } to the parent and
// exits: `wall` holds each task's µs/call or calls/s per block, `cpu` its CPU µs per call in the same blocks.
import { deepStrictEqual } from "node:assert";
import { fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import { besideKey, callsPerSecond, heapBytesPerCall, interleavePairs, microsecondsPerCall } from "./blocks.mjs";
import { baseline, createContenders } from "./contenders.mjs";
import { settings } from "./fixtures.mjs";

const plan = JSON.parse(process.argv[2]);
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
  // Each contender beside its own run of the baseline: the ratios the targets judge compare neighbours in time.
  const taskOf = (key, calls, kind) => ({
    key,
    run: kind === "µs" ? () => microsecondsPerCall(calls, plan.calls) : () => callsPerSecond(calls, plan.throughputCalls, plan.inFlight),
  });
  const baselineCalls = contenders.find(({ name }) => name === baseline).calls;
  const pairs = contenders
    .filter(({ name }) => name !== baseline)
    .flatMap(({ name, calls }) =>
      ["GET", "PUT"].flatMap((op) =>
        ["µs", "calls/s"].map((kind) => [
          taskOf(besideKey(name, op, kind), baselineCalls[op.toLowerCase()], kind),
          taskOf(`${name} ${op} ${kind}`, calls[op.toLowerCase()], kind),
        ]),
      ),
    );
  const figures = await interleavePairs(plan.blocks, pairs, () => globalThis.gc());
  const part = (field) => Object.fromEntries([...figures].map(([key, values]) => [key, values.map((value) => value[field])]));
  const heap = {};
  for (const { name, calls } of contenders) {
    for (const op of ["GET", "PUT"]) heap[`${name} ${op}`] = await heapBytesPerCall(calls[op.toLowerCase()], plan.heapCalls, plan.heapRounds);
  }
  process.send({ node: process.version, names: contenders.map(({ name }) => name), samples: { wall: part("wall"), cpu: part("cpu") }, heap });
} finally {
  server.disconnect();
  process.disconnect();
}
