// `check-traffic` in its two implementations: `ingestion-api check-traffic` (dist/cli.js) and the wheel's
// `python3 -m ingestion_api_contract check-traffic`, the wheel built twice to the same bytes and installed offline
// into a fresh virtual environment, as a team without Node installs it. Both read the shared vectors' HTTP form and
// a HAR recorded from the sandbox with breaks planted in it, and must find the same parts of the same exchanges
// at fault: exactly the vectors' verdicts, and exactly the planted breaks.
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { packageVersion } from "../../generated/package.js";
import { apis, root } from "../../scripts/lib/toolchain.mjs";
import { contractWheel } from "../../scripts/lib/wheel.mjs";
import { alerts, management } from "../../src/contract/interfaces.js";
import { exampleSeed } from "../../src/sandbox/seed.js";
import { type Sandbox, startSandbox } from "../../src/sandbox/server.js";
import { parts } from "../../src/traffic/check.js";
import { operationsOfApi, type Vector, vectorsOf } from "../../src/verify/contract.js";
import { type Har, harRecorder } from "../support/har-recorder.js";
import { spawnAndCollect } from "../support/processes.js";
import { python3, pythonMissing, skipPython } from "../support/python.js";
import { sandboxCredentials } from "../support/sandbox.js";

const work = mkdtempSync(join(tmpdir(), "ingestion-api-check-traffic-"));
const cli = join(root, "dist", "cli.js");
const venv = join(work, "venv");
const venvPython = join(venv, "bin", "python");
afterAll(() => rmSync(work, { recursive: true, force: true }));

interface JsonFinding {
  index: number;
  time: string | null;
  operation: string | null;
  part: string;
  where: string;
  rule: string;
}
interface JsonReport {
  tool: string;
  exchanges: number;
  passed: boolean;
  findings: JsonFinding[];
}

const authorization = {
  management: `Basic ${btoa(`${sandboxCredentials.keyId}:${sandboxCredentials.keySecret}`)}`,
  alerts: `Bearer ${sandboxCredentials.token}`,
};

/** Each exchange's parts at fault, `#<index> <part>`, sorted: what two implementations must agree on. */
const partsAtFault = (report: JsonReport) => [...new Set(report.findings.map(({ index, part }) => `#${index} ${part}`))].sort();

async function nodeCheck(file: string, ...options: string[]) {
  return spawnAndCollect(process.execPath, [cli, "check-traffic", file, ...options], { timeout: 30_000 });
}
async function pythonCheck(file: string, ...options: string[]) {
  return spawnAndCollect(venvPython, ["-m", "ingestion_api_contract", "check-traffic", file, ...options], { timeout: 30_000 });
}
async function bothReports(file: string): Promise<[JsonReport, JsonReport]> {
  const [node, python] = await Promise.all([nodeCheck(file, "--json"), pythonCheck(file, "--json")]);
  // Each read the file (0 or 1, never 2), and both reached the same exit code.
  expect([0, 1], node.stderr).toContain(node.status);
  expect(python.status, python.stderr).toBe(node.status);
  return [JSON.parse(node.stdout) as JsonReport, JSON.parse(python.stdout) as JsonReport];
}

