// Runs a fleet for `npm run bench:rate-limit`: worker processes (fleet-worker.mjs) that fire their calls at the same
// moment, an outage of their Redis on a schedule, and what each reported, stopped at a deadline if they are not done.
import { fork } from "node:child_process";
import { once } from "node:events";
import { setTimeout as delay } from "node:timers/promises";
import { fileURLToPath } from "node:url";

const workerScript = fileURLToPath(new URL("fleet-worker.mjs", import.meta.url));
// How long a worker stopped at the deadline gets to say what settled before it is killed.
const lastWordMs = 1_000;

/** Forks a worker on `job`; its `ready` resolves once it can fire, its `done` on its final report. */
function forkWorker(job) {
  const child = fork(workerScript, [JSON.stringify(job)], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
  const worker = { child, report: undefined, reportedAt: undefined, exitedAt: undefined };
  const exited = once(child, "exit").then(() => {
    worker.exitedAt = performance.now();
  });
  const exitedEarly = exited.then(() => {
    throw new Error(`a fleet worker exited with code ${child.exitCode ?? child.signalCode} before it reported`);
  });
  const message = (wanted) =>
    new Promise((resolve) =>
      child.on("message", (received) => {
        if (wanted(received)) resolve(received);
      }),
    );
  child.on("message", (received) => {
    if (received.type === "report") worker.report = received;
  });
  worker.ready = Promise.race([message((received) => received.type === "ready"), exitedEarly]);
  worker.done = Promise.race([message((received) => received.type === "report" && received.finished), exitedEarly]).then(() => {
    worker.reportedAt = performance.now();
  });
  worker.exited = exited;
  // Either may never come (a worker stopped at its deadline); what failed is read from `report` instead.
  worker.ready.catch(() => {});
  worker.done.catch(() => {});
  return worker;
}

/**
 * Runs `processes` workers, each on `job`; fires them together, then runs `outage(startedAt)` if given, and
 * waits until every one reported, or `deadlineMs`. Resolves to each worker's last report (undefined if it sent none),
 * the elapsed time (the slowest worker's, or the deadline), whether all finished, and how many of those that finished
 * did not exit on their own within `exitGraceMs` of their last call. Kills what is left.
 */
export async function runFleet({ processes, job, outage, deadlineMs, exitGraceMs }) {
  const workers = Array.from({ length: processes }, () => forkWorker(job));
  try {
    await Promise.all(workers.map((worker) => worker.ready));
    const startedAt = performance.now();
    for (const { child } of workers) child.send("go");
    const outageDone = outage?.(startedAt);
    const deadline = delay(deadlineMs, "deadline", { ref: false });
    const finished = (await Promise.race([Promise.all(workers.map((worker) => worker.done)), deadline])) !== "deadline";
    if (!finished) {
      for (const worker of workers) if (worker.reportedAt === undefined && worker.child.connected) worker.child.send("report");
      await delay(lastWordMs);
    }
    await outageDone;
    await Promise.all(
      workers.map(async (worker) => {
        const patience = worker.reportedAt === undefined ? 0 : worker.reportedAt + exitGraceMs - performance.now();
        await Promise.race([worker.exited, delay(Math.max(patience, 0), undefined, { ref: false })]);
      }),
    );
    const elapsedMs = finished ? Math.max(...workers.map((worker) => worker.report.elapsedMs)) : deadlineMs;
    const lingering = workers.filter(({ reportedAt, exitedAt }) => reportedAt !== undefined && !(exitedAt <= reportedAt + exitGraceMs)).length;
    return { reports: workers.map((worker) => worker.report), elapsedMs, finished, lingering };
  } finally {
    for (const worker of workers) if (worker.exitedAt === undefined) worker.child.kill("SIGKILL");
    await Promise.all(workers.map((worker) => worker.exited));
  }
}
