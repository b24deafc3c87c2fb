// `npm start` as a newcomer uses it: the URLs and the sandbox tour's curls printed and working as pasted (a create
// read back, settings replaced and read back, a 400 naming the setting), files served with their types and nothing
// outside build/docs, a clear error on a busy or doubled port, and Ctrl-C leaves nothing running. `npm run mock`
// still runs the static mocks.
import { spawnSync } from "node:child_process";
import { rmSync, symlinkSync } from "node:fs";
import { type IncomingHttpHeaders, request } from "node:http";
import { createServer } from "node:net";
import { join } from "node:path";
import { expect, it } from "vitest";
import { freePort, portInUse } from "../../scripts/lib/mock-servers.mjs";
import { root } from "../../scripts/lib/toolchain.mjs";
import { prismsStartedBy, runNpmStart, sandboxOnPort, stillRunning, stopNpmStart } from "../support/npm-start.js";

/**
 * A request with the path sent exactly as written (fetch would normalise `..` away before sending) and headers fetch
 * would not send (Host, Origin).
 */
function rawRequest(
  port: number,
  path: string,
  { method = "GET", headers = {} }: { method?: string; headers?: Record<string, string> } = {},
): Promise<{ status: number; type: string | undefined; headers: IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    request({ host: "127.0.0.1", port, path, method, headers }, (response) => {
      response.resume();
      resolve({ status: response.statusCode ?? 0, type: response.headers["content-type"], headers: response.headers });
    })
      .on("error", reject)
      .end();
  });
}

const foreignHost = "rebind.attacker.example";
const foreignPreflight = {
  method: "OPTIONS",
  headers: { origin: "http://attacker.example", "access-control-request-method": "POST", "access-control-request-headers": "authorization" },
};

/**
 * What a web page elsewhere gets from the docs server and both interfaces' ports: a domain rebound to 127.0.0.1 (its
 * own name in Host) gets 403, and a preflight from its origin no CORS allowance; the guard refuses its requests too.
 * A page of this machine on another port (a front end in development) may call the interfaces, without credentials.
 */
async function expectOnlyPagesOfThisMachine(ports: { docs: number; management: number; alerts: number }) {
  for (const [name, port] of Object.entries({ docs: ports.docs, management: ports.management, alerts: ports.alerts })) {
    expect((await rawRequest(port, "/", { headers: { host: `${foreignHost}:${port}` } })).status, name).toBe(403);
    const preflight = await rawRequest(port, "/", foreignPreflight);
    expect(preflight.headers["access-control-allow-origin"], name).toBeUndefined();
    expect(preflight.headers["access-control-allow-credentials"], name).toBeUndefined();
  }
  for (const port of [ports.management, ports.alerts]) {
    const fromElsewhere = await rawRequest(port, "/", { headers: { origin: "http://attacker.example" } });
    expect(fromElsewhere.status).toBe(403);
    expect(Object.keys(fromElsewhere.headers).filter((name) => name.startsWith("access-control-"))).toEqual([]);
    const local = await rawRequest(port, "/", { ...foreignPreflight, headers: { ...foreignPreflight.headers, origin: "http://localhost:5173" } });
    expect(local).toMatchObject({
      status: 204,
      headers: { "access-control-allow-origin": "http://localhost:5173", "access-control-allow-headers": "authorization" },
    });
    expect(local.headers["access-control-allow-credentials"]).toBeUndefined();
  }
}

/** Each printed "Try ..." block, run as pasted into sh; resolves to the JSON answers each printed, one a line. */
function runTour(output: string): Record<string, any[]> {
  const blocks = output.split("\n\n").filter((block) => block.startsWith("Try "));
  return Object.fromEntries(
    blocks.map((block) => {
      const [title = "", ...commands] = block.split("\n");
      const run = spawnSync("sh", ["-ec", commands.join("\n")], { encoding: "utf8", timeout: 30_000 });
      expect(run.status, `${title}\n${run.stderr}`).toBe(0);
      return [
        title,
        run.stdout
          .trim()
          .split("\n")
          .map((line) => JSON.parse(line)),
      ];
    }),
  );
}