describe("the wheel", () => {
  it("builds twice to the same bytes, the same the docs' downloads hold", () => {
    const first = contractWheel({ version: packageVersion });
    const second = contractWheel({ version: packageVersion });
    expect(first.name).toBe(`ingestion_api_contract-${packageVersion}-py3-none-any.whl`);
    expect(createHash("sha256").update(second.data).digest("hex")).toBe(createHash("sha256").update(first.data).digest("hex"));
    const published = join(root, "build", "docs", "downloads", first.name);
    expect(existsSync(published), "npm run build writes build/docs/downloads/").toBe(true);
    expect(readFileSync(published).equals(first.data)).toBe(true);
    expect(readFileSync(`${published}.sha256`, "utf8")).toBe(`${createHash("sha256").update(first.data).digest("hex")}  ${first.name}\n`);
  });

  it("holds the package, the bundles in all three forms, every schema and vector, and a RECORD of them", () => {
    const { contents } = contractWheel({ version: packageVersion });
    const paths = contents.map(({ path }) => path);
    for (const api of apis) {
      for (const variant of ["", ".openapi-3.0", ".dereferenced"])
        for (const extension of ["json", "yaml"]) expect(paths).toContain(`ingestion_api_contract/openapi/${api}${variant}.${extension}`);
    }
    const count = (prefix: string) => paths.filter((path) => path.startsWith(prefix)).length;
    for (const kind of ["schemas", "vectors"]) for (const api of apis) expect(count(`ingestion_api_contract/${kind}/${api}/`)).toBeGreaterThanOrEqual(2);
    expect(paths).toContain("ingestion_api_contract/__main__.py");
    expect(paths.at(-1)).toBe(`ingestion_api_contract-${packageVersion}.dist-info/RECORD`);
  });
});

