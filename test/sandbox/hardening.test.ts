// The sandbox cannot be turned against the developer's machine it runs on: each of the red team's probes (issue 23),
// over real sockets. Only its own host names are answered; a web page cannot drive /_sandbox/ nor post a form; an
// answer decided before the body closes the connection instead of reading the rest; bad percent-encoding is a 400,
// never a 500; what it stores and what /_sandbox/state answers are bounded. Each probe is sent to the built command,
// `node dist/cli.js sandbox`, as a developer runs it.
import { connect } from "node:net";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, type MockServer, startServer, stopMock } from "../../scripts/lib/mock-servers.mjs";
import { root } from "../../scripts/lib/toolchain.mjs";
import { exampleSeed } from "../../src/sandbox/seed.js";
import { authorizationOf } from "../support/credentials.js";
import { operation } from "../support/operations.js";
import { sandboxCredentials } from "../support/sandbox.js";

/** The built command's sandbox on a free port, with `args` added. */
async function builtSandbox(...args: string[]): Promise<MockServer> {
  const port = await freePort();
  const { keyId, keySecret, token } = sandboxCredentials;
  const command = [join(root, "dist", "cli.js"), "sandbox", "--port", String(port), "--key-id", keyId, "--key-secret", keySecret, "--token", token];
  return startServer("the sandbox (dist/cli.js)", `http://127.0.0.1:${port}`, [...command, ...args]);
}

let sandbox: MockServer;
beforeAll(async () => {
  sandbox = await builtSandbox("--max-resources", "4");
});
afterAll(() => sandbox && stopMock(sandbox));

const { management: basic, alerts: bearer } = authorizationOf(sandboxCredentials);
const portOf = () => Number(new URL(sandbox.url).port);

/** Sends raw HTTP (to the main sandbox unless `port` says otherwise) and resolves to what came back and whether the server closed the connection. */
function raw(request: string, { keepWriting = false, port = portOf() } = {}): Promise<{ text: string; closed: boolean; written: number }> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    let text = "";
    let written = 0;
    let writer: NodeJS.Timeout | undefined;
    // Framed as chunks, so the body is valid however long it goes on.
    const chunk = Buffer.concat([Buffer.from(`${(64 * 1024).toString(16)}\r\n`), Buffer.alloc(64 * 1024, "x"), Buffer.from("\r\n")]);
    socket.on("connect", () => {
      socket.write(request);
      // An endless body: as fast as the server takes it.
      if (keepWriting) {
        writer = setInterval(() => {
          if (socket.writable) written += socket.write(chunk) ? chunk.length : 0;
        }, 1);
      }
    });
    socket.on("data", (data) => {
      text += data.toString("latin1");
    });
    const finish = (closed: boolean) => {
      clearInterval(writer);
      socket.destroy();
      resolve({ text, closed, written });
    };
    socket.on("close", () => finish(true));
    socket.on("error", () => finish(true));
    setTimeout(() => finish(false), 1500);
  });
}

describe("host names (DNS rebinding)", () => {
  it.each(["/_sandbox/state", operation("getPipeSettings").example.url])("answers Host: rebind.attacker.example with 403 on %s", async (path) => {
    const { text } = await raw(`GET ${path} HTTP/1.1\r\nHost: rebind.attacker.example\r\nAuthorization: ${basic}\r\n\r\n`);
    expect(text).toMatch(/^HTTP\/1\.1 403 /);
  });

  it("answers its own names: localhost, 127.0.0.1 and names added with --allowed-host", async () => {
    for (const host of [`localhost:${portOf()}`, `127.0.0.1:${portOf()}`]) {
      expect((await raw(`GET /_sandbox/state?limit=0 HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`)).text).toMatch(/^HTTP\/1\.1 200 /);
    }
    // Raw HTTP: fetch does not send a Host header of the caller's, it always names the URL's.
    const asInternal = "GET /_sandbox/state?limit=0 HTTP/1.1\r\nHost: sandbox.internal\r\nConnection: close\r\n\r\n";
    expect((await raw(asInternal)).text).toMatch(/^HTTP\/1\.1 403 /);
    const named = await builtSandbox("--allowed-host", "sandbox.internal");
    try {
      expect((await raw(asInternal, { port: Number(new URL(named.url).port) })).text).toMatch(/^HTTP\/1\.1 200 /);
    } finally {
      await stopMock(named);
    }
  });
});

