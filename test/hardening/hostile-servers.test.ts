// Hostile servers and inputs, replayed against the built package (dist/) with scripted loopback servers: the
// promises of SECURITY.md, each asserted with the requests the servers saw, the bytes they sent and the heap.
import type { ServerResponse } from "node:http";
import { gzipSync } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import { root } from "../../scripts/lib/toolchain.mjs";
import { spawnAndCollect } from "../support/processes.js";
import { json, type ScriptedServer, type Step, startScriptedServer } from "../support/scripted-server.js";
import { alertId, keyId, keySecret, pipe, settingsEnvelope, tileAlert, token } from "../support/sdk-fixtures.js";

// The built package, as users load it (npm test builds it first); typed by the source it is built from.
const sdk = (await import(new URL("../../dist/index.js", import.meta.url).href)) as typeof import("../../src/index.js");
const { createAlertsClient, createManagementClient, IngestionError, RedirectError, RequestValidationError } = sdk;

const servers: ScriptedServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});
async function serve(...steps: Step[]): Promise<ScriptedServer> {
  const server = await startScriptedServer(...steps);
  servers.push(server);
  return server;
}
const management = (baseUrl: string, options: object = {}) => createManagementClient({ baseUrl, keyId, keySecret, ...options });
const alerts = (baseUrl: string) => createAlertsClient({ baseUrl, token });
const redirect =
  (status: number, location: string): Step =>
  (_request, response) =>
    void response.writeHead(status, { location }).end();

describe("a redirect is not followed: it is a RedirectError with the status and Location", () => {
  it("a 307 from the API back to itself sends one create, not 21", async () => {
    const api = await serve((request, response) => void response.writeHead(307, { location: request.url ?? "/" }).end());
    const error = await alerts(api.url)
      .create(tileAlert)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RedirectError);
    expect(error).toMatchObject({ status: 307, location: "/api/v2/alerts" });
    expect(api.requests).toHaveLength(1);
  });

  it.each([301, 302, 303, 307, 308])("a %i to another origin sends nothing there, credentials and body included", async (status) => {
    const elsewhere = await serve(json(200, { data: { id: "from-elsewhere" } }));
    const api = await serve(redirect(status, `${elsewhere.url}/api/v2/alerts`));
    const error = await alerts(api.url)
      .create(tileAlert)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RedirectError);
    expect(error).toMatchObject({ status, location: `${elsewhere.url}/api/v2/alerts` });
    expect((error as Error).message).toContain(`a redirect to ${elsewhere.url}/api/v2/alerts, not followed`);
    expect(api.requests).toHaveLength(1);
    expect(elsewhere.requests).toHaveLength(0);
  });

  it("a redirect of a PUT to plain http is not followed, so no body travels in clear", async () => {
    const elsewhere = await serve(json(200, settingsEnvelope));
    const api = await serve(redirect(308, elsewhere.url.replace("127.0.0.1", "localhost")));
    const error = await management(api.url)
      .pipes.updateSettings(pipe, {})
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RedirectError);
    expect(elsewhere.requests).toHaveLength(0);
  });

  it("a GET answered 302 is not retried, and raw gets the same RedirectError", async () => {
    const api = await serve(redirect(302, "https://elsewhere.example/"));
    const client = management(api.url);
    await expect(client.pipes.get(pipe)).rejects.toBeInstanceOf(RedirectError);
    await expect(
      client.raw.GET("/v1/organizations/{organizationId}/services", { params: { path: { organizationId: pipe.organizationId } } }),
    ).rejects.toBeInstanceOf(RedirectError);
    expect(api.requests).toHaveLength(2);
  });
});

/** Runs the memory probe against `url` in a child process, with --expose-gc. */
async function probe(url: string, limit: number | "default") {
  const { status, stdout } = await spawnAndCollect(process.execPath, ["--expose-gc", "test/hardening/memory-probe.mjs", url, String(limit)], {
    cwd: root,
    stderr: "inherit",
  });
  expect(status).toBe(0);
  return JSON.parse(stdout) as { error?: string; message?: string; heapGrowthBytes: number; milliseconds: number };
}

/** A server step that writes chunks as fast as the client takes them, until the client goes; counts the bytes. */
function endless(chunk: Buffer, headers: Record<string, string>, sent: { bytes: number }): Step {
  return (request, response: ServerResponse) => {
    response.writeHead(200, { "content-type": "application/json", ...headers });
    const pump = () => {
      while (!response.destroyed && response.write(chunk)) sent.bytes += chunk.length;
      if (!response.destroyed) sent.bytes += chunk.length;
    };
    response.on("drain", pump);
    request.socket.on("close", () => response.destroy());
    pump();
  };
}

