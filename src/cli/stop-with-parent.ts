// How a server the package's command starts (the sandbox, the docs) stops with whoever started it, so a test
// runner or a script never leaves one behind: its stdin pipe closing, or one of the processes that started it gone.
import { fstatSync, readFileSync } from "node:fs";

/**
 * The processes that started it, nearest first: its parent and, where /proc tells (Linux), the ones above it as
 * long as each is a launcher (`sh`, npm's `npm exec` and `npm run`), up to the first that is not. `npx` runs the
 * command under `sh -c`, which outlives an `npx` stopped with SIGTERM without passing the signal on, so the parent
 * alone is not enough; a script that started it (or a test runner) is watched, but not whatever started the script,
 * so a sandbox a script keeps running in the background lives as long as the script.
 */
function ancestors(): number[] {
  const found = [process.ppid];
  while (found.length < 4) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${found.at(-1)}/stat`, "utf8");
    } catch {
      break;
    }
    // "pid (comm) state ppid ...": comm may hold spaces and parentheses, so read after the last ")".
    const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
    const parent = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    if (!isLauncher(name) || !(parent > 1)) break;
    found.push(parent);
  }
  return found;
}

/** A process that only runs another: a shell of `sh -c`, or npm running a package's command or a script. */
const isLauncher = (name: string) => name === "sh" || name === "dash" || /^npm (exec|run|x)\b|^npx\b/.test(name);

/** Whether a process still exists (signal 0 checks without sending anything). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Closes the command's servers and exits 0, once, on Ctrl-C, SIGTERM or SIGHUP, and when what started it goes
 * away: its stdin pipe closing, or one of the processes that started it gone.
 */
export function stopOnExit(close: () => Promise<unknown>): void {
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    close().then(() => process.exit(0));
  };
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.on(signal, stop);
  stopWithParent(stop);
}

/** Stops with the processes that started it: its stdin pipe closing, or one of them gone. */
function stopWithParent(stop: () => void): void {
  const stdin = fstatSync(0);
  // A pipe from the starter (a child process's stdin is a socket pair): it closes when the starter goes.
  if (stdin.isFIFO() || stdin.isSocket()) process.stdin.on("end", stop).on("close", stop).resume();
  const watched = ancestors();
  setInterval(() => {
    if (!watched.every(alive)) stop();
  }, 500).unref();
}
