// Starts and stops Stoplight Prism mock servers (and other local servers: the sandbox) on loopback; shared by
// `npm start` and the test harness.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { createServer } from "node:net";
import { join } from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import { startLocalGuard, stopLocalGuard } from "./local-guard.mjs";
import { root } from "./toolchain.mjs";

const prismCli = join(root, "node_modules/@stoplight/prism-cli/dist/index.js");
const readyTimeoutMs = 20_000;
const killGraceMs = 2_000;
const outputLimit = 64 * 1024;

// Every Prism this process started and that has not exited yet, so exit paths can kill them all,
// including those still starting.
const running = new Set();

/**
 * @typedef {object} MockServer
 * @property {string} bundle the bundle's path relative to the project
 * @property {string} url
 * @property {import("node:child_process").ChildProcess} child
 * @property {() => string} output the tail of Prism's own output, for error reports
 * @property {import("node:http").Server} [guard] the Host and Origin guard that takes Prism's public port
 */

// A free port is chosen here and bound a moment later by another program (Prism, redis-server, and redis-server
// again on the same port after an outage). Chosen from what the OS hands to listen(0) (Linux 32768-60999, macOS and
// Windows 49152-65535), it could meanwhile go to another process's listen(0): a test's own server would then get
// requests meant for Prism or Redis (readiness probes, reconnects), and the program would fail to bind. So it is
// chosen below those ranges, where no listen(0) lands.
export const freePortRange = { from: 20_000, to: 32_000 };

/** A port nothing listens on at 127.0.0.1, below the OS's listen(0) range; the caller binds it a moment later. */
export async function freePort() {
  const { from, to } = freePortRange;
  for (let tries = 0; tries < 100; tries++) {
    const port = from + Math.floor(Math.random() * (to - from));
    if (!(await portInUse(port))) return port;
  }
  throw new Error(`no free port on 127.0.0.1 among 100 tried between ${from} and ${to}`);
}

/** Whether something already listens on 127.0.0.1:port. */
export async function portInUse(port) {
  const server = createServer();
  server.listen(port, "127.0.0.1");
  try {
    await once(server, "listening");
    server.close();
    await once(server, "close");
    return false;
  } catch (error) {
    if (/** @type {NodeJS.ErrnoException} */ (error).code === "EADDRINUSE") return true;
    throw error;
  }
}

/**
 * Starts Prism on a bundle and resolves once it answers HTTP on `port`: a mock, or with `upstream` a validating proxy
 * in front of that server. `--errors` turns a response that breaks its schema (a mock's example, or an
 * upstream's answer) into a 500 naming the violation, so nobody is served one.
 * Prism itself listens on a free loopback port, with its CORS off (it would allow any origin, with credentials);
 * `port` is the guard's (local-guard.mjs), which refuses a foreign Host or Origin and answers CORS for local pages.
 * `forwardInvalidRequests` (proxy only) hands a request that breaks the contract to the upstream instead of
 * answering it with Prism's own 422: for an upstream that answers it with the contract's 400, as the sandbox does.
 * @param {string} bundle path relative to the project root
 * @param {number} port
 * @param {string} [upstream] URL of the server to proxy
 * @param {{ forwardInvalidRequests?: boolean }} [options]
 * @returns {Promise<MockServer>}
 */
export async function startMock(bundle, port, upstream, { forwardInvalidRequests = false } = {}) {
  const mode = upstream ? ["proxy", ...(forwardInvalidRequests ? ["--validate-request=false"] : [])] : ["mock"];
  const prismPort = await freePort();
  // Prism forks a cluster worker when NODE_ENV=production; one process means one kill stops it.
  const args = [
    prismCli,
    ...mode,
    "--multiprocess=false",
    "--errors",
    "--cors=false",
    "-h",
    "127.0.0.1",
    "-p",
    String(prismPort),
    "-v",
    "warn",
    join(root, bundle),
    ...(upstream ? [upstream] : []),
  ];
  // The public port first, so a busy one fails before Prism starts.
  const guard = await startLocalGuard(port, `http://127.0.0.1:${prismPort}`);
  try {
    return { ...(await startServer(bundle, `http://127.0.0.1:${prismPort}`, args)), url: `http://127.0.0.1:${port}`, guard };
  } catch (error) {
    stopLocalGuard(guard);
    throw error;
  }
}

