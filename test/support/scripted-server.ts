// A real loopback HTTP server whose answers are scripted per attempt, for retry and fault tests.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";

/** What the server does with one attempt; the last step repeats for any further attempts. */
export type Step = (request: IncomingMessage, response: ServerResponse, body: string) => void;

export interface ScriptedServer {
  url: string;
  /** Requests seen so far, in order: method, URL, headers and body. */
  requests: { method: string; url: string; headers: IncomingMessage["headers"]; body: string }[];
  close(): Promise<void>;
}

export async function startScriptedServer(...steps: Step[]): Promise<ScriptedServer> {
  const requests: ScriptedServer["requests"] = [];
  const sockets = new Set<Socket>();
  const server = createServer((request, response) => {
    let body = "";
    request.setEncoding("utf8").on("data", (chunk: string) => (body += chunk));
    request.on("end", () => {
      requests.push({ method: request.method ?? "", url: request.url ?? "", headers: request.headers, body });
      const step = steps[Math.min(requests.length, steps.length) - 1];
      step?.(request, response, body);
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        // Hanging steps keep sockets open; end them so close() returns.
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Answers JSON with a status and optional headers. */
export const json =
  (status: number, body: unknown, headers: Record<string, string> = {}): Step =>
  (_request, response) => {
    response.writeHead(status, { "content-type": "application/json", ...headers }).end(JSON.stringify(body));
  };

/** Answers a raw body with the given content type. */
export const text =
  (status: number, body: string, contentType: string, headers: Record<string, string> = {}): Step =>
  (_request, response) => {
    response.writeHead(status, { "content-type": contentType, ...headers }).end(body);
  };

/** Never answers. */
export const hang: Step = () => {};

/** Drops the connection before any response header. */
export const resetBeforeHeaders: Step = (request) => {
  request.socket.destroy();
};

/** Sends headers and half the body, then drops the connection. */
export const resetMidBody: Step = (request, response) => {
  response.writeHead(200, { "content-type": "application/json", "content-length": "100" });
  response.write('{"status":200,"result":');
  setTimeout(() => request.socket.destroy(), 20);
};
