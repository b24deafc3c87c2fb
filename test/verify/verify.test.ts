// `ingestion-api verify`, run as users run it (dist/cli.js), against the sandbox and against a server with planted
// defects: it passes a correct server, reports each defect once and nothing else, keeps to what its mode allows,
// keeps the rate limit, and its command says no to what it does not take.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { root } from "../../scripts/lib/toolchain.mjs";
import { allDefects, type BrokenServer, startBrokenServer } from "../support/broken-server.js";
import { spawnAndCollect } from "../support/processes.js";

const cli = join(root, "dist", "cli.js");
const credentials = ["--key-id", "sandbox-key-id", "--key-secret", "sandbox-key-secret", "--token", "sandbox-token"];

const run = (args: string[]) => spawnAndCollect(process.execPath, [cli, ...args], { timeout: 60_000 });

interface JsonReport {
  passed: boolean;
  requests: number;
  checks: { id: string; kind: string; operationId: string; name: string; status: string; reasons: string[]; skipped?: string }[];
  findings: { api: string; operationId: string; about: string; problem: string; firstSeenIn: { kind: string; name: string }; answers: number }[];
}

const verify = async (server: BrokenServer, ...args: string[]) => {
  const result = await run(["verify", "--management-url", server.url, "--alerts-url", server.url, ...credentials, "--json", "--rate-limit", "off", ...args]);
  return { ...result, report: JSON.parse(result.stdout || "null") as JsonReport };
};