describe("a web page cannot drive it", () => {
  it("refuses POST /_sandbox/reset shaped like a page's no-preflight request (another Origin, text/plain)", async () => {
    const response = await fetch(`${sandbox.url}/_sandbox/reset`, {
      method: "POST",
      headers: { origin: "https://evil.example", "content-type": "text/plain" },
      body: "{}",
    });
    expect(response.status).toBe(403);
  });

  it("refuses a reset that is not application/json even from no origin, and takes one that is", async () => {
    expect((await fetch(`${sandbox.url}/_sandbox/reset`, { method: "POST", headers: { "content-type": "text/plain" } })).status).toBe(415);
    expect((await fetch(`${sandbox.url}/_sandbox/reset`, { method: "POST", headers: { "content-type": "application/json" } })).status).toBe(204);
    const own = await fetch(`${sandbox.url}/_sandbox/reset`, { method: "POST", headers: { origin: sandbox.url, "content-type": "application/json" } });
    expect(own.status).toBe(204);
  });

  it.each(["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"])(
    "refuses a %s body on a contract route with the declared 415, before reading it",
    async (type) => {
      const update = operation("updatePipeSettings");
      const response = await fetch(sandbox.url + update.example.url, {
        method: "PUT",
        headers: { authorization: basic, "content-type": type },
        body: JSON.stringify(update.example.body),
      });
      expect(response.status).toBe(415);
      expect(await response.json()).toMatchObject({ status: 415, error: expect.stringContaining(type.split(";")[0] as string) });
    },
  );
});

