// A child process run in the foreground of an npm script: its output is the script's, and a Ctrl-C or a kill aimed
// at the script reaches it too, so it can stop what it started (vitest its Prism servers, Stryker its runners).
import { spawn } from "node:child_process";
import { constants } from "node:os";

/** Runs `command` with inherited stdio; resolves to a shell-style exit code (128 + the signal's number if killed). */
export function runInForeground(command, args, options = {}) {
  const child = spawn(command, args, { ...options, stdio: "inherit" });
  const forward = (signal) => child.kill(signal);
  process.on("SIGINT", forward);
  process.on("SIGTERM", forward);
  return new Promise((resolve) => {
    child.on("exit", (code, signal) => {
      process.off("SIGINT", forward);
      process.off("SIGTERM", forward);
      resolve(signal ? 128 + constants.signals[signal] : (code ?? 1));
    });
  });
}