describe("a response larger than maxResponseBytes stops there, is not retried, and the heap stays bounded", () => {
  const mib = 1024 * 1024;

  it("an endless body stops at the limit", async () => {
    const sent = { bytes: 0 };
    const api = await serve(endless(Buffer.alloc(64 * 1024, 32), {}, sent));
    const report = await probe(api.url, 2 * mib);
    expect(report.error).toBe("ResponseTooLargeError");
    expect(report.heapGrowthBytes).toBeLessThan(32 * mib);
    expect(api.requests).toHaveLength(1);
    // The client stops reading at 2 MiB; the sockets' buffers hold a few MiB more at most.
    expect(sent.bytes).toBeLessThan(16 * mib);
  }, 30_000);

  it("a gzip bomb stops at the limit, decoded", async () => {
    const bomb = gzipSync(Buffer.alloc(256 * mib, 32), { level: 9 });
    const api = await serve((_request, response) => void response.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip" }).end(bomb));
    const report = await probe(api.url, 2 * mib);
    expect(bomb.length).toBeLessThan(mib);
    expect(report.error).toBe("ResponseTooLargeError");
    expect(report.heapGrowthBytes).toBeLessThan(32 * mib);
    expect(api.requests).toHaveLength(1);
  }, 30_000);

  it("by default, a body over 16 MiB is refused from its Content-Length, before it is read", async () => {
    const big = Buffer.alloc(17 * mib, 32);
    const api = await serve(
      (_request, response) => void response.writeHead(200, { "content-type": "application/json", "content-length": String(big.length) }).end(big),
    );
    const report = await probe(api.url, "default");
    expect(report.error).toBe("ResponseTooLargeError");
    expect(report.message).toContain(`maxResponseBytes (${16 * mib} bytes)`);
    expect(report.heapGrowthBytes).toBeLessThan(8 * mib);
    expect(api.requests).toHaveLength(1);
  }, 30_000);
});

describe("bad input gets an IngestionError: bounded, named, and nothing sent", () => {
  it('raw refuses ".." as a path parameter, as typed methods do', async () => {
    const api = await serve(json(200, settingsEnvelope));
    const call = management(api.url).raw.GET("/v1/organizations/{organizationId}/services", { params: { path: { organizationId: ".." } } });
    await expect(call).rejects.toBeInstanceOf(RequestValidationError);
    expect(api.requests).toHaveLength(0);
  });

  it("a million invalid filter items give 21 issues and a short message, in little more than the validator's own time", async () => {
    const api = await serve(json(200, settingsEnvelope));
    const filter = Array.from({ length: 1_000_000 }, (_, i) => `bad-${i}`);
    const started = performance.now();
    const error = await management(api.url)
      .services.list({ organizationId: pipe.organizationId, filter })
      .catch((e: unknown) => e);
    const elapsed = performance.now() - started;
    expect(error).toBeInstanceOf(RequestValidationError);
    const { issues, message } = error as InstanceType<typeof RequestValidationError>;
    expect(issues).toHaveLength(21);
    expect(issues.at(-1)?.message).toMatch(/^and \d+ more problem\(s\), not listed$/);
    expect(message.length).toBeLessThan(3_000);
    expect(elapsed).toBeLessThan(5_000);
    expect(api.requests).toHaveLength(0);
  }, 30_000);

  it("a lone surrogate in a path value, with validation off, is a RequestValidationError, not a URIError", async () => {
    const api = await serve(json(200, settingsEnvelope));
    const client = management(api.url, { validateRequests: false });
    await expect(client.pipes.get({ ...pipe, pipeId: "\ud800" })).rejects.toBeInstanceOf(RequestValidationError);
    expect(api.requests).toHaveLength(0);
  });

  it("a null where parameters belong gives a rejected promise, never a synchronous throw", async () => {
    const client = management("https://api.example.test");
    let call: PromiseLike<unknown> | undefined;
    expect(() => {
      call = client.pipes.getSettings(null as never);
    }).not.toThrow();
    await expect(call).rejects.toBeInstanceOf(IngestionError);
    await expect(client.services.list(null as never)).rejects.toBeInstanceOf(IngestionError);
    await expect(alerts("https://alerts.example.test").create(null as never)).rejects.toBeInstanceOf(IngestionError);
  });

  it("a base URL with credentials that does not parse is refused without echoing them", () => {
    expect(() => createManagementClient({ baseUrl: "https://id:s3cr3t-value@host:99999", keyId, keySecret })).toThrow(IngestionError);
    expect(() => createManagementClient({ baseUrl: "https://id:s3cr3t-value@host:99999", keyId, keySecret })).not.toThrow(/s3cr3t-value/);
  });
});

describe("text from the server cannot forge a log line or hide in a message", () => {
  const forged = "Not found\n[ingestion-api] GET /v1 attempt 1/1: 200 \u001b[2K\u001b[1Aall good\u202e";

  it("escapes control characters of the server's error text and request id in the error message", async () => {
    const api = await serve(json(404, { error: forged, requestId: "r\n[ingestion-api] forged" }));
    const error = await management(api.url)
      .pipes.get(pipe)
      .catch((e: unknown) => e);
    const { message } = error as Error;
    expect(message).not.toMatch(/[\p{Cc}\p{Bidi_Control}]/u);
    expect(message).toContain("Not found\\u000a[ingestion-api]");
    expect((error as { body: unknown }).body).toEqual({ error: forged, requestId: "r\n[ingestion-api] forged" });
  });

  it("escapes them in log lines too", async () => {
    const api = await serve(json(503, { error: forged, requestId: "r\u001b[31m" }, { "retry-after": "0" }), json(200, settingsEnvelope));
    const lines: string[] = [];
    const logger = {
      error: (l: string) => lines.push(l),
      warn: (l: string) => lines.push(l),
      info: (l: string) => lines.push(l),
      debug: (l: string) => lines.push(l),
    };
    await management(api.url, { logLevel: "info", logger }).pipes.getSettings(pipe);
    expect(lines.length).toBeGreaterThan(1);
    for (const line of lines) expect(line).not.toMatch(/\p{Cc}/u);
  });

  it("the alerting interface's error text is escaped the same way", async () => {
    const api = await serve(json(404, { message: "gone\r\nX-Injected: 1\u001b[0m" }));
    const error = await alerts(api.url)
      .get(alertId)
      .catch((e: unknown) => e);
    expect((error as Error).message).not.toMatch(/\p{Cc}/u);
  });
});
