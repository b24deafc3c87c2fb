// `npx ingestion-api docs` from an installed package, with no checkout: the pages come from the companion package
// ingestion-api-docs (npm run docs:package), fetched with npm from a registry (a loopback stand-in here) into the
// user's cache, then served from the cache, or found installed beside the package. Needs build/docs (npm run build).
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../scripts/lib/mock-servers.mjs";
import { root } from "../../scripts/lib/toolchain.mjs";
import { type ConsumerProject, createConsumerProject } from "../support/consumer-project.js";

const { version } = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { version: string };
const companion = "ingestion-api-docs";

let work: string;
/** The package as npm installs its tarball: the shipped files alone, its dependencies beside it. */
let project: ConsumerProject;
let tarball: Buffer;
let registry: Server;
let registryUrl: string;
const registryRequests: string[] = [];

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "ingestion-api-docs-command-"));
  project = createConsumerProject();

  const packed = spawnSync(process.execPath, [join(root, "scripts", "docs-package.mjs")], { cwd: root, encoding: "utf8", timeout: 120_000 });
  expect(packed.status, packed.stderr).toBe(0);
  tarball = readFileSync(join(root, "build", `${companion}-${version}.tgz`));

  // A registry that has the companion at this version, as npm's registry answers for one package.
  registry = createServer((request, response) => {
    registryRequests.push(request.url ?? "");
    if (request.url === `/${companion}`) {
      const dist = {
        tarball: `${registryUrl}/${companion}/-/${companion}-${version}.tgz`,
        shasum: createHash("sha1").update(tarball).digest("hex"),
        integrity: `sha512-${createHash("sha512").update(tarball).digest("base64")}`,
      };
      response.writeHead(200, { "content-type": "application/json" });
      response.end(JSON.stringify({ name: companion, "dist-tags": { latest: version }, versions: { [version]: { name: companion, version, dist } } }));
    } else if (request.url === `/${companion}/-/${companion}-${version}.tgz`) {
      response.writeHead(200, { "content-type": "application/octet-stream", "content-length": tarball.length });
      response.end(tarball);
    } else response.writeHead(404).end("{}");
  });
  await new Promise<void>((resolve) => registry.listen(0, "127.0.0.1", resolve));
  registryUrl = `http://127.0.0.1:${(registry.address() as AddressInfo).port}`;
}, 120_000);

afterAll(async () => {
  await new Promise((resolve) => registry?.close(resolve));
  rmSync(work, { recursive: true, force: true });
  project?.remove();
});

interface Running {
  child: ChildProcess;
  printed: string;
  docs: string;
  sandbox?: string;
}

/** Starts the installed command with a home of its own (`home`: its cache) and a registry; resolves once it serves. */
function start(home: string, args: string[] = [], registry = registryUrl, npmConfig: Record<string, string> = {}): Promise<Running> {
  const env = {
    PATH: process.env.PATH ?? "",
    HOME: home,
    XDG_CACHE_HOME: join(home, ".cache"),
    npm_config_cache: join(home, ".npm"),
    npm_config_registry: registry,
    npm_config_update_notifier: "false",
    ...npmConfig,
  };
  const child = spawn(process.execPath, [join(project.installed, "dist", "cli.js"), "docs", "--port", "0", ...args], {
    cwd: project.dir,
    env,
    stdio: ["pipe", "pipe", "pipe"],
  });
  return new Promise((resolve, reject) => {
    let printed = "";
    const timer = setTimeout(() => reject(new Error(`no docs server after 60 s:\n${printed}`)), 60_000);
    const read = (chunk: Buffer) => {
      printed += chunk.toString();
      const docs = / on (http:\/\/127\.0\.0\.1:\d+\/)/.exec(printed)?.[1];
      if (docs && printed.includes("Ctrl-C")) {
        clearTimeout(timer);
        const sandbox = /sandbox {2}(http:\/\/\S+)/.exec(printed)?.[1];
        resolve({ child, printed, docs, ...(sandbox !== undefined && { sandbox }) });
      }
    };
    child.stdout.on("data", read);
    child.stderr.on("data", read);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(Object.assign(new Error(`exited with ${code}:\n${printed}`), { code, printed }));
    });
  });
}

async function stop({ child }: Running): Promise<void> {
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  await exited;
}