describe.skipIf(skipPython)("both implementations", () => {
  let sandbox: Sandbox;
  let planted: string;
  let vectorsFile: string;
  /** What each vector's exchange must get: its index, and whether it is invalid. */
  let expectedVerdicts: { index: number; id: string; invalid: boolean; response: boolean }[];

  beforeAll(async () => {
    expect(python3, pythonMissing).toBeDefined();
    // Offline, into a fresh environment that sees the system's jsonschema, as CONTRACT.md says.
    const wheel = contractWheel({ version: packageVersion });
    const wheelFile = join(work, wheel.name);
    writeFileSync(wheelFile, wheel.data);
    const created = await spawnAndCollect(python3 as string, ["-m", "venv", "--system-site-packages", venv], { timeout: 60_000 });
    expect(created.status, `${created.stderr} (python3-venv installs it)`).toBe(0);
    const installed = await spawnAndCollect(join(venv, "bin", "pip"), ["install", "--no-index", "--no-deps", "--no-cache-dir", wheelFile], { timeout: 60_000 });
    expect(installed.status, installed.stdout + installed.stderr).toBe(0);

    sandbox = await startSandbox({ seed: exampleSeed(), credentials: sandboxCredentials });
    planted = join(work, "planted.har");
    writeFileSync(planted, JSON.stringify(plantBreaks(await recordFromSandbox(sandbox.url)), null, 2));
    vectorsFile = join(work, "vectors.jsonl");
    const vectors = vectorsAsJsonLines();
    expectedVerdicts = vectors.expected;
    writeFileSync(vectorsFile, vectors.text);
  }, 120_000);
  afterAll(() => sandbox?.close());

  it("runs the vectors through the wheel's API, from the command pip installed: every vector gets its verdict", async () => {
    const run = await spawnAndCollect(join(venv, "bin", "ingestion-api-contract"), ["vectors"], { timeout: 60_000 });
    expect(run.status, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toMatch(/all \d+ vectors got their verdict/);
  });

  it("agree on every vector's HTTP form, and each finds exactly the vectors' verdicts", async () => {
    const [node, python] = await bothReports(vectorsFile);
    expect(node.exchanges).toBe(expectedVerdicts.length);
    expect(python.exchanges).toBe(expectedVerdicts.length);
    expect(partsAtFault(python)).toEqual(partsAtFault(node));
    const faulty = new Set(node.findings.map(({ index }) => index));
    const wrong = expectedVerdicts.filter(({ index, invalid }) => faulty.has(index) !== invalid).map(({ id }) => id);
    expect(wrong).toEqual([]);
    // A request vector is judged on its parameters and body, a response vector on the answer's body.
    const responseIndexes = new Set(expectedVerdicts.filter(({ response }) => response).map(({ index }) => index));
    const misplaced = node.findings.filter(({ index, part }) =>
      responseIndexes.has(index) ? part !== "response body" : !["path", "query", "request body"].includes(part),
    );
    expect(misplaced).toEqual([]);
  }, 60_000);

  it("agree on the HAR recorded from the sandbox, and find exactly the breaks planted in it", async () => {
    const [node, python] = await bothReports(planted);
    expect(partsAtFault(python)).toEqual(partsAtFault(node));
    expect(partsAtFault(node)).toEqual(plantedParts.sort());
    expect(node.findings.find(({ part }) => part === "request body")).toMatchObject({ operation: "updatePipeSettings", where: "/engine_max_insert_threads" });
    expect(python.findings.find(({ part }) => part === "request body")).toMatchObject({ operation: "updatePipeSettings", where: "/engine_max_insert_threads" });
    for (const report of [node, python]) expect(report.findings.every(({ time }) => typeof time === "string" && time.endsWith("Z"))).toBe(true);
  }, 60_000);

  it("agree on exchanges changed at random, part by part, from a recording of the sandbox", async () => {
    const seed = Number(process.env.TRAFFIC_SEED ?? 20261129);
    const recorded = (await recordFromSandbox(sandbox.url)).log.entries.map(asJsonLines);
    const exchanges = fc.sample(changedExchange(recorded), { numRuns: 600, seed });
    const file = join(work, "changed.jsonl");
    writeFileSync(file, `${exchanges.map((exchange) => JSON.stringify(exchange)).join("\n")}\n`);
    const [node, python] = await bothReports(file);
    const disagreements = [...new Set([...partsAtFault(node), ...partsAtFault(python)])].filter(
      (part) => partsAtFault(node).includes(part) !== partsAtFault(python).includes(part),
    );
    const shown = disagreements.slice(0, 5).map((part) => {
      const index = Number(part.split(" ")[0]?.slice(1));
      return `${part}: ${JSON.stringify(exchanges[index - 1])}\n  node: ${JSON.stringify(node.findings.filter((f) => f.index === index))}\n  python: ${JSON.stringify(python.findings.filter((f) => f.index === index))}`;
    });
    expect(shown, `seed ${seed}`).toEqual([]);
    // The changes reach every part: a finding of each kind was compared.
    const found = new Set(node.findings.map(({ part }) => part));
    expect(
      parts.filter((part) => !found.has(part)),
      "parts no changed exchange broke",
    ).toEqual([]);
  }, 60_000);

  it("print what CONTRACT.md shows for a recording with one answer broken, the time aside", async () => {
    const shown = /\n```text output\n(ingestion-api check-traffic [\s\S]*?)```\n/.exec(readFileSync(join(root, "CONTRACT.md"), "utf8"))?.[1] ?? "";
    const har = await recordFromSandbox(sandbox.url);
    const pipe = har.log.entries[2] as Har["log"]["entries"][number];
    const body = JSON.parse(pipe.response.content.text ?? "") as { result: { name: unknown } };
    body.result.name = 42;
    pipe.response.content.text = JSON.stringify(body);
    writeFileSync(join(work, "recorded.har"), JSON.stringify(har));
    const withoutTimes = (text: string) => text.replace(/ \d{4}-\d\d-\d\dT[\d:.]+Z /g, " <time> ");
    for (const [command, args, tool] of [
      [process.execPath, [cli], "ingestion-api check-traffic"],
      [venvPython, ["-m", "ingestion_api_contract"], "ingestion-api-contract check-traffic"],
    ] as const) {
      const run = await spawnAndCollect(command, [...args, "check-traffic", "recorded.har"], { cwd: work, timeout: 30_000 });
      expect(run.status).toBe(1);
      expect(withoutTimes(run.stdout)).toBe(withoutTimes(shown).replace("ingestion-api check-traffic", tool));
    }
  });

  it("exit 0 on clean traffic, 1 on a finding, 2 on a file they cannot read, each saying why; and write JUnit XML", async () => {
    const clean = join(work, "clean.har");
    writeFileSync(clean, JSON.stringify(await recordFromSandbox(sandbox.url)));
    const missing = join(work, "missing.har");
    const garbled = join(work, "garbled.jsonl");
    writeFileSync(garbled, '{"request": {"method": "GET", "url": "/v1/x"}}\nnot json\n');
    // Both commands, every case at once: each run is a process of its own.
    await Promise.all(
      [nodeCheck, pythonCheck].map(async (check) => {
        const junitFile = join(work, `${check.name}.xml`);
        const [passed, failed, unreadable, notJson, unwritable] = await Promise.all([
          check(clean),
          check(planted, "--junit", junitFile),
          check(missing),
          check(garbled),
          check(clean, "--junit", join(work, "no-such-folder", "report.xml")),
        ]);
        expect(passed.status, passed.stdout + passed.stderr).toBe(0);
        expect(passed.stdout).toMatch(/PASSED: 10 exchanges/);
        expect(failed.status).toBe(1);
        expect(failed.stdout).toMatch(/FAILED: \d+ findings in 5 of 10 exchanges/);
        expect(readFileSync(junitFile, "utf8")).toMatch(/<testsuites name="[^"]*check-traffic" tests="10" failures="5"/);
        expect(unreadable.status).toBe(2);
        expect(unreadable.stderr).toMatch(/cannot read .*missing\.har/);
        expect(notJson.status).toBe(2);
        expect(notJson.stderr).toMatch(/line 2 is not JSON/);
        expect(unwritable.status).toBe(2);
        expect(unwritable.stderr).toMatch(/no-such-folder/);
      }),
    );
  }, 60_000);
});

/** Each operation's example request, a 429 of each interface and a 404, sent to the sandbox and recorded. */
async function recordFromSandbox(baseUrl: string): Promise<Har> {
  const recorder = harRecorder();
  const send = (api: "management" | "alerts", method: string, url: string, body?: unknown, headers: Record<string, string> = {}) =>
    recorder.fetch(`${baseUrl}${url}`, {
      method,
      headers: { authorization: authorization[api], ...(body !== undefined && { "content-type": "application/json" }), ...headers },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
  for (const api of [management, alerts]) {
    for (const operation of operationsOfApi(api)) await send(api.name, operation.method, operation.example.url, operation.example.body);
  }
  await send("management", "GET", operationsOfApi(management)[0]?.example.url ?? "", undefined, { prefer: "code=429" });
  await send("alerts", "GET", "/api/v2/alerts/65f1c2d3e4b5a69788796a5b", undefined, { prefer: "code=429" });
  await send("alerts", "GET", "/api/v2/alerts/0123456789abcdef01234567");
  return recorder.har();
}

/** The breaks planted, by the exchange they are in: what both must find, and nothing else. */
const plantedParts: string[] = [];
function plantBreaks(har: Har): Har {
  const entries = har.log.entries;
  const at = (pattern: RegExp, method = "GET") => {
    const index = entries.findIndex(
      (entry) =>
        entry.request.method === method && pattern.test(new URL(entry.request.url).pathname) && !entry.request.headers.some(({ name }) => name === "prefer"),
    );
    if (index < 0) throw new Error(`no recorded ${method} ${pattern}`);
    return { index: index + 1, entry: entries[index] as Har["log"]["entries"][number] };
  };
  // A response field of the wrong type: the pipe's name a number.
  const pipe = at(/\/pipes\/[^/]+$/);
  const body = JSON.parse(pipe.entry.response.content.text ?? "") as { result: { name: unknown } };
  body.result.name = 42;
  pipe.entry.response.content.text = JSON.stringify(body);
  plantedParts.push(`#${pipe.index} response body`);
  // A setting out of bounds in a request.
  const put = at(/\/settings$/, "PUT");
  const settings = JSON.parse(put.entry.request.postData?.text ?? "") as Record<string, unknown>;
  if (put.entry.request.postData) put.entry.request.postData.text = JSON.stringify({ ...settings, engine_max_insert_threads: 1000 });
  plantedParts.push(`#${put.index} request body`);
  // An undeclared status.
  const settingsRead = at(/\/settings$/);
  settingsRead.entry.response.status = 418;
  plantedParts.push(`#${settingsRead.index} response status`);
  // A missing required header: the alerting interface's 429 always names its wait.
  const limited = entries.findIndex((entry) => entry.response.status === 429 && entry.request.url.includes("/api/v2/"));
  const limitedEntry = entries[limited] as Har["log"]["entries"][number];
  limitedEntry.response.headers = limitedEntry.response.headers.filter(({ name }) => name.toLowerCase() !== "retry-after");
  plantedParts.push(`#${limited + 1} response headers`);
  // A request to no operation: a browser's recording holds the page's own requests too.
  const stray = at(/\/api\/v2\/alerts\/[^/]+$/);
  stray.entry.request.url = stray.entry.request.url.replace("/api/v2/alerts/", "/api/v2/alert/");
  plantedParts.push(`#${stray.index} operation`);
  return har;
}

/** The vectors' HTTP form as JSON Lines: a request vector's request, a response vector's request with its answer. */
function vectorsAsJsonLines(): { text: string; expected: { index: number; id: string; invalid: boolean; response: boolean }[] } {
  const lines: string[] = [];
  const expected: { index: number; id: string; invalid: boolean; response: boolean }[] = [];
  for (const api of [management, alerts]) {
    for (const vector of vectorsOf(api) as (Vector & { status?: number; mediaType?: string })[]) {
      if (vector.http === false) continue;
      const { method, path, query, headers, body } = vector.http;
      const request = {
        method,
        url: `http://127.0.0.1:4012${path}${query ? `?${query}` : ""}`,
        headers: { ...headers, authorization: authorization[api.name] },
        ...(body !== undefined && { body: JSON.stringify(body) }),
      };
      const response = vector.part === "response" ? answerOf(vector) : undefined;
      lines.push(JSON.stringify({ time: "2026-11-29T10:00:00.000Z", request, ...(response && { response }) }));
      expected.push({
        index: lines.length,
        id: `${api.name}/${vector.operation} ${vector.part} "${vector.name}"`,
        invalid: vector.verdict === "invalid",
        response: response !== undefined,
      });
    }
  }
  return { text: `${lines.join("\n")}\n`, expected };
}

/** A response vector as the answer it is the body of: its status and media type, and its value as that body's text. */
function answerOf(vector: Vector & { status?: number; mediaType?: string; value?: unknown }) {
  const mediaType = vector.mediaType ?? "application/json";
  const value = (vector as { value: unknown }).value;
  return {
    status: vector.status ?? 200,
    headers: { "content-type": mediaType },
    body: mediaType === "application/json" ? JSON.stringify(value) : String(value),
  };
}

type Line = {
  time?: string;
  request: { method: string; url: string; headers: Record<string, string>; body?: string };
  response?: { status: number; headers: Record<string, string>; body: string };
};

/** A HAR entry as a line of JSON Lines. */
function asJsonLines(entry: Har["log"]["entries"][number]): Line {
  const headers = (list: { name: string; value: string }[]) => Object.fromEntries(list.map(({ name, value }) => [name, value]));
  return {
    time: entry.startedDateTime,
    request: {
      method: entry.request.method,
      url: entry.request.url,
      headers: headers(entry.request.headers),
      ...(entry.request.postData && { body: entry.request.postData.text }),
    },
    response: { status: entry.response.status, headers: headers(entry.response.headers), body: entry.response.content.text ?? "" },
  };
}

/** The JSON object a body holds, or an empty one (a body another change made text, an array or a number). */
function objectIn(body: string | undefined): object {
  try {
    const value: unknown = JSON.parse(body ?? "");
    return typeof value === "object" && value !== null && !Array.isArray(value) ? value : {};
  } catch {
    return {};
  }
}

/** A recorded exchange with one to three of its parts changed: what a buggy client or server might have sent. */
function changedExchange(recorded: Line[]): fc.Arbitrary<Line> {
  const text = fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom("", " 10", "10", "1.5", "-1", "1e3", "0x10", "Infinity", "abc", "10 ", "007"));
  const json = fc.jsonValue({ maxDepth: 2 });
  const change: fc.Arbitrary<(line: Line) => void>[] = [
    fc.constantFrom("GET", "PUT", "POST", "DELETE", "get", "Patch").map((method) => (line) => {
      line.request.method = method;
    }),
    fc
      .tuple(
        fc.nat(),
        fc.oneof(fc.string({ maxLength: 30 }), fc.constantFrom("%41", "%zz", "65f1c2d3e4b5a69788796a5B", "7B1E3F0A-5C2D-4E8F-9A6B-1C3D5E7F9A0B", "")),
      )
      .map(([at, segment]) => (line) => {
        const url = new URL(line.request.url);
        const segments = url.pathname.split("/");
        segments[1 + (at % (segments.length - 1))] = segment;
        line.request.url = `${url.origin}${segments.join("/")}${url.search}`;
      }),
    fc.constantFrom("filter=tag:env", "filter=env", "filter=tag:a&filter=tag:b=c", "page=2", "filter=", "filter=tag%3Aa").map((query) => (line) => {
      line.request.url += `${line.request.url.includes("?") ? "&" : "?"}${query}`;
    }),
    fc.option(fc.constantFrom("Basic eDp5", "Bearer t", "basic eDp5", "Token x", "", " Basic eDp5", "Basic"), { nil: undefined }).map((value) => (line) => {
      if (value === undefined) delete line.request.headers.authorization;
      else line.request.headers.authorization = value;
    }),
    fc.constantFrom("application/json; charset=utf-8", "text/plain", "", "APPLICATION/JSON", "application/json ").map((value) => (line) => {
      line.request.headers["content-type"] = value;
    }),
    fc
      .oneof(
        json.map((value) => JSON.stringify(value)),
        text,
      )
      .map((body) => (line) => {
        line.request.body = body;
      }),
    fc.tuple(fc.string({ minLength: 1, maxLength: 30 }), json).map(([field, value]) => (line) => {
      line.request.body = JSON.stringify({ ...objectIn(line.request.body), [field.length % 2 ? "engine_max_threads" : field]: value });
    }),
    fc.integer({ min: 100, max: 599 }).map((status) => (line) => {
      if (line.response) line.response.status = status;
    }),
    fc.constantFrom("text/html", "text/plain", "", "application/json; charset=utf-8", "application/problem+json").map((value) => (line) => {
      if (line.response) line.response.headers["content-type"] = value;
    }),
    fc.tuple(fc.constantFrom("retry-after", "x-ratelimit-reset", "www-authenticate"), text).map(([name, value]) => (line) => {
      if (line.response) line.response.headers[name] = value;
    }),
    // A 429 or a 401 whose headers were changed: the answers that declare headers.
    fc
      .tuple(fc.constantFrom(429, 401), fc.constantFrom("retry-after", "x-ratelimit-reset", "www-authenticate"), fc.option(text, { nil: undefined }))
      .map(([status, name, value]) => (line) => {
        if (!line.response) return;
        line.response.status = status;
        if (value === undefined) delete line.response.headers[name];
        else line.response.headers[name] = value;
      }),
    fc
      .oneof(
        json.map((value) => JSON.stringify(value)),
        text,
      )
      .map((body) => (line) => {
        if (line.response) line.response.body = body;
      }),
    fc.tuple(fc.constantFrom("status", "requestId", "result", "data", "error", "message"), json).map(([field, value]) => (line) => {
      if (line.response) line.response.body = JSON.stringify({ ...objectIn(line.response.body), [field]: value });
    }),
    fc.constant((line: Line) => {
      delete line.response;
    }),
  ];
  return fc.tuple(fc.constantFrom(...recorded), fc.array(fc.oneof(...change), { minLength: 1, maxLength: 3 })).map(([line, changes]) => {
    const changed = structuredClone(line);
    for (const apply of changes) apply(changed);
    return changed;
  });
}