// A page on this machine (the playground served by `npx ingestion-api docs`, an app in development) may call the
// contract's routes; nothing else may read an answer, and nobody may preflight the sandbox's own routes.
describe("CORS", () => {
  const settings = operation("getPipeSettings").example.url;
  const corsHeaders = (response: Response) => [...response.headers].filter(([name]) => name.startsWith("access-control-"));
  const preflight = (path: string, origin: string) =>
    fetch(sandbox.url + path, {
      method: "OPTIONS",
      headers: { origin, "access-control-request-method": "PUT", "access-control-request-headers": "authorization, content-type, prefer" },
    });

  it.each(["http://127.0.0.1:8080", "http://localhost:5173", "http://[::1]:3000", "https://localhost"])(
    "answers a preflight from %s on a contract route, without credentials, with the path's methods and the headers asked for",
    async (origin) => {
      const response = await preflight(settings, origin);
      expect(response.status).toBe(204);
      expect(Object.fromEntries(corsHeaders(response))).toEqual({
        "access-control-allow-origin": origin,
        "access-control-allow-methods": "GET, PUT",
        "access-control-allow-headers": "authorization, content-type, prefer",
        "access-control-max-age": "600",
      });
    },
  );

  it("lets a page on this machine read an answer, its wait headers and its request id", async () => {
    const origin = "http://localhost:5173";
    const response = await fetch(sandbox.url + settings, { headers: { origin, authorization: basic, prefer: "code=429" } });
    expect(response.status).toBe(429);
    expect(response.headers.get("access-control-allow-origin")).toBe(origin);
    expect(response.headers.get("access-control-expose-headers")).toBe("Retry-After, X-RateLimit-Reset, x-request-id");
    expect(response.headers.get("vary")).toBe("Origin");
    // A refusal too: the page learns why.
    const refused = await fetch(sandbox.url + settings, { headers: { origin } });
    expect(refused.status).toBe(401);
    expect(refused.headers.get("access-control-allow-origin")).toBe(origin);
  });

  it.each([
    "https://attacker.example",
    "null",
    "http://127.0.0.1.attacker.example",
    "file://",
    "http://localhost/ , https://attacker.example",
    "http://2130706433",
  ])("gives %s no CORS header, on a preflight (refused as before) or a call", async (origin) => {
    const refused = await preflight(settings, origin);
    expect(refused.status).toBe(405);
    expect(corsHeaders(refused)).toEqual([]);
    const answered = await fetch(sandbox.url + settings, { headers: { origin, authorization: basic } });
    expect(answered.status).toBe(200);
    expect(corsHeaders(answered)).toEqual([]);
  });

  it("answers an alerting route's preflight and call alike, with its Bearer token", async () => {
    const origin = "http://127.0.0.1:8080";
    const create = operation("createAlert");
    const response = await preflight(create.example.url, origin);
    expect(response.status).toBe(204);
    expect(response.headers.get("access-control-allow-origin")).toBe(origin);
    expect(response.headers.get("access-control-allow-methods")).toBe("POST");
    const read = await fetch(sandbox.url + operation("getAlert").example.url, { headers: { origin, authorization: bearer } });
    expect(read.status).toBe(200);
    expect(read.headers.get("access-control-allow-origin")).toBe(origin);
    expect(read.headers.get("access-control-expose-headers")).toBe("Retry-After, X-RateLimit-Reset, x-request-id");
  });

  it("gives a page on this machine no CORS header on the sandbox's own routes, whatever it sends", async () => {
    const origin = "http://localhost:5173";
    const state = await fetch(`${sandbox.url}/_sandbox/state`, { headers: { origin } });
    expect(state.status).toBe(200);
    expect(corsHeaders(state)).toEqual([]);
    const reset = await fetch(`${sandbox.url}/_sandbox/reset`, { method: "POST", headers: { origin, "content-type": "application/json" } });
    expect(corsHeaders(reset)).toEqual([]);
  });

  it("answers no preflight of the sandbox's own routes, from any origin: a page still cannot send them JSON", async () => {
    for (const origin of ["http://127.0.0.1:8080", "http://localhost:5173", "https://attacker.example"]) {
      const response = await preflight("/_sandbox/reset", origin);
      expect(corsHeaders(response), origin).toEqual([]);
      expect(response.status, origin).not.toBe(204);
    }
  });

  it("answers a rebinding page with 403 and no CORS header, whatever Origin it names", async () => {
    const { text } = await raw(
      `OPTIONS ${settings} HTTP/1.1\r\nHost: rebind.attacker.example\r\nOrigin: http://127.0.0.1:8080\r\nAccess-Control-Request-Method: GET\r\n\r\n`,
    );
    expect(text).toMatch(/^HTTP\/1\.1 403 /);
    expect(text.toLowerCase()).not.toContain("access-control-");
  });
});

describe("an endless body", () => {
  it.each([
    ["without credentials", `PUT ${operation("updatePipeSettings").example.url}`, "401"],
    ["to a path with no operation", "POST /v1/nothing/here", "404"],
  ])("%s is answered at once and the connection closed, without reading on", async (_, line, status) => {
    const { text, closed, written } = await raw(`${line} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`, {
      keepWriting: true,
    });
    expect(text).toMatch(new RegExp(`^HTTP/1\\.1 ${status} `));
    expect(text.toLowerCase()).toContain("connection: close");
    expect(closed).toBe(true);
    // Before: 9.5-23 GB were read and discarded in 8 s. A socket's buffers hold a few MB at most.
    expect(written).toBeLessThan(64 * 1024 * 1024);
  });

  it("past 1 MiB is refused with 413 and the connection closed", async () => {
    const { text, closed } = await raw(
      `PUT ${operation("updatePipeSettings").example.url} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${basic}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`,
      { keepWriting: true },
    );
    expect(text).toMatch(/^HTTP\/1\.1 413 /);
    expect(closed).toBe(true);
  });
});