it("prints the URLs and a sandbox tour that works as pasted, serves build/docs only, answers no page of another host, and stops everything on Ctrl-C", async () => {
  const npmStart = await runNpmStart();
  const { ports } = npmStart;
  let prisms: number[] = [];
  try {
    const output = npmStart.output();
    for (const port of Object.values(ports)) expect(output).toContain(`http://127.0.0.1:${port}`);
    const answers = Object.values(runTour(output));
    expect(answers).toHaveLength(4);
    const [endpoint, settings, badSetting, alert] = answers as [any[], any[], any[], any[]];
    // The created endpoint, read back: a UUID of its own and the example's type.
    expect(endpoint).toEqual([expect.objectContaining({ type: "KAFKA_MULTI_VPC", id: expect.stringMatching(/^[0-9a-f-]{36}$/) })]);
    // The PUT's answer and the GET after it are the same settings.
    expect(settings).toHaveLength(2);
    expect(settings[1].result).toEqual(settings[0].result);
    expect(badSetting).toEqual([expect.objectContaining({ status: 400, error: expect.stringMatching(/engine_\w+ must be <= \d+/) })]);
    expect(alert).toHaveLength(1);
    expect(alert[0].data.id).toMatch(/^[0-9a-f]{24}$/);
    expect(await rawRequest(ports.docs, "/")).toMatchObject({ status: 200, type: "text/html; charset=utf-8" });
    expect(await rawRequest(ports.docs, "/openapi/management.json")).toMatchObject({ status: 200, type: "application/json; charset=utf-8" });
    expect(await rawRequest(ports.docs, "/openapi/alerts.yaml")).toMatchObject({ status: 200, type: "application/yaml; charset=utf-8" });
    // No type sniffing, and nothing loaded from another origin, whatever a page would try: on every answer.
    const docsAnswers = {
      200: await rawRequest(ports.docs, "/management.html"),
      400: await rawRequest(ports.docs, "/%E0%A4%A"),
      403: await rawRequest(ports.docs, "/", { headers: { host: foreignHost } }),
      404: await rawRequest(ports.docs, "/nope.html"),
      405: await rawRequest(ports.docs, "/", { method: "POST" }),
    };
    for (const [status, { status: actual, headers }] of Object.entries(docsAnswers)) {
      expect(actual, status).toBe(Number(status));
      expect(headers["x-content-type-options"], status).toBe("nosniff");
      expect(headers["content-security-policy"], status).toContain("default-src 'self'");
      expect(headers["referrer-policy"], status).toBe("no-referrer");
    }
    await expectOnlyPagesOfThisMachine(ports);
    // A link planted in build/docs that points out of it is not followed.
    const planted = join(root, "build", "docs", `planted-${process.pid}.txt`);
    symlinkSync("/etc/passwd", planted);
    try {
      expect((await rawRequest(ports.docs, `/planted-${process.pid}.txt`)).status).toBe(404);
    } finally {
      rmSync(planted, { force: true });
    }
    for (const path of ["/../package.json", "/..%2Fpackage.json", "/%2e%2e/package.json", "/openapi/../../package.json", "/nope.html"]) {
      expect((await rawRequest(ports.docs, path)).status, path).toBe(404);
    }
    prisms = prismsStartedBy(npmStart.child.pid ?? 0);
    expect(prisms).toHaveLength(2);
    expect(sandboxOnPort(ports.sandbox)).toHaveLength(1);
  } finally {
    expect(await stopNpmStart(npmStart)).toBe(0);
  }
  expect(stillRunning(prisms)).toEqual([]);
  for (const port of [ports.docs, ports.management, ports.alerts]) expect(await portInUse(port)).toBe(false);
  expect(sandboxOnPort(ports.sandbox)).toEqual([]);
}, 120_000);

it("npm run mock runs the static Prism mocks, with a curl per mock that works as pasted, and answers no page of another host", async () => {
  const npmStart = await runNpmStart(["--mock"]);
  try {
    expect(npmStart.output()).toContain("Prism mock of generated/openapi/management.json");
    const answers = Object.values(runTour(npmStart.output()));
    expect(answers).toHaveLength(2);
    for (const answer of answers) expect(answer).toEqual([expect.any(Object)]);
    await expectOnlyPagesOfThisMachine(npmStart.ports);
    expect(sandboxOnPort(npmStart.ports.sandbox)).toEqual([]);
  } finally {
    expect(await stopNpmStart(npmStart)).toBe(0);
  }
}, 120_000);

async function npmStartWith(ports: Record<string, number>) {
  return spawnSync(process.execPath, ["scripts/start.mjs"], {
    cwd: root,
    encoding: "utf8",
    timeout: 30_000,
    env: { ...process.env, ...Object.fromEntries(Object.entries(ports).map(([name, port]) => [name, String(port)])) },
  });
}

it.each(["DOCS_PORT", "MANAGEMENT_MOCK_PORT", "ALERTS_MOCK_PORT", "SANDBOX_PORT"])(
  "a busy %s gives a one-line error naming the port and the variable",
  async (variable) => {
    const blocker = createServer();
    const port = await freePort();
    await new Promise<void>((resolve) => blocker.listen(port, "127.0.0.1", resolve));
    try {
      const run = await npmStartWith({
        DOCS_PORT: await freePort(),
        MANAGEMENT_MOCK_PORT: await freePort(),
        ALERTS_MOCK_PORT: await freePort(),
        SANDBOX_PORT: await freePort(),
        [variable]: port,
      });
      expect(run.status).toBe(1);
      expect(run.stderr).toBe(`npm start: port ${port} is already in use; set ${variable} to another port\n`);
    } finally {
      blocker.close();
    }
  },
);

it("refuses two variables set to the same port, naming both", async () => {
  const port = await freePort();
  const run = await npmStartWith({ DOCS_PORT: await freePort(), MANAGEMENT_MOCK_PORT: port, ALERTS_MOCK_PORT: port, SANDBOX_PORT: await freePort() });
  expect(run.status).toBe(1);
  expect(run.stderr).toBe(`npm start: MANAGEMENT_MOCK_PORT and ALERTS_MOCK_PORT are both ${port}; give each its own port\n`);
});
