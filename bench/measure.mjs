// One runtime's part of `npm run bench`, run by bench/run.mjs under each Node version (with --expose-gc):
// every contender, GET and PUT, per call and at 64 in flight, in interleaved blocks against one canned loopback
// server, then the heap allocated per call. Sends { node, samples, heap } to the parent and exits.
import { deepStrictEqual } from "node:assert";
import { fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import { callsPerSecond, heapBytesPerCall, interleave, microsecondsPerCall } from "./blocks.mjs";
import { createContenders } from "./contenders.mjs";
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
  const tasks = contenders.flatMap(({ name, calls }) =>
    ["GET", "PUT"].flatMap((op) => {
      const call = calls[op.toLowerCase()];
      return [
        { key: `${name} ${op} µs`, run: () => microsecondsPerCall(call, plan.calls) },
        { key: `${name} ${op} calls/s`, run: () => callsPerSecond(call, plan.throughputCalls, plan.inFlight) },
      ];
    }),
  );
  const samples = await interleave(plan.blocks, tasks, () => globalThis.gc());
  const heap = {};
  for (const { name, calls } of contenders) {
    for (const op of ["GET", "PUT"]) heap[`${name} ${op}`] = await heapBytesPerCall(calls[op.toLowerCase()], plan.heapCalls, plan.heapRounds);
  }
  process.send({ node: process.version, names: contenders.map(({ name }) => name), samples: Object.fromEntries(samples), heap });
} finally {
  server.disconnect();
  process.disconnect();
}