describe("a client that trickles", () => {
  it("whose headers never end is answered 408 and cut off within the 10 s header timeout", async () => {
    const started = Date.now();
    const { text, ended } = await new Promise<{ text: string; ended: number }>((resolve) => {
      const socket = connect(portOf(), "127.0.0.1");
      let text = "";
      // The start of a request, then a header line every second, never the blank line that ends them.
      socket.on("connect", () => socket.write(`GET /_sandbox/state HTTP/1.1\r\nHost: 127.0.0.1\r\n`));
      const trickle = setInterval(() => socket.writable && socket.write("X-Slow: 1\r\n"), 1000);
      socket.on("data", (data) => {
        text += data.toString("latin1");
      });
      socket.on("close", () => {
        clearInterval(trickle);
        resolve({ text, ended: Date.now() });
      });
      socket.on("error", () => undefined);
    });
    expect(text).toMatch(/^HTTP\/1\.1 408/);
    expect(ended - started).toBeGreaterThanOrEqual(9_500);
    expect(ended - started).toBeLessThan(12_500);
  }, 20_000);
});

describe("percent-encoding", () => {
  it.each(["%ZZ", "%E0%A4%A", "%ED%A0%80"])("answers %s in /_sandbox/reversePrivateEndpoints/ with 400, not 500", async (segment) => {
    expect((await fetch(`${sandbox.url}/_sandbox/reversePrivateEndpoints/${segment}`)).status).toBe(400);
  });

  it("never answers 500 to any path segment, on the contract's routes or its own (property, 300 segments)", async () => {
    const segment = fc.stringMatching(/^(%[0-9A-Fa-fZ]{0,2}|[A-Za-z0-9._~-]|%E0|%ED%A0|%C3)*$/);
    const templates = [
      (s: string) => `/_sandbox/reversePrivateEndpoints/${s}`,
      (s: string) => operation("getPipe").example.url.replace(/pipes\/[^/]+/, `pipes/${s}`),
      (s: string) => `/api/v2/alerts/${s}`,
    ];
    await fc.assert(
      fc.asyncProperty(segment, fc.integer({ min: 0, max: templates.length - 1 }), async (text, which) => {
        const path = (templates[which] as (s: string) => string)(text || "x");
        const response = await fetch(sandbox.url + path, {
          headers: { authorization: path.startsWith("/api/") ? bearer : basic },
        });
        await response.arrayBuffer();
        expect(response.status, path).toBeLessThan(500);
      }),
      { numRuns: 300 },
    );
  }, 60_000);
});

describe("what it stores and answers is bounded", () => {
  it("refuses a create past maxResources with the declared 403, and a reset makes room again", async () => {
    const create = operation("createAlert");
    const post = () =>
      fetch(sandbox.url + create.example.url, {
        method: "POST",
        headers: { authorization: bearer, "content-type": "application/json" },
        body: JSON.stringify(create.example.body),
      });
    const reset = async () =>
      expect((await fetch(`${sandbox.url}/_sandbox/reset`, { method: "POST", headers: { "content-type": "application/json" } })).status).toBe(204);
    // The seed leaves room for one alert under the cap of 4 this file's sandbox runs with.
    expect(exampleSeed().alerts.length).toBe(3);
    await reset();
    expect((await post()).status).toBe(200);
    const refused = await post();
    expect(refused.status).toBe(403);
    const body = await refused.json();
    const declared403 = create.responseValidators[create.declaredStatus(403)];
    expect(declared403, "createAlert declares a JSON 403").toBeDefined();
    expect(declared403?.(body), JSON.stringify(declared403?.errors)).toBe(true);
    expect(body).toMatchObject({ message: expect.stringContaining("its cap (--max-resources)") });
    await reset();
    expect((await post()).status).toBe(200);
  });

  it("answers /_sandbox/state a page at a time, saying how many there are and where the next page is", async () => {
    const response = await fetch(`${sandbox.url}/_sandbox/state?limit=1`);
    const page = (await response.json()) as Record<string, unknown[]>;
    expect(Object.values(page).every((items) => items.length <= 1)).toBe(true);
    expect(response.headers.get("x-sandbox-total")).toMatch(/^services=\d+, pipes=\d+, reversePrivateEndpoints=\d+, alerts=\d+$/);
    expect(response.headers.get("link")).toBe('</_sandbox/state?offset=1&limit=1>; rel="next"');
    expect((await fetch(`${sandbox.url}/_sandbox/state?limit=100000`)).status).toBe(400);
  });
});
