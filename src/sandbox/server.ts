// The sandbox's HTTP server: a node:http shell around the engine (engine.ts) that also keeps a developer's machine
// safe from the network and from web pages. It answers only its own host names (DNS rebinding), reads a body only
// to its cap and within a time, and an answer decided before the body (401, 404, 413, 415, a fault) closes the
// connection instead of reading the rest. Then it plays the engine's answer: after its delay, whole, or dropped.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { allowedHosts, isAllowedHost } from "../local-servers/local-only.js";
import type { Answer } from "./answers.js";
import type { SandboxState } from "./control.js";
import { createEngine, type EngineAnswer, type EngineOptions } from "./engine.js";
import type { Faults } from "./faults.js";

export interface SandboxOptions extends Omit<EngineOptions, "allowedHosts"> {
  /** Default 0: a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Host names it answers besides the loopback ones and `host` (`--allowed-host`). */
  extraHosts?: string[];
}

export interface Sandbox {
  url: string;
  state: SandboxState;
  faults: Faults;
  close(): Promise<void>;
}

/** Larger bodies are refused: no request of the contract comes near it. */
const maxBodyBytes = 1024 * 1024;

/** The bytes of an answer's body: JSON for a value, the text as it is (with the content type its answer names). */
function encoded({ body, headers = {} }: Answer): { bytes: Buffer; headers: Record<string, string> } {
  if (body === undefined) return { bytes: Buffer.alloc(0), headers };
  if (typeof body === "string") return { bytes: Buffer.from(body), headers };
  const requestId = (body as { requestId?: unknown }).requestId;
  return {
    bytes: Buffer.from(JSON.stringify(body)),
    headers: { "content-type": "application/json", ...(typeof requestId === "string" && { "x-request-id": requestId }), ...headers },
  };
}

/** Plays an answer: after its delay, whole, cut half-way (`truncate`) or not at all (`reset`). */
function play(socket: Socket, request: IncomingMessage, response: ServerResponse, answer: EngineAnswer, bodyRead: boolean): void {
  const go = () => {
    if (response.destroyed) return;
    if (answer.drop === "reset") return void socket.destroy();
    const { bytes, headers } = encoded(answer);
    // What was not read is not read: the connection closes after the answer instead.
    const close =
      !bodyRead &&
      (request.headers["content-length"] !== undefined ? request.headers["content-length"] !== "0" : request.headers["transfer-encoding"] !== undefined);
    response.writeHead(answer.status, { ...headers, "content-length": String(bytes.length), ...(close && { connection: "close" }) });
    if (answer.drop === "truncate") {
      response.write(bytes.subarray(0, bytes.length >> 1), () => socket.destroy());
      return;
    }
    response.end(bytes, () => {
      if (close) closeAfterAnswer(socket);
    });
  };
  if (answer.delayMs > 0) setTimeout(go, answer.delayMs);
  else go();
}

/**
 * Closes a connection whose request body was not read. Destroyed at once, a socket with unread data sends a reset,
 * which can wipe the answer from the client's buffer before it is read; so the sandbox says it is done sending,
 * drains what keeps coming for half a second, and only then destroys it. Past 1 MiB it stops reading instead (the
 * client's writes then wait on a full window), but still waits out the half second: a client that sends fast and
 * reads late, on a busy machine, got the reset before it read the answer.
 */
function closeAfterAnswer(socket: Socket): void {
  let drained = 0;
  const timer = setTimeout(() => socket.destroy(), 500);
  socket.on("data", (chunk: Buffer) => {
    drained += chunk.length;
    if (drained > maxBodyBytes) socket.pause();
  });
  socket.once("close", () => clearTimeout(timer));
  socket.end();
  socket.resume();
}

/**
 * The body as text, or undefined when it passes the cap: reading then stops, and the socket stays open for the 413,
 * after which it is closed.
 */
function readBody(request: IncomingMessage): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= maxBodyBytes) return void chunks.push(chunk);
      request.off("data", onData).pause();
      resolve(undefined);
    };
    request.on("data", onData);
    request.once("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    request.once("error", reject);
  });
}

const refusal = (status: number, error: string): EngineAnswer => ({ status, body: { error }, delayMs: 0 });

/** Starts a sandbox and resolves once it listens. */
export async function startSandbox({ port = 0, host = "127.0.0.1", extraHosts = [], ...options }: SandboxOptions): Promise<Sandbox> {
  const hosts = allowedHosts(host, extraHosts);
  const engine = createEngine({ ...options, allowedHosts: hosts });
  const sockets = new Set<Socket>();
  // Headers within 10 s, the whole request within 30 s: a client that trickles cannot hold a connection for long.
  // Node checks those every connectionsCheckingInterval (30 s by default, which would let one trickle for 40 s).
  const server = createServer({ headersTimeout: 10_000, requestTimeout: 30_000, connectionsCheckingInterval: 1_000 }, (request, response) => {
    // Kept now: a request whose reading stops (past the cap) lets go of its socket, which the answer then closes.
    const { socket } = request;
    if (!isAllowedHost(request.headers.host, hosts)) {
      return play(
        socket,
        request,
        response,
        refusal(403, `this sandbox answers only its own host names (${[...hosts].join(", ")}; --allowed-host adds one)`),
        false,
      );
    }
    const received = engine.receive({
      method: request.method ?? "GET",
      target: request.url ?? "/",
      headers: request.headers as Record<string, string | undefined>,
    });
    if (typeof received !== "function") return play(socket, request, response, received, false);
    const length = Number(request.headers["content-length"] ?? 0);
    if (length > maxBodyBytes) return play(socket, request, response, refusal(413, `the body is larger than ${maxBodyBytes} bytes`), false);
    readBody(request).then(
      (text) => {
        if (text === undefined) play(socket, request, response, refusal(413, `the body is larger than ${maxBodyBytes} bytes`), false);
        else play(socket, request, response, received(text), true);
      },
      // The client went away, or sent the body too slowly.
      () => socket.destroy(),
    );
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => server.once("error", reject).listen(port, host, resolve));
  const { port: bound } = server.address() as AddressInfo;
  return {
    url: `http://${host.includes(":") ? `[${host}]` : host}:${bound}`,
    state: engine.state,
    faults: engine.faults,
    close: () =>
      new Promise<void>((resolve) => {
        // Keep-alive connections (Prism's, a test's) would hold close() open.
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
