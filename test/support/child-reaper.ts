// A setup file of the projects whose tests start processes: every process a test starts is killed when the test
// ends, passed or failed, with whatever it started in turn; one started outside a test (a file's beforeAll) when the
// file ends. The file's own hooks run first (vitest runs after-hooks in the reverse order of their registration, and
// a setup file registers first), so this only ends what a test left behind: a worker that never exits, a child of a
// test that timed out. scripts/test.mjs checks after the run that nothing is left at all.
import { ChildProcess } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { afterAll, afterEach, beforeEach } from "vitest";

const ofFile = new Set<ChildProcess>();
const ofTest = new Set<ChildProcess>();
let startedBy = ofFile;

// spawn, fork, exec and execFile all start their process through this method, which @types/node does not declare.
const prototype = ChildProcess.prototype as ChildProcess & { spawn(this: ChildProcess, ...args: unknown[]): unknown };
// A project that shares its modules between files (vitest's isolate: false) runs this file once per test file: each
// wraps Node's own method, never the wrapper an earlier file left, which would count its processes as that file's too.
const unwrapped = Symbol.for("ingestion-api.child-reaper.spawn");
const kept = prototype as unknown as Record<symbol, typeof prototype.spawn | undefined>;
kept[unwrapped] ??= prototype.spawn;
const spawn = kept[unwrapped];
// esbuild's service: one process for the worker's whole life, started by the first build of whichever file and shared
// by every later one (the modules are shared); it exits with the worker. Killing it with a file fails the next file's
// build ("The service is no longer running").
const sharedService = /[\\/]esbuild[\\/]bin[\\/]esbuild$|[\\/]@esbuild[\\/]/;
prototype.spawn = function (...args) {
  const started = spawn.apply(this, args);
  if (sharedService.test((args[0] as { file?: string } | undefined)?.file ?? "")) return started;
  const owners = startedBy;
  owners.add(this);
  this.once("exit", () => owners.delete(this));
  return started;
};

/**
 * Runs `start` and counts the processes it starts as the file's, not the running test's: for a server that a test
 * restarts and the file's later tests use too.
 */
export async function startedForFile<T>(start: () => Promise<T>): Promise<T> {
  const before = startedBy;
  startedBy = ofFile;
  try {
    return await start();
  } finally {
    startedBy = before;
  }
}

beforeEach(() => {
  startedBy = ofTest;
});
afterEach(() => {
  startedBy = ofFile;
  killTrees(ofTest);
});
afterAll(() => killTrees(ofFile));

/** Kills each child and every process below it, found before any is killed (an orphan's parent is init). */
function killTrees(children: Set<ChildProcess>): void {
  const roots = [...children].flatMap((child) => (child.pid === undefined ? [] : [child.pid]));
  children.clear();
  if (roots.length === 0) return;
  const childrenOf = processTree();
  for (const pid of roots.flatMap((root) => [root, ...descendantsOf(root, childrenOf)])) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // Exited meanwhile.
    }
  }
}

/** Every live process's children, by parent pid, read from /proc once. */
function processTree(): Map<number, number[]> {
  const childrenOf = new Map<number, number[]>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // The fields after the command's closing parenthesis: state, then the parent's pid.
      const parent = Number(readFileSync(`/proc/${entry}/stat`, "latin1").split(") ")[1]?.split(" ")[1]);
      childrenOf.set(parent, [...(childrenOf.get(parent) ?? []), Number(entry)]);
    } catch {
      // Gone between the listing and the read.
    }
  }
  return childrenOf;
}

/** The processes below `pid` in `childrenOf`. */
function descendantsOf(pid: number, childrenOf: Map<number, number[]>): number[] {
  const found: number[] = [];
  for (let queue = [pid]; queue.length > 0; ) {
    const below = childrenOf.get(queue.shift() as number) ?? [];
    found.push(...below);
    queue.push(...below);
  }
  return found;
}
