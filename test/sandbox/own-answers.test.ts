// The sandbox's own answers, without Prism: every operation's example request gets a 200 the generated response
// validator accepts, and each declared error it gives (400, 401, 404) has the declared body. Then the other way:
// Prism in front of a sandbox seeded with a wrong answer reports it, so a quiet Prism means a correct sandbox.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { root } from "../../scripts/lib/toolchain.mjs";
import { defaultCredentials } from "../../src/sandbox/credentials.js";
import { exampleSeed, seedProblems } from "../../src/sandbox/seed.js";
import { type Sandbox, startSandbox } from "../../src/sandbox/server.js";
import { bundles, resolve, validateAgainst } from "../support/bundles.js";
import { authorizationOf } from "../support/credentials.js";
import { type Operation, operations } from "../support/operations.js";
import { sandboxCredentials, startSandboxBehindPrism, watchedFetch } from "../support/sandbox.js";
import { alertId, organizationId, pipeId, serviceId } from "../support/sdk-fixtures.js";

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ seed: exampleSeed(), credentials: sandboxCredentials });
});
afterAll(async () => {
  await sandbox?.close();
});

const authorization = authorizationOf(sandboxCredentials);

async function send(
  o: Operation,
  { url = o.example.url, body = o.example.body, authorized = true }: { url?: string; body?: unknown; authorized?: boolean } = {},
) {
  const response = await fetch(sandbox.url + url, {
    method: o.method,
    headers: { ...(authorized && { authorization: authorization[o.api] }), ...(body !== undefined && { "content-type": "application/json" }) },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: await response.json() };
}

/** Whether a body is what the operation declares for this status. */
function declared(o: Operation, status: number, body: unknown) {
  const entry = bundles[o.api].paths[o.path][o.method.toLowerCase()];
  const schema = resolve(o.api, resolve(o.api, entry.responses[String(status)]).content["application/json"].schema);
  return validateAgainst(o.api, schema, body);
}

/** The example URL with a path parameter (the last, or the first) replaced. */
function withPathParameter(o: Operation, which: "first" | "last", replacement: (value: string) => string): string {
  const names = [...o.path.matchAll(/\{(\w+)\}/g)].map((match) => match[1] as string);
  const value = o.example.path[(which === "first" ? names[0] : names.at(-1)) as string] as string;
  return o.example.url.replace(encodeURIComponent(value), replacement(value));
}

/** A value of the same format (a UUID, or a 24-hex id) that names nothing. */
const unknownLike = (value: string) => (value.includes("-") ? "0e0e0e0e-0e0e-4e0e-8e0e-0e0e0e0e0e0e" : "0123456789abcdef01234567");

describe.each(operations.map((o) => [o.operationId, o] as const))("%s", (_id, o) => {
  it("answers its example request with 200 and a body the generated response validator accepts", async () => {
    const answer = await send(o);
    expect(answer.status).toBe(200);
    expect(o.validators.response(answer.body), JSON.stringify(o.validators.response.errors)).toBe(true);
  });

  it("answers without credentials with 401 and the declared body", async () => {
    const answer = await send(o, { authorized: false });
    expect(answer.status).toBe(401);
    expect(declared(o, 401, answer.body).errors).toBe("No errors");
  });

  it("ignores a query parameter the operation does not declare, as the real services do (DECISIONS.md)", async () => {
    const url = `${o.example.url}${o.example.url.includes("?") ? "&" : "?"}foo=1`;
    const answer = await send(o, { url });
    expect(answer.status).toBe(200);
    expect(o.validators.response(answer.body), JSON.stringify(o.validators.response.errors)).toBe(true);
  });

  it("answers a request that breaks the contract with 400 and the declared body", async () => {
    // A malformed id where there is one, else an empty body.
    const hasPath = o.path.includes("{");
    const answer = hasPath ? await send(o, { url: withPathParameter(o, "first", () => "not-an-id") }) : await send(o, { body: {} });
    expect(answer.status).toBe(400);
    expect(declared(o, 400, answer.body).errors).toBe("No errors");
  });
});

describe.each(operations.filter((o) => o.errorStatuses.includes(404)).map((o) => [o.operationId, o] as const))("%s, which declares 404,", (_id, o) => {
  it("answers an unknown id of the right format with 404 and the declared body", async () => {
    const answer = await send(o, { url: withPathParameter(o, "last", unknownLike) });
    expect(answer.status).toBe(404);
    expect(declared(o, 404, answer.body).errors).toBe("No errors");
  });
});

describe("Prism in front of a wrong sandbox", () => {
  it("reports an answer that breaks the contract as a 500 naming the field", async () => {
    const seed = exampleSeed();
    const [pipe] = seed.pipes;
    if (!pipe) throw new Error("the examples seed no pipe");
    const maximum = resolve("management", bundles.management.components.schemas.engine_max_threads).maximum as number;
    pipe.settings = { engine_max_threads: maximum + 1 };
    const running = await startSandboxBehindPrism(seed, ["management"]);
    try {
      const flagged: string[] = [];
      const url = `${running.proxyUrl.management}/v1/organizations/${seed.services[0]?.organizationId}/services/${pipe.serviceId}/pipes/${pipe.id}/settings`;
      const response = await watchedFetch(flagged)(url, { headers: { authorization: authorization.management } });
      expect(response.status).toBe(500);
      expect(flagged).toHaveLength(1);
      expect(flagged[0]).toContain("engine_max_threads");
    } finally {
      await running.stop();
    }
  }, 60_000);
});

describe("seeds", () => {
  it("the specs' examples are a valid seed", () => {
    expect(seedProblems(exampleSeed())).toEqual([]);
  });

  it("a seed that breaks the contract is refused, naming the resource and the field", () => {
    const seed = exampleSeed() as any;
    seed.alerts[0].threshold = "high";
    seed.colours = [];
    const problems = seedProblems(seed);
    expect(problems).toContainEqual(expect.stringMatching(/^alerts\[0\] breaks the contract: .*threshold/));
    expect(problems).toContainEqual(expect.stringContaining("colours is not a part of a seed"));
  });
});

describe("the ingestion-api command (dist/cli.js)", () => {
  const folder = mkdtempSync(join(tmpdir(), "sandbox-seed-"));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  async function run(
    args: string[],
    env: Record<string, string> = {},
    stdin: "ignore" | "pipe" = "ignore",
  ): Promise<{ child: ChildProcess; output: () => string }> {
    const child = spawn(process.execPath, [join(root, "dist", "cli.js"), ...args], { env: { ...process.env, ...env }, stdio: [stdin, "pipe", "pipe"] });
    let output = "";
    child.stdout?.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
    child.stderr?.setEncoding("utf8").on("data", (chunk: string) => (output += chunk));
    for (const deadline = Date.now() + 15_000; !output.includes("Ctrl-C stops it.") && child.exitCode === null; ) {
      if (Date.now() > deadline) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return { child, output: () => output };
  }

  async function stop(child: ChildProcess): Promise<number | null> {
    if (child.exitCode !== null) return child.exitCode;
    const exited = once(child, "exit");
    child.kill("SIGTERM");
    const [code] = (await exited) as [number | null];
    return code;
  }

  it("serves a --seed file with credentials from the SDK's variables, and prints only the defaults", async () => {
    const { alerts } = exampleSeed();
    const file = join(folder, "seed.json");
    writeFileSync(file, JSON.stringify({ alerts: alerts.slice(0, 1) }));
    const { child, output } = await run(["sandbox", "--port", "0", "--seed", file], { INGESTION_ALERTS_TOKEN: "from-the-environment" });
    try {
      expect(output()).toContain("Bearer token (from INGESTION_ALERTS_TOKEN)");
      expect(output()).not.toContain("from-the-environment");
      expect(output()).toContain("key id sandbox-key-id");
      expect(output()).toContain("0 services, 0 pipes, 0 reverse private endpoints, 1 alert");
      const url = /on (http:\/\/127\.0\.0\.1:\d+)/.exec(output())?.[1];
      const response = await fetch(`${url}/api/v2/alerts/${alerts[0]?.id}`, { headers: { authorization: "Bearer from-the-environment" } });
      expect(await response.json()).toEqual({ data: alerts[0] });
    } finally {
      expect(await stop(child)).toBe(0);
    }
  });

  it("prints the ids of its seed a first call needs (an organization, its service and pipe, an alert), and they answer", async () => {
    const { child, output } = await run(["sandbox", "--port", "0"]);
    try {
      expect(output()).toContain(`ids         organization ${organizationId}, service ${serviceId}, its pipe ${pipeId}, alert ${alertId}`);
    } finally {
      expect(await stop(child)).toBe(0);
    }
    // A seed file's own ids: its one pipe belongs to the second example service, and its one alert is another.
    const seed = exampleSeed();
    const owner = seed.services[1]!;
    const pipe = { ...seed.pipes[0]!, id: "0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d", serviceId: owner.service.id };
    const file = join(folder, "own-ids.json");
    writeFileSync(file, JSON.stringify({ services: seed.services, pipes: [pipe], alerts: seed.alerts.slice(1) }));
    const own = await run(["sandbox", "--port", "0", "--seed", file]);
    try {
      expect(own.output()).toContain(
        `ids         organization ${owner.organizationId}, service ${owner.service.id}, its pipe ${pipe.id}, alert ${seed.alerts[1]?.id}`,
      );
      const url = /on (http:\/\/127\.0\.0\.1:\d+)/.exec(own.output())?.[1];
      const pipeUrl = `${url}/v1/organizations/${owner.organizationId}/services/${owner.service.id}/pipes/${pipe.id}`;
      // The command's printed default credentials.
      const printed = authorizationOf(defaultCredentials);
      expect((await fetch(pipeUrl, { headers: { authorization: printed.management } })).status).toBe(200);
      expect((await fetch(`${url}/api/v2/alerts/${seed.alerts[1]?.id}`, { headers: { authorization: printed.alerts } })).status).toBe(200);
    } finally {
      expect(await stop(own.child)).toBe(0);
    }
  });

  it("prints the reset as a command that works as pasted, and a POST that is not JSON gets a 415 showing the same", async () => {
    const { child, output } = await run(["sandbox", "--port", "0"]);
    try {
      const url = /on (http:\/\/127\.0\.0\.1:\d+)/.exec(output())?.[1] as string;
      const command = `curl -X POST -H 'content-type: application/json' -d '{}' ${url}/_sandbox/reset`;
      expect(output()).toContain(`  reset       ${command}\n`);
      const settings = `${url}/v1/organizations/${organizationId}/services/${serviceId}/pipes/${pipeId}/settings`;
      const headers = { authorization: authorizationOf(defaultCredentials).management, "content-type": "application/json" };
      const read = async () => ((await (await fetch(settings, { headers })).json()) as { result: unknown }).result;
      const seeded = await read();
      expect((await fetch(settings, { method: "PUT", headers, body: JSON.stringify({ engine_max_threads: 3 }) })).status).toBe(200);
      expect(await read()).toEqual({ engine_max_threads: 3 });
      // What a script's first try sends: no content type, no body. Nothing is reset, and the answer says what works.
      const refused = await fetch(`${url}/_sandbox/reset`, { method: "POST" });
      expect(refused.status).toBe(415);
      expect(((await refused.json()) as { error: string }).error).toContain(command);
      expect(await read()).toEqual({ engine_max_threads: 3 });
      const pasted = spawnSync("bash", ["-c", command], { encoding: "utf8" });
      expect(pasted.status, pasted.stderr).toBe(0);
      expect(await read()).toEqual(seeded);
    } finally {
      expect(await stop(child)).toBe(0);
    }
  });

  it("leaves out the ids its seed does not hold", async () => {
    const file = join(folder, "alerts-only.json");
    writeFileSync(file, JSON.stringify({ alerts: exampleSeed().alerts.slice(0, 1) }));
    const { child, output } = await run(["sandbox", "--port", "0", "--seed", file]);
    try {
      expect(output()).toContain(`ids         alert ${alertId}\n`);
    } finally {
      expect(await stop(child)).toBe(0);
    }
  });

  it("refuses a seed that breaks the contract, saying where", async () => {
    const file = join(folder, "broken.json");
    writeFileSync(file, JSON.stringify({ pipes: [{ id: "x" }] }));
    const { child, output } = await run(["sandbox", "--port", "0", "--seed", file]);
    expect(await stop(child)).toBe(2);
    expect(output()).toContain("pipes[0] breaks the contract");
  });

  it.each(["SIGTERM", "SIGHUP", "SIGINT"] as const)("stops on %s, closing its port", async (signal) => {
    const { child, output } = await run(["sandbox", "--port", "0"]);
    const url = /on (http:\/\/127\.0\.0\.1:\d+)/.exec(output())?.[1];
    // It answers before the signal, so that its refusing afterwards says the signal closed its port.
    expect(url).toBeDefined();
    expect((await fetch(`${url}/_sandbox/state?limit=0`)).status).toBe(200);
    const exited = once(child, "exit");
    child.kill(signal);
    expect((await exited)[0]).toBe(0);
    await expect(fetch(`${url}/_sandbox/state?limit=0`)).rejects.toThrow();
  });

  it("stops when the process that started it closes its stdin (say, it died)", async () => {
    const { child } = await run(["sandbox", "--port", "0"], {}, "pipe");
    const exited = once(child, "exit");
    child.stdin?.end();
    expect((await exited)[0]).toBe(0);
  });

  it("lives as long as the script that started it in the background, not as long as whatever started the script", async () => {
    const out = join(folder, "background.out");
    // A script (bash) starts the sandbox in the background and stays; the shell that started the script exits at once.
    const script = `node ${join(root, "dist", "cli.js")} sandbox --port 0 < /dev/null > ${out} 2>&1 & echo $$; sleep 30`;
    // The starter outlives the sandbox's start by a little, so the sandbox sees it among its ancestors first.
    const starter = spawn("bash", ["-c", `bash -c '${script}' & sleep 2; exit 0`], { stdio: ["ignore", "pipe", "ignore"] });
    const scriptPid = Number((await once(starter.stdout!, "data"))[0].toString().trim());
    await once(starter, "exit");
    let url: string | undefined;
    for (const deadline = Date.now() + 15_000; !url && Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, 100)))
      url = /on (http:\/\/127\.0\.0\.1:\d+)/.exec(readFileSync(out, "utf8"))?.[1];
    // The starter is gone; the script still runs, and so does its sandbox, past the half-second it checks at.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect((await fetch(`${url}/_sandbox/state?limit=0`)).status).toBe(200);
    process.kill(scriptPid, "SIGKILL");
    let stopped = false;
    for (const deadline = Date.now() + 5_000; !stopped && Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, 100)))
      stopped = await fetch(`${url}/_sandbox/state?limit=0`).then(
        () => false,
        () => true,
      );
    expect(stopped).toBe(true);
  });

  it("warns, naming what it exposes, when it listens on an address other than loopback", async () => {
    const { child, output } = await run(["sandbox", "--port", "0", "--host", "0.0.0.0"]);
    try {
      expect(output()).toContain("warning: listening on 0.0.0.0, not loopback: whoever reaches it can use the sandbox");
      expect(output()).toContain("/_sandbox/ routes (reset, state, faults), which take none");
    } finally {
      await stop(child);
    }
  });

  it.each([
    [["--latency", "fast"], "--latency takes milliseconds up to 60000, or MIN-MAX"],
    [["--latency", "90-10"], "--latency takes milliseconds up to 60000, or MIN-MAX"],
    [["--max-resources", "lots"], "--max-resources must be an integer of 0 or more"],
    [["--rate-limit", "10/1m"], "--rate-limit takes N/Ts or N/Tms"],
  ])("refuses %j, saying what it takes", async (flags, message) => {
    const { child, output } = await run(["sandbox", "--port", "0", ...flags]);
    expect(await stop(child)).toBe(2);
    expect(output()).toContain(message);
  });
});
