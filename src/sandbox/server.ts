// The sandbox's HTTP server (node:http): routes a request to its operation by the bundles' path templates, then
// authenticates it, checks it against the contract and runs the operation over in-memory data.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { type Answer, failure } from "./answers.js";
import { type Api, apis, type Operation, operations, unauthorizedMessage } from "./contract.js";
import { control, controlPrefix, type SandboxState } from "./control.js";
import { authorized, challenge, type SandboxCredentials } from "./credentials.js";
import { handlers } from "./operations.js";
import { createRateLimiter, type SandboxRateLimit } from "./rate-limit.js";
import { rejection } from "./request-checks.js";
import type { SandboxData } from "./seed.js";

export interface SandboxOptions {
  /** The data to start with, and to go back to on `POST /_sandbox/reset`. */
  seed: SandboxData;
  credentials: SandboxCredentials;
  /** Default 0: a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Each interface's limit per credential (`--rate-limit`); none by default. */
  rateLimits?: Map<Api, SandboxRateLimit>;
}

export interface Sandbox {
  url: string;
  state: SandboxState;
  close(): Promise<void>;
}

/** Larger bodies are refused: no request of the contract comes near it. */
const maxBodyBytes = 1024 * 1024;

/** The interface whose prefix a path starts with (management when none does), for answers to unknown paths. */
const apiOfPath = (path: string): Api => apis.find(({ prefix }) => path.startsWith(`${prefix}/`)) ?? (apis[0] as Api);

function send(response: ServerResponse, { status, body, headers = {} }: Answer): void {
  const requestId = (body as { requestId?: unknown } | undefined)?.requestId;
  // A text body (the alerting rate limiter's HTML) goes as it is, with the content type its answer names.
  const text = body === undefined ? "" : typeof body === "string" ? body : JSON.stringify(body);
  response.writeHead(status, {
    ...(body !== undefined && { "content-type": "application/json" }),
    ...(typeof requestId === "string" && { "x-request-id": requestId }),
    ...headers,
  });
  response.end(text);
}

async function readBody(request: IncomingMessage): Promise<string | undefined> {
  let text = "";
  for await (const chunk of request.setEncoding("utf8")) {
    text += chunk;
    if (text.length > maxBodyBytes) return undefined;
  }
  return text;
}

/** The operation a method and path name, or the answer for a path or method the contract does not have. */
function route(method: string, path: string): { operation: Operation; match: RegExpExecArray } | Answer {
  const candidates = operations.flatMap((operation) => {
    const match = operation.pattern.exec(path);
    return match ? [{ operation, match }] : [];
  });
  const found = candidates.find(({ operation }) => operation.method === method);
  if (found) return found;
  if (candidates.length === 0) return failure(apiOfPath(path), 404, `No operation of the contract has the path ${path}`);
  const allow = candidates.map(({ operation }) => operation.method).join(", ");
  return { ...failure(candidates[0]?.operation.api ?? apiOfPath(path), 405, `${method} is not an operation of this path; use ${allow}`), headers: { allow } };
}

type RateLimiter = ReturnType<typeof createRateLimiter>;

async function answer(state: SandboxState, credentials: SandboxCredentials, limiter: RateLimiter, request: IncomingMessage): Promise<Answer> {
  const url = new URL(request.url ?? "/", "http://sandbox.invalid");
  const method = request.method ?? "GET";
  if (url.pathname.startsWith(controlPrefix)) return control(state, method, url.pathname);
  const routed = route(method, url.pathname);
  if ("status" in routed) return routed;
  const { operation, match } = routed;
  const { api } = operation;
  // As the real services do: who is asking comes before what is asked.
  if (!authorized(api, request.headers.authorization, credentials)) {
    return { ...failure(api, 401, unauthorizedMessage(api)), headers: { "www-authenticate": challenge(api) } };
  }
  // Counted per credential, as the services count them: only a caller they know uses up a budget.
  const limited = limiter.admit(api, request.headers.authorization as string);
  if (limited) return limited;
  const text = await readBody(request);
  if (text === undefined) return failure(api, 413, `The body is larger than ${maxBodyBytes} bytes`);
  let body: unknown;
  try {
    body = text === "" ? undefined : JSON.parse(text);
  } catch {
    return failure(api, 400, "Invalid request: the body is not valid JSON");
  }
  const path: Record<string, string> = {};
  try {
    for (const [index, name] of operation.names.entries()) path[name] = decodeURIComponent(match[index + 1] ?? "");
  } catch {
    return failure(api, 400, "Invalid request: a path parameter is not valid percent-encoding");
  }
  // The contract's one query parameter, `filter`, is a repeated (exploded) array; undeclared ones are ignored.
  const query = Object.fromEntries(operation.queryNames.filter((name) => url.searchParams.has(name)).map((name) => [name, url.searchParams.getAll(name)]));
  const refused = rejection(operation, { ...path, ...query }, body);
  if (refused) return refused;
  return handlers[operation.operationId](state.data, { path, query, body });
}

/** Starts a sandbox and resolves once it listens. */
export async function startSandbox({ seed, credentials, port = 0, host = "127.0.0.1", rateLimits = new Map() }: SandboxOptions): Promise<Sandbox> {
  const limiter = createRateLimiter(rateLimits);
  const state: SandboxState = {
    data: structuredClone(seed),
    reset() {
      this.data = structuredClone(seed);
    },
  };
  const sockets = new Set<Socket>();
  const server = createServer((request, response) => {
    answer(state, credentials, limiter, request).then(
      (result) => send(response, result),
      (error: unknown) => send(response, failure(apiOfPath(request.url ?? "/"), 500, `The sandbox failed: ${String(error)}`)),
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
    state,
    close: () =>
      new Promise<void>((resolve) => {
        // Keep-alive connections (Prism's, a test's) would hold close() open.
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