/**
 * Runs a Node program that serves HTTP on loopback and resolves once it answers, remembered so that
 * exit paths stop it with the mocks.
 * @param {string} bundle what it serves, for error reports
 * @param {string} url where it answers
 * @param {string[]} args Node's arguments: the script and its own
 * @returns {Promise<MockServer>}
 */
export async function startServer(bundle, url, args) {
  const child = spawn(process.execPath, args, { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
  running.add(child);
  child.on("exit", () => running.delete(child));
  let output = "";
  // Keep draining both pipes (a full pipe would stall Prism) and remember the tail for error reports.
  const record = (/** @type {string} */ chunk) => {
    output = (output + chunk).slice(-outputLimit);
  };
  child.stdout.setEncoding("utf8").on("data", record);
  child.stderr.setEncoding("utf8").on("data", record);
  child.on("error", (error) => record(`\n${error.message}\n`));
  const server = { bundle, url, child, output: () => output };
  try {
    await waitUntilReady(server);
  } catch (error) {
    await stopMock(server);
    throw error;
  }
  return server;
}

/** Ready once the server answers any HTTP request; Prism with -v warn never prints its listening line. */
async function waitUntilReady(/** @type {MockServer} */ server) {
  const deadline = Date.now() + readyTimeoutMs;
  while (Date.now() < deadline) {
    if (!isRunning(server.child)) {
      const { exitCode, signalCode } = server.child;
      throw new Error(`The server of ${server.bundle} exited early (${signalCode ?? `code ${exitCode}`}). Its output:\n${server.output() || "(none)"}`);
    }
    if (await answers(server.url)) return;
    await delay(50);
  }
  throw new Error(`The server of ${server.bundle} did not answer within ${readyTimeoutMs / 1000} s. Its output:\n${server.output() || "(none)"}`);
}

async function answers(/** @type {string} */ url) {
  try {
    // AbortSignal.timeout's timer is unref'd, so it never holds the process open.
    const response = await fetch(url, { signal: AbortSignal.timeout(1_000) });
    await response.body?.cancel();
    return true;
  } catch {
    return false; // connection refused: not listening yet
  }
}

function isRunning(/** @type {import("node:child_process").ChildProcess} */ child) {
  return child.pid !== undefined && child.exitCode === null && child.signalCode === null;
}

/**
 * Starts several mocks at once. If any fails, the ones that did start are stopped before the error is thrown,
 * so a half-started set never leaves Prism running.
 * @param {{ bundle: string, port: number, upstream?: string, forwardInvalidRequests?: boolean }[]} specs
 * @returns {Promise<MockServer[]>}
 */
export async function startMocks(specs) {
  const results = await Promise.allSettled(specs.map(({ bundle, port, upstream, ...options }) => startMock(bundle, port, upstream, options)));
  const started = results.flatMap((result) => (result.status === "fulfilled" ? [result.value] : []));
  const failure = results.find((result) => result.status === "rejected");
  if (failure) {
    await Promise.all(started.map(stopMock));
    throw failure.reason;
  }
  return started;
}

/** Stops a mock: its guard, then Prism with SIGTERM, then SIGKILL if it has not exited after a grace period. */
export async function stopMock(/** @type {MockServer} */ { child, guard }) {
  if (guard) stopLocalGuard(guard);
  if (!isRunning(child)) return;
  const exited = once(child, "exit");
  child.kill("SIGTERM");
  const escalation = setTimeout(() => child.kill("SIGKILL"), killGraceMs);
  try {
    await exited;
  } finally {
    clearTimeout(escalation);
  }
}

/** For exit paths that cannot wait (process exit, a signal): kill every Prism this process started. */
export function killAllMocksNow() {
  for (const child of running) if (isRunning(child)) child.kill("SIGKILL");
}
