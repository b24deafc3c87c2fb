// Runs `npm start` (scripts/start.mjs) as a child process on free ports, as a user would, for the docs tests.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { once } from "node:events";
import { freePort } from "../../scripts/lib/mock-servers.mjs";
import { root } from "../../scripts/lib/toolchain.mjs";

export interface NpmStart {
  child: ChildProcess;
  docsUrl: string;
  ports: { docs: number; management: number; alerts: number; sandbox: number };
  output: () => string;
}

/** `npm start`, or with `["--mock"]` `npm run mock`. */
export async function runNpmStart(args: string[] = []): Promise<NpmStart> {
  const ports = { docs: await freePort(), management: await freePort(), alerts: await freePort(), sandbox: await freePort() };
  const child = spawn(process.execPath, ["scripts/start.mjs", ...args], {
    cwd: root,
    env: {
      ...process.env,
      DOCS_PORT: String(ports.docs),
      MANAGEMENT_MOCK_PORT: String(ports.management),
      ALERTS_MOCK_PORT: String(ports.alerts),
      SANDBOX_PORT: String(ports.sandbox),
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
  const started = { child, docsUrl: `http://127.0.0.1:${ports.docs}`, ports, output: () => output };
  const deadline = Date.now() + 90_000;
  while (!output.includes("Ctrl-C stops everything.")) {
    if (child.exitCode !== null || Date.now() > deadline) {
      await stopNpmStart(started);
      throw new Error(`npm start did not become ready:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return started;
}

/** Stops `npm start` as Ctrl-C would (SIGKILL only if it hangs, which would skip its cleanup), and resolves to its exit code. */
export async function stopNpmStart({ child }: NpmStart): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
  const exited = once(child, "exit");
  child.kill("SIGINT");
  const hung = setTimeout(() => child.kill("SIGKILL"), 10_000);
  const [code] = (await exited) as [number | null];
  clearTimeout(hung);
  return code;
}

/** Process ids of the running Prism processes that `parent` started (they listen on ports of their own, behind its guards). */
export function prismsStartedBy(parent: number): number[] {
  const processes = execFileSync("ps", ["-eo", "pid=,ppid=,args="], { encoding: "utf8" }).split("\n");
  return processes.flatMap((line) => {
    const [pid, ppid, ...args] = line.trim().split(/\s+/);
    return Number(ppid) === parent && args.join(" ").includes("prism-cli") ? [Number(pid)] : [];
  });
}

/** Those of these processes that still run. */
export function stillRunning(pids: number[]): number[] {
  return pids.filter((pid) => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  });
}

/** Command lines of running sandboxes listening on this port. */
export function sandboxOnPort(port: number): string[] {
  const processes = execFileSync("ps", ["-eo", "args"], { encoding: "utf8" }).split("\n");
  return processes.filter((line) => line.includes("cli.js sandbox") && line.includes(`--port ${port} `));
}