describe("npx ingestion-api docs, from the installed package", () => {
  const home = () => join(work, "home");

  it("fetches the companion package of its version from the registry once, and serves the references on loopback only", async () => {
    const running = await start(home());
    try {
      expect(running.printed).toContain(`fetching it from the npm registry`);
      expect(running.printed).toContain(`pages    ${companion}@${version}, fetched into`);
      expect(registryRequests.filter((url) => url.endsWith(".tgz"))).toHaveLength(1);
      for (const [page, title] of [
        ["", "ingestion-api"],
        ["management.html", "Ingestion Management API"],
        ["alerts.html", "Ingestion Alerting API"],
        ["playground.html", "Playground"],
      ] as const) {
        const response = await fetch(running.docs + page);
        expect(response.status, page).toBe(200);
        expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
        expect(response.headers.get("x-content-type-options")).toBe("nosniff");
        expect(await response.text()).toContain(title);
      }
      expect((await fetch(`${running.docs}openapi/management.json`)).status).toBe(200);
      // The downloads ship with the pages, so a team without Node gets the contract wherever the docs are hosted.
      for (const [file, type] of [
        [`ingestion-api-contract-${version}.tar.gz`, "application/gzip"],
        [`ingestion_api_contract-${version}-py3-none-any.whl`, "application/zip"],
      ] as const) {
        const download = await fetch(`${running.docs}downloads/${file}`);
        expect(download.headers.get("content-type"), file).toBe(type);
        const bytes = Buffer.from(await download.arrayBuffer());
        const sum = await (await fetch(`${running.docs}downloads/${file}.sha256`)).text();
        expect(sum).toBe(`${createHash("sha256").update(bytes).digest("hex")}  ${file}\n`);
      }
      // The playground's script ships beside it, and the page runs under its own policy (test/docs/playground.test.ts).
      expect((await fetch(`${running.docs}playground.js`)).headers.get("content-type")).toBe("text/javascript; charset=utf-8");
      expect((await fetch(`${running.docs}playground.html`)).headers.get("content-security-policy")).toContain("connect-src 'none'");
      expect((await fetch(`${running.docs}..%2F..%2Fpackage.json`)).status).toBe(404);
      expect((await fetch(running.docs, { method: "POST" })).status).toBe(405);
      const rebound = spawnSync("curl", ["-s", "-o", "/dev/null", "-w", "%{http_code}", "-H", "Host: rebind.attacker.example", running.docs], {
        encoding: "utf8",
      });
      expect(rebound.stdout).toBe("403");
    } finally {
      await stop(running);
    }
  });

  it("serves the cached copy the next time, without asking the registry", async () => {
    const before = registryRequests.length;
    const running = await start(home());
    try {
      expect(running.printed).toContain("pages    the cache,");
      expect((await fetch(`${running.docs}management.html`)).status).toBe(200);
      expect(registryRequests.length).toBe(before);
    } finally {
      await stop(running);
    }
  });

  it("serves the companion installed beside it without fetching, and the sandbox beside the pages with --sandbox", async () => {
    const installed = join(project.dir, "node_modules", companion);
    mkdirSync(installed, { recursive: true });
    const untar = spawnSync("tar", ["-xzf", join(root, "build", `${companion}-${version}.tgz`), "-C", installed, "--strip-components=1"]);
    expect(untar.status).toBe(0);
    const before = registryRequests.length;
    const running = await start(join(work, "fresh-home"), ["--sandbox", "--sandbox-port", "0"]);
    try {
      expect(running.printed).toContain(`pages    ${companion}@${version}, installed`);
      expect(registryRequests.length).toBe(before);
      expect((await fetch(`${running.docs}alerts.html`)).status).toBe(200);
      const state = await fetch(`${running.sandbox}/_sandbox/state`);
      expect(state.status).toBe(200);
      expect(Object.keys(await state.json())).toEqual(expect.arrayContaining(["services", "pipes", "alerts"]));
    } finally {
      await stop(running);
      rmSync(installed, { recursive: true, force: true });
    }
  });

  /** What the command printed on stderr and stdout when it could not get its pages, and its exit code. */
  async function failure(home: string, registry: string, npmConfig: Record<string, string> = {}) {
    const failed = await start(join(work, home), [], registry, npmConfig).catch((error: { code: number; printed: string }) => error);
    expect(failed).toHaveProperty("code");
    return failed as { code: number; printed: string };
  }
  /** The one line that says why and what to do. */
  const advice = (reason: string) =>
    `ingestion-api docs: could not fetch ${companion}@${version} with npm: ${reason}. Install it (npm install -D ${companion}@${version}), or pass --dir with a folder of the pages`;

  it("says in one line, with no stack trace, that the registry has no pages for its version and what to do, and exits 1", async () => {
    // A registry that has no such package: every request gets 404.
    const empty = createServer((_, response) => response.writeHead(404, { "content-type": "application/json" }).end("{}"));
    await new Promise<void>((resolve) => empty.listen(0, "127.0.0.1", resolve));
    const emptyUrl = `http://127.0.0.1:${(empty.address() as AddressInfo).port}`;
    const failed = await failure("home-without-registry", emptyUrl);
    await new Promise((resolve) => empty.close(resolve));
    expect(failed.code).toBe(1);
    const lines = failed.printed.trim().split("\n");
    expect(lines.at(-1)).toBe(advice("not found in the registry (E404)"));
    // Before it, only the line that said it was fetching.
    expect(lines).toHaveLength(2);
  });

  it("says in one line that the registry cannot be reached (offline) and what to do, and exits 1", async () => {
    // A port nothing listens on, which no other test's listen(0) is handed meanwhile (mock-servers.mjs): npm's
    // connection is refused, as offline; no retries, so the test does not wait a minute.
    const closedUrl = `http://127.0.0.1:${await freePort()}`;
    const failed = await failure("home-offline", closedUrl, { npm_config_fetch_retries: "0" });
    expect(failed.code).toBe(1);
    const lines = failed.printed.trim().split("\n");
    expect(lines.at(-1)).toBe(advice("offline, or the registry cannot be reached (ECONNREFUSED)"));
    expect(lines).toHaveLength(2);
  });
});
