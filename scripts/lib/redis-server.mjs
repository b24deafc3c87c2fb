// A real redis-server on loopback for the fleet benchmark and the Redis store's tests: started on a free (or given)
// port, killed and started again on that port to play an outage, and never outliving the process that started it.
// Also a server that accepts connections and never answers: a Redis that hangs.
import { spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import { connect, createServer } from "node:net";
import { setTimeout as delay } from "node:timers/promises";
import { freePort, portInUse } from "./mock-servers.mjs";

const readyTimeoutMs = 5_000;
const pollMs = 50;

// redis-server cannot watch its parent, so a shell starts it and then waits on a pipe from this process. The pipe
// closes when this process ends, however it ends (SIGKILL included), or when kill() closes it; the shell then kills
// redis-server with SIGKILL and exits once it is gone. A background command's stdin is /dev/null, so Redis never
// reads the pipe.
const watchedByPipe = `"$0" "$@" & read -r _; kill -9 $! 2>/dev/null; wait`;

/** The path or name of a redis-server that runs here, or undefined. */
export function redisServerCommand() {
  return ["redis-server", "/usr/bin/redis-server"].find((candidate) => spawnSync(candidate, ["--version"]).status === 0);
}

/** Whether something on 127.0.0.1:port answers a PING with +PONG, within `timeoutMs`. */
function answersPing(port, timeoutMs) {
  return new Promise((resolve) => {
    const socket = connect({ port, host: "127.0.0.1" });
    let reply = "";
    const settle = (answered) => {
      socket.destroy();
      resolve(answered);
    };
    socket.setTimeout(timeoutMs, () => settle(false));
    socket.on("connect", () => socket.write("PING\r\n"));
    socket.on("data", (chunk) => {
      reply += chunk;
      if (reply.includes("\r\n")) settle(reply.startsWith("+PONG"));
    });
    socket.on("error", () => settle(false));
    socket.on("close", () => settle(false));
  });
}

/** Starts one redis-server on `port` without persistence; resolves to its kill(), once it answers PING. */
async function launch(command, port) {
  // Else the PING below would be answered by whatever holds the port, while the new server failed to bind it.
  if (await portInUse(port)) throw new Error(`cannot start redis-server: 127.0.0.1:${port} is in use`);
  const args = ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"];
  const watcher = spawn("sh", ["-c", watchedByPipe, command, ...args], { stdio: ["pipe", "ignore", "ignore"] });
  const exited = once(watcher, "exit");
  // Closing the pipe of a shell that is already gone is not an error: Redis is gone with it.
  watcher.stdin.on("error", () => {});
  const kill = async () => {
    watcher.stdin.end();
    await exited;
  };
  const deadline = Date.now() + readyTimeoutMs;
  while (Date.now() < deadline) {
    if (await answersPing(port, Math.max(deadline - Date.now(), 1))) return kill;
    await delay(pollMs);
  }
  await kill();
  throw new Error(`redis-server did not answer PING on 127.0.0.1:${port} within ${readyTimeoutMs / 1000} s`);
}

/**
 * Starts redis-server on 127.0.0.1 (`port`, else a free one) and resolves once it answers PING, to `{ port, kill,
 * restart, stop }`: kill() SIGKILLs it and resolves once it has exited (an outage: nothing is kept); restart()
 * starts a new one on the same port and resolves once it answers; stop() ends it for good. Throws when there is no
 * redis-server (see redisServerCommand) or it does not answer within 5 s.
 */
export async function startRedisServer({ port } = {}) {
  const command = redisServerCommand();
  if (command === undefined) throw new Error("no redis-server that runs here (apt-get install redis-server)");
  const chosenPort = port ?? (await freePort());
  let kill = await launch(command, chosenPort);
  return {
    port: chosenPort,
    kill: () => kill(),
    restart: async () => {
      await kill();
      kill = await launch(command, chosenPort);
    },
    // Nothing is persisted, so ending it for good is the same SIGKILL as an outage.
    stop: () => kill(),
  };
}

/**
 * Starts a TCP server on 127.0.0.1 that accepts connections, reads what they send and never writes a byte: a Redis
 * that hangs. Resolves to `{ port, close }`; close() drops its connections and resolves once it has closed.
 */
export async function startSilentServer() {
  const sockets = new Set();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    // A client that gives up resets its connection: that is not an error of this server.
    socket.on("error", () => {});
    socket.resume();
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return {
    port: server.address().port,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      server.close();
      await once(server, "close");
    },
  };
}
