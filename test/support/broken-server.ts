// A server of both interfaces for `ingestion-api verify`'s tests: the in-process sandbox behind a real socket,
// answering as the sandbox does except for the defects planted in it, each in one place, so a test can tell that
// verify reports every one of them, once, and nothing else. With no defect, a recording proxy of the sandbox.
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createSandbox, type InProcessSandbox, type InProcessSandboxOptions } from "../../src/sandbox/in-process.js";

export type Defect =
  /** getPipe answers `state` as a number. */
  | "wrong-field-type"
  /** updatePipeSettings takes `engine_max_threads: 65` with a 200 (and changes nothing). */
  | "ok-for-invalid-body"
  /** createAlert refuses an interval of `7m` with a 400 that has no body. */
  | "400-without-body"
  /** listServices answers without `requestId`. */
  | "missing-request-id"
  /** listServices answers 422, a status it does not declare, to the filter `tag:isActive`. */
  | "undeclared-status"
  /** The management interface's 401 challenges with `Bearer`, not `Basic`. */
  | "wrong-challenge";

export const allDefects: Defect[] = [
  "wrong-field-type",
  "ok-for-invalid-body",
  "400-without-body",
  "missing-request-id",
  "undeclared-status",
  "wrong-challenge",
];

export interface BrokenServer {
  url: string;
  sandbox: InProcessSandbox;
  /** Every request it answered: method, path and status. */
  seen: { method: string; path: string; status: number }[];
  close(): Promise<void>;
}

const readBody = async (request: IncomingMessage) => {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
};

export async function startBrokenServer(defects: Defect[] = [], options: InProcessSandboxOptions = {}): Promise<BrokenServer> {
  const sandbox = createSandbox(options);
  const has = (defect: Defect) => defects.includes(defect);
  const seen: BrokenServer["seen"] = [];
  const server: Server = createServer(async (request, response) => {
    const text = await readBody(request);
    const url = new URL(request.url ?? "/", sandbox.baseUrl);
    const headers = Object.fromEntries(Object.entries(request.headers).flatMap(([name, value]) => (typeof value === "string" ? [[name, value]] : [])));
    const forward = (path = url.pathname + url.search, method = request.method ?? "GET", body = text) =>
      sandbox.fetch(new URL(path, sandbox.baseUrl), { method, headers, ...(body && method !== "GET" && { body }) });
    let answer = await forward();
    let status = answer.status;
    let answerHeaders = new Headers(answer.headers);
    let answerText: string | undefined = await answer.text();
    const json = () => JSON.parse(answerText ?? "null");
    const isManagement = url.pathname.startsWith("/v1/");

    if (has("wrong-field-type") && request.method === "GET" && /\/pipes\/[^/]+$/.test(url.pathname) && status === 200) {
      const body = json();
      body.result.state = 3;
      answerText = JSON.stringify(body);
    }
    if (has("ok-for-invalid-body") && request.method === "PUT" && /"engine_max_threads":65\b/.test(text) && Object.keys(JSON.parse(text)).length === 1) {
      answer = await forward(url.pathname, "GET", "");
      status = answer.status;
      answerHeaders = new Headers(answer.headers);
      answerText = await answer.text();
    }
    if (has("400-without-body") && request.method === "POST" && url.pathname === "/api/v2/alerts" && /"interval":"7m"/.test(text)) {
      answerHeaders = new Headers();
      answerText = "";
    }
    if (has("missing-request-id") && request.method === "GET" && /\/services$/.test(url.pathname) && status === 200) {
      const { requestId: _, ...rest } = json();
      answerText = JSON.stringify(rest);
    }
    if (has("undeclared-status") && /\/services$/.test(url.pathname) && url.searchParams.getAll("filter").join() === "tag:isActive") {
      status = 422;
    }
    if (has("wrong-challenge") && isManagement && status === 401) answerHeaders.set("www-authenticate", 'Bearer realm="broken"');

    seen.push({ method: request.method ?? "", path: url.pathname, status });
    answerHeaders.delete("content-length");
    answerHeaders.delete("content-encoding");
    response.writeHead(status, Object.fromEntries(answerHeaders));
    response.end(answerText);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    sandbox,
    seen,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await sandbox.close();
    },
  };
}