describe("against the sandbox", () => {
  let server: BrokenServer;
  beforeAll(async () => {
    server = await startBrokenServer();
  });
  afterAll(() => server?.close());

  it("passes with writes allowed: every refusal, acceptance, authentication and flow, and every answer declared", async () => {
    const before = server.sandbox.state;
    const { status, report, stderr } = await verify(server, "--allow-writes");
    const after = server.sandbox.state;
    expect(report.checks.filter((check) => check.status !== "passed")).toEqual([]);
    expect(report.findings).toEqual([]);
    expect(status).toBe(0);
    const kinds: Record<string, JsonReport["checks"]> = {};
    for (const check of report.checks) kinds[check.kind] = [...(kinds[check.kind] ?? []), check];
    // The vectors with an HTTP form (request and params), three authentication cases per operation, six flows and
    // the two that keep the pipes' settings (read first, put back last).
    expect(kinds.refusal?.length).toBe(178);
    expect(kinds.acceptance?.length).toBe(97);
    expect(kinds.authentication?.length).toBe(21);
    expect(kinds.flow?.map((check) => check.name).sort()).toEqual([
      "a KAFKA_MULTI_VPC endpoint is created (the KafkaMultiVpc example)",
      "a VPC_ENDPOINT_SERVICE endpoint is created (the VpcEndpointService example)",
      "a VPC_RESOURCE endpoint is created (the VpcResource example)",
      "the SearchAlert example is created, then read back equal",
      "the TileAlert example is created, then read back equal",
      "the Tune example replaces the settings, then read back",
      "the settings of every pipe written are put back",
      "the settings of every pipe written are read first",
    ]);
    expect(stderr).toContain(`verify: ${report.requests}/${report.requests} requests`);
    // Every pipe's settings are back as they were, though the valid vectors and the flow replaced them 41 times
    // (its updatedAt says when, as a server's would).
    expect(server.seen.filter(({ method }) => method === "PUT").at(-1)?.status).toBe(200);
    expect(after.pipes.map(({ settings }) => settings)).toEqual(before.pipes.map(({ settings }) => settings));
    // What stays on a server with the examples' ids is what --help warns of.
    const created = [after.alerts.length - before.alerts.length, after.reversePrivateEndpoints.length - before.reversePrivateEndpoints.length];
    const help = await run(["verify", "--help"]);
    expect(help.stdout).toContain(`up to ${created[0]} alerts and ${created[1]} endpoints`);
  });

  it("without --allow-writes changes nothing: its POST and PUT requests are the ones the contract refuses before any change", async () => {
    const before = JSON.stringify(server.sandbox.state);
    const from = server.seen.length;
    const { status, report } = await verify(server);
    expect(status).toBe(0);
    expect(JSON.stringify(server.sandbox.state)).toBe(before);
    const writes = server.seen.slice(from).filter(({ method }) => method !== "GET");
    expect(writes.length).toBeGreaterThan(100);
    expect(writes.filter(({ status }) => status < 400)).toEqual([]);
    const skipped = report.checks.filter((check) => check.status === "skipped");
    expect(skipped.length).toBeGreaterThan(0);
    expect(skipped.every((check) => check.skipped?.startsWith("they need --allow-writes"))).toBe(true);
  });

  it("--read-only sends GET requests only", async () => {
    const from = server.seen.length;
    const { status, report } = await verify(server, "--read-only");
    expect(status).toBe(0);
    expect(new Set(server.seen.slice(from).map(({ method }) => method))).toEqual(new Set(["GET"]));
    expect(report.checks.filter((check) => check.status === "passed").length).toBeGreaterThan(40);
  });

  it("--only runs one operation's checks, its credentials check too, and the summary lists only what ran", async () => {
    const { status, report } = await verify(server, "--only", "getPipe");
    expect(status).toBe(0);
    // The credentials check, which always comes first, reads with the named GET; the other interface is left alone.
    expect(report.checks[0]).toMatchObject({ kind: "credentials", operationId: "getPipe" });
    expect(new Set(report.checks.map((check) => check.operationId))).toEqual(new Set(["getPipe"]));
    const { stdout, stderr } = await run(["verify", "--management-url", server.url, ...credentials, "--only", "getPipe", "--rate-limit", "off"]);
    expect(stdout).not.toContain("listServices");
    expect(stdout).toMatch(/\n {2}getPipe +\d+ passed\n/);
    // Not a terminal: a progress line at the start (then every 15 s) and when it is done, which names no time left.
    expect(stderr.trim().split("\n").at(-1)).toMatch(/^verify: (\d+)\/\1 requests$/);
    expect(stderr).not.toMatch(/\d ms left/);
  });

  it("--only with no GET of its own reads the credentials with the interface's first GET", async () => {
    const { report } = await verify(server, "--only", "createAlert");
    expect(report.checks[0]).toMatchObject({ kind: "credentials", operationId: "getAlert" });
    expect(new Set(report.checks.slice(1).map((check) => check.operationId))).toEqual(new Set(["createAlert"]));
  });

  it("writes the report as JUnit XML, a suite per operation", async () => {
    const dir = mkdtempSync(join(tmpdir(), "verify-junit-"));
    try {
      const { status } = await verify(server, "--only", "getAlert", "--junit", join(dir, "report.xml"));
      expect(status).toBe(0);
      const xml = readFileSync(join(dir, "report.xml"), "utf8");
      expect(xml).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<testsuites name="ingestion-api verify" tests="\d+" failures="0"/);
      expect(xml).toContain('<testsuite name="alerts.getAlert"');
      expect(xml).toContain('<testcase name="authentication &quot;no credentials&quot;" classname="alerts.getAlert"/>');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("against a server with planted defects", () => {
  let server: BrokenServer;
  let result: Awaited<ReturnType<typeof verify>>;
  beforeAll(async () => {
    server = await startBrokenServer(allDefects);
    result = await verify(server, "--allow-writes");
  });
  afterAll(() => server?.close());

  it("reports each defect once, naming the vector or flow, and nothing else; exits 1", () => {
    const { report, status } = result;
    const reported = [
      ...report.checks
        .filter((check) => check.status === "failed")
        .map((check) => `${check.operationId} ${check.kind} "${check.name}": ${check.reasons.join("; ")}`),
      ...report.findings.map(
        (finding) => `${finding.operationId} answer ${finding.about}: ${finding.problem} [first in ${finding.firstSeenIn.kind} "${finding.firstSeenIn.name}"]`,
      ),
    ].sort();
    expect(reported).toEqual([
      expect.stringMatching(/^createAlert answer 400: no body, where 400 declares application\/json \[first in refusal "interval "7m""\]$/),
      expect.stringMatching(/^getPipe answer 200 application\/json: \/result\/state must be string \[first in /),
      expect.stringMatching(/^listServices answer 200 application\/json: \/requestId is required \[first in /),
      expect.stringMatching(
        /^listServices answer 401: header www-authenticate must match the pattern .* \(sent "Bearer realm=\\"broken\\""\) \[first in authentication "no credentials"\]$/,
      ),
      expect.stringMatching(/^listServices answer 422: 422 is not an answer listServices declares \[first in acceptance "a tag-presence filter"\]$/),
      expect.stringMatching(/^updatePipeSettings refusal "engine_max_threads above its maximum": answered 200; the contract refuses this request with 400$/),
    ]);
    expect(status).toBe(1);
  });

  it("says so in its summary, grouped by operation, with the rule of a failed vector", async () => {
    const { status, stdout } = await run(["verify", "--management-url", server.url, ...credentials, "--rate-limit", "off", "--only", "updatePipeSettings"]);
    expect(status).toBe(1);
    expect(stdout).toMatch(/\n {2}updatePipeSettings +\d+ passed, 1 failed, 1 answer problem, \d+ skipped\n/);
    expect(stdout).toContain('    ✗ refusal "engine_max_threads above its maximum": answered 200; the contract refuses this request with 400\n');
    expect(stdout).toContain("      rule: engine_max_threads is an integer from 0 to 64 (inclusive) or null\n");
    expect(stdout).toContain("    ✗ answer 401: header www-authenticate must match the pattern");
    // listServices' answer to the credentials check lacks its requestId.
    expect(stdout).toMatch(
      /\n {2}listServices +1 passed, 1 answer problem\n {4}✗ answer 200 application\/json: \/requestId is required \(1 answer; first in the server is reachable/,
    );
    expect(stdout).toContain("\nNot run: 43 checks (they need --allow-writes: a valid POST or PUT, or a flow).\n");
    expect(stdout).toMatch(/\nFAILED: 1 of \d+ checks failed, and 2 problems were found in the answers \(\d+ requests in [^)]+\)\.\n$/);
  });
});

describe("the rate limit", () => {
  it("is kept: against a server that answers 429 past 5 requests a second, verify at that pace gets none", async () => {
    const server = await startBrokenServer([], { rateLimit: { requests: 5, intervalMs: 1000 } });
    try {
      const started = Date.now();
      const { status, report } = await verify(server, "--only", "getPipe", "--rate-limit", "5/1s");
      const seconds = (Date.now() - started) / 1000;
      expect(status).toBe(0);
      // 12 requests at 5 per second (and its margin): the last leaves after two windows.
      expect(report.requests).toBe(12);
      expect(server.seen.filter(({ status }) => status === 429)).toEqual([]);
      expect(seconds).toBeGreaterThan(2);
      expect(seconds).toBeLessThan(8);
    } finally {
      await server.close();
    }
  });

  it("waits out a 429 and sends again: with no limit kept against a server limiting 5 a second, every check passes", async () => {
    const server = await startBrokenServer([], { rateLimit: { requests: 5, intervalMs: 1000 } });
    try {
      const { status, report } = await verify(server, "--only", "getPipe");
      expect(status).toBe(0);
      const limited = server.seen.filter(({ status }) => status === 429).length;
      expect(limited).toBeGreaterThan(0);
      // Each 429 was an answer too (judged: its JSON body and X-RateLimit-Reset), and its request went again.
      expect(report.requests).toBe(12 + limited);
      expect(report.findings).toEqual([]);
    } finally {
      await server.close();
    }
  });
});

describe("the command", () => {
  it("lists every subcommand on --help, and each has its own --help", async () => {
    const top = await run(["--help"]);
    expect(top.status).toBe(0);
    expect(top.stdout).toMatch(/ {2}sandbox +run a stateful server/);
    expect(top.stdout).toMatch(/ {2}verify +check a running server/);
    const help = await run(["verify", "--help"]);
    expect(help.status).toBe(0);
    expect(help.stdout).toContain("usage: ingestion-api verify");
    expect(help.stdout).toContain("The contract has no delete: every alert");
    const sandbox = await run(["sandbox", "--help"]);
    expect(sandbox.stdout).toContain("usage: ingestion-api sandbox");
    expect((await run(["--version"])).stdout.trim()).toBe(JSON.parse(readFileSync(join(root, "package.json"), "utf8")).version);
  });

  it.each([
    [["verifyy"], 'there is no command "verifyy"; the commands are sandbox, verify'],
    [[], "a command is needed: sandbox, verify"],
    [["--port", "1"], "the option --port belongs to no command"],
    [["verify", "--managment-url", "http://127.0.0.1:1"], "--managment-url is not an option; ingestion-api verify takes --management-url, --alerts-url"],
    [["sandbox", "--prot", "1"], "--prot is not an option; ingestion-api sandbox takes --port"],
    [["verify", "--help-me"], "--help-me is not an option"],
    [["verify"], "name a server to check: --management-url URL, --alerts-url URL, or both"],
    [["verify", "--alerts-url", "http://127.0.0.1:1", "--read-only", "--allow-writes", "--token", "t"], "--read-only and --allow-writes contradict each other"],
    [["verify", "--alerts-url", "http://127.0.0.1:1/api/v2", "--token", "t"], "ends with /api/v2"],
    [["verify", "--alerts-url", "http://example.com", "--token", "t"], "refusing plain http:// to example.com"],
    [["verify", "--management-url", "http://127.0.0.1:1"], "the management interface needs a key id and secret"],
    [["verify", "--alerts-url", "http://127.0.0.1:1", "--token", "t", "--only", "getPipe"], "--only getPipe: no such operation among createAlert, getAlert"],
    [["verify", "--alerts-url", "http://127.0.0.1:1", "--token", "t", "--rate-limit", "fast"], "--rate-limit takes off, or N/Ts or N/Tms"],
  ])("ingestion-api %j exits 2 and says why", async (args, message) => {
    const { status, stderr, stdout } = await run(args);
    expect(stderr).toContain(message);
    expect(stdout).toBe("");
    expect(status).toBe(2);
  });

  it("a server that is not there fails the credentials check, skips the rest, and exits 1", async () => {
    const { status, report } = await (async () => {
      const result = await run(["verify", "--alerts-url", "http://127.0.0.1:9", "--token", "t", "--json", "--rate-limit", "off"]);
      return { ...result, report: JSON.parse(result.stdout) as JsonReport };
    })();
    expect(status).toBe(1);
    expect(report.checks[0]).toMatchObject({ kind: "credentials", status: "failed" });
    expect(report.checks[0]?.reasons[0]).toMatch(/^got no answer \(ConnectionError: .*\): check the URL and the credentials$/);
    const rest = report.checks.slice(1);
    expect(rest.length).toBeGreaterThan(0);
    expect(rest.every((check) => check.status === "skipped")).toBe(true);
  });
});

it("prints the summary CONTRACT.md shows, for the server with the two defects it names, whatever order its answers come in", async () => {
  const contract = readFileSync(join(root, "CONTRACT.md"), "utf8");
  const shown = /\n```text output\n(ingestion-api verify [\s\S]*?)```\n/.exec(contract)?.[1] ?? "";
  // Answers up to 30 ms apart, so the checks that run four at a time finish in another order each run: the report
  // names the first check in the plan's order that saw a problem, not the first to finish.
  const server = await startBrokenServer(["wrong-field-type", "ok-for-invalid-body"], { latencyMs: [0, 30] });
  try {
    const { stdout } = await run(["verify", "--management-url", server.url, ...credentials, "--rate-limit", "off", "--allow-writes"]);
    const comparable = (text: string) =>
      text
        .replace(/^ingestion-api verify \S+/, "ingestion-api verify X")
        .replace(/http:\/\/127\.0\.0\.1:\d+/g, "URL")
        .replace(/ in [\d.]+ (ms|s)\)/, " in T)");
    expect(comparable(stdout)).toBe(comparable(shown));
  } finally {
    await server.close();
  }
});
