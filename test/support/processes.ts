// Runs a command to its end and collects what it printed, for the tests that run a process as a user would (the
// command, a probe under --expose-gc, a sample in another language). Asynchronous, so a server this process runs
// keeps answering the command meanwhile, and several runs can overlap.
import { spawn } from "node:child_process";

export interface Collected {
  /** The exit code, or null when a signal ended it. */
  status: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  /** Empty when stderr was inherited. */
  stderr: string;
  elapsedMs: number;
}

export interface CollectOptions {
  cwd?: string;
  /** The whole environment: this process's by default. */
  env?: NodeJS.ProcessEnv;
  /** Written to its stdin, which is then closed; without it stdin is /dev/null. */
  input?: string;
  /** Killed with `killSignal` (SIGTERM by default) when it runs longer. */
  timeout?: number;
  killSignal?: NodeJS.Signals;
  /** `inherit` shows its stderr in the test's output as it comes, instead of collecting it. */
  stderr?: "pipe" | "inherit";
}

/** Runs `command` with `args`; resolves once it has exited and its output is read, rejects when it cannot start. */
export function spawnAndCollect(command: string, args: string[], { input, stderr = "pipe", ...options }: CollectOptions = {}): Promise<Collected> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...options, stdio: [input === undefined ? "ignore" : "pipe", "pipe", stderr] });
    const printed = { stdout: "", stderr: "" };
    child.stdout?.setEncoding("utf8").on("data", (chunk: string) => (printed.stdout += chunk));
    child.stderr?.setEncoding("utf8").on("data", (chunk: string) => (printed.stderr += chunk));
    child.once("error", reject);
    child.once("close", (status, signal) => resolve({ status, signal, ...printed, elapsedMs: Date.now() - started }));
    if (input !== undefined) child.stdin?.end(input);
  });
}
