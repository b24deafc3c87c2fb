// Finds the processes a test run left behind. The run's environment carries a mark that every process it starts
// inherits, however deep, and keeps after its parent is gone (an orphan's parent is init, so ancestry would lose it).
// Linux only: it reads /proc.
import { readdirSync, readFileSync } from "node:fs";
import { setTimeout as delay } from "node:timers/promises";

/** The name of the mark. It does not start with INGESTION_: tests that run a sample as a reader would drop those. */
export const markName = "TEST_RUN_MARK";

/** A mark no other run shares. */
export function newMark() {
  return `ingestion-api-test-${process.pid}-${Date.now()}`;
}

/** @returns {{ pid: number; command: string }[]} the live processes whose environment carries `mark`, but this one */
export function processesMarked(mark) {
  const needle = `\0${markName}=${mark}\0`;
  const found = [];
  for (const entry of readdirSync("/proc")) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    try {
      // Leading NUL: the mark must be a whole variable, wherever it stands.
      if (!`\0${readFileSync(`/proc/${pid}/environ`, "latin1")}`.includes(needle)) continue;
      // A zombie has exited: only its parent's wait is missing.
      if (/\) Z /.test(readFileSync(`/proc/${pid}/stat`, "latin1"))) continue;
      const command = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean).join(" ");
      found.push({ pid, command });
    } catch {
      // Gone between the listing and the read, or not ours to read.
    }
  }
  return found;
}

/**
 * The processes still carrying `mark` after `graceMs` (a child told to stop a moment ago may still be exiting); each
 * is then killed, so a failed run leaves nothing behind either.
 */
export async function killLeftovers(mark, graceMs = 3_000) {
  const until = Date.now() + graceMs;
  let left = processesMarked(mark);
  while (left.length > 0 && Date.now() < until) {
    await delay(100);
    left = processesMarked(mark);
  }
  for (const { pid } of left) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // Exited meanwhile.
    }
  }
  return left;
}
