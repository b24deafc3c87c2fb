// Vitest globalSetup: one Prism mock server per OpenAPI bundle; tests get their URLs with inject().
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { createServer } from "node:net";
import { join } from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    managementUrl: string;
    alertsUrl: string;
  }
}

const REPO_ROOT = fileURLToPath(new URL("..", import.meta.url));
const PRISM_CLI = join(REPO_ROOT, "node_modules/@stoplight/prism-cli/dist/index.js");
const READY_TIMEOUT_MS = 20_000;
const POLL_INTERVAL_MS = 50;
const KILL_GRACE_MS = 2_000;
const OUTPUT_LIMIT = 64 * 1024;

interface PrismServer {
  bundle: string;
  url: string;
  child: ChildProcess;
  output: string;
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const servers: PrismServer[] = [];

  // The process is going away and cannot wait to escalate, so kill outright.
  const killNow = (): void => {
    for (const { child } of servers) if (isRunning(child)) child.kill("SIGKILL");
  };
  // Ctrl-C skips teardown: kill Prism, then die of the same signal as if we had not listened.
  const onSignal = (signal: NodeJS.Signals): void => {
    killNow();
    removeHandlers();
    process.kill(process.pid, signal);
  };
  const removeHandlers = (): void => {
    process.off("exit", killNow);
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
  };
  const teardown = async (): Promise<void> => {
    removeHandlers();
    await Promise.all(servers.map(({ child }) => stop(child)));
  };

  process.on("exit", killNow);
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);

  try {
    const managementPort = await freePort();
    const alertsPort = await freePort();
    const management = startPrism("generated/openapi/management.json", managementPort);
    const alerts = startPrism("generated/openapi/alerts.json", alertsPort);
    servers.push(management, alerts);
    await Promise.all(servers.map(waitUntilReady));
    project.provide("managementUrl", management.url);
    project.provide("alertsUrl", alerts.url);
  } catch (error) {
    await teardown();
    throw error;
  }
  return teardown;
}

/** A port the OS just handed out on 127.0.0.1; Prism binds it a moment later. */
async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const address = server.address();
  server.close();
  await once(server, "close");
  if (address === null || typeof address === "string") throw new Error("listen(0) gave no TCP port");
  return address.port;
}

function startPrism(bundle: string, port: number): PrismServer {
  // Prism forks a cluster worker when NODE_ENV=production; one process means one kill stops it.
  // --errors turns a response example that breaks its own schema into a 500, so tests see it.
  const args = [PRISM_CLI, "mock", "--multiprocess=false", "--errors", "-h", "127.0.0.1", "-p", String(port), "-v", "warn"];
  const child = spawn(process.execPath, [...args, join(REPO_ROOT, bundle)], {
    cwd: REPO_ROOT,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const server: PrismServer = { bundle, url: `http://127.0.0.1:${port}`, child, output: "" };
  // Keep draining both pipes (a full pipe would stall Prism) and remember the tail for error reports.
  const record = (chunk: string): void => {
    server.output = (server.output + chunk).slice(-OUTPUT_LIMIT);
  };
  child.stdout?.setEncoding("utf8").on("data", record);
  child.stderr?.setEncoding("utf8").on("data", record);
  child.on("error", (error) => record(`\n${error.message}\n`));
  return server;
}

/** Ready once Prism answers any HTTP request; with -v warn it never prints its listening line. */
async function waitUntilReady(server: PrismServer): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (!isRunning(server.child)) {
      const { exitCode, signalCode } = server.child;
      throw startupError(server, `exited early (${signalCode ?? `code ${String(exitCode)}`})`);
    }
    if (await answers(server.url)) return;
    await delay(POLL_INTERVAL_MS);
  }
  throw startupError(server, `did not answer within ${READY_TIMEOUT_MS / 1000} s`);
}

async function answers(url: string): Promise<boolean> {
  try {
    // AbortSignal.timeout's timer is unref'd, so it never holds the process open.
    const response = await fetch(url, { signal: AbortSignal.timeout(1_000) });
    await response.body?.cancel();
    return true;
  } catch {
    return false; // connection refused: not listening yet
  }
}

function startupError(server: PrismServer, reason: string): Error {
  return new Error(`Prism for ${server.bundle} ${reason}. Its output:\n${server.output || "(none)"}`);
}

function isRunning(child: ChildProcess): boolean {
  return child.pid !== undefined && child.exitCode === null && child.signalCode === null;
}

async function stop(child: ChildProcess): Promise<void> {
  if (!isRunning(child)) return;
  const exited = once(child, "exit");
  child.kill("SIGTERM");
  const escalation = setTimeout(() => child.kill("SIGKILL"), KILL_GRACE_MS);
  try {
    await exited;
  } finally {
    clearTimeout(escalation);
  }
}
