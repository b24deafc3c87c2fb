// A sandbox for a test file: the sandbox's server (from src/, in this process) on a free loopback port, and a Prism
// proxy per interface in front of it, as `npm start` runs them. Each file gets its own, so state never leaks
// between files running in parallel.
import type { ChildProcess } from "node:child_process";
import { freePort, type MockServer, startMocks, stopMock } from "../../scripts/lib/mock-servers.mjs";
import type { SandboxCredentials } from "../../src/sandbox/credentials.js";
import { exampleSeed, type SandboxData } from "../../src/sandbox/seed.js";
import { type Sandbox, startSandbox } from "../../src/sandbox/server.js";
import { type Api, apis } from "./bundles.js";
import { keyId, keySecret, token } from "./sdk-fixtures.js";

export const sandboxCredentials: SandboxCredentials = { keyId, keySecret, token };

export interface SandboxBehindPrism {
  sandbox: Sandbox;
  /** Prism's proxy URL per proxied interface: what a client talks to. */
  proxyUrl: Record<Api, string>;
  stop(): Promise<void>;
}

/** Starts a sandbox with `seed` (the specs' examples by default) and the proxies of `proxied` (both) in front of it. */
export async function startSandboxBehindPrism(seed: SandboxData = exampleSeed(), proxied: readonly Api[] = apis): Promise<SandboxBehindPrism> {
  const sandbox = await startSandbox({ seed, credentials: sandboxCredentials });
  let proxies: MockServer[];
  try {
    proxies = await startMocks(
      await Promise.all(
        proxied.map(async (api) => ({ bundle: `generated/openapi/${api}.json`, port: await freePort(), upstream: sandbox.url, forwardInvalidRequests: true })),
      ),
    );
  } catch (error) {
    await sandbox.close();
    throw error;
  }
  return {
    sandbox,
    proxyUrl: Object.fromEntries(proxied.map((api, index) => [api, proxies[index]?.url ?? ""])) as Record<Api, string>,
    stop: async () => {
      await Promise.all(proxies.map(stopMock));
      await sandbox.close();
    },
  };
}

/** A fetch that remembers every answer Prism flagged: a 500 problem+json or an `sl-violations` header. */
export function watchedFetch(flagged: string[]): typeof fetch {
  return async (input, init) => {
    const response = await fetch(input, init);
    const violations = response.headers.get("sl-violations");
    if (violations || response.headers.get("content-type")?.includes("application/problem+json")) {
      flagged.push(`${init?.method ?? "GET"} ${String(input instanceof Request ? input.url : input)}: ${response.status} ${violations ?? ""}`);
    }
    return response;
  };
}

/**
 * What `ingestion-api sandbox`, run as `child` with its stdout piped, printed once ready (its banner ends with
 * "Ctrl-C stops it."), and the URL it names; whatever it printed by then if it was not ready within `timeoutMs`.
 */
export async function sandboxBanner(child: ChildProcess, timeoutMs = 30_000): Promise<{ printed: string; url: string | undefined }> {
  let printed = "";
  child.stdout?.setEncoding("utf8").on("data", (chunk: string) => (printed += chunk));
  for (const deadline = Date.now() + timeoutMs; !printed.includes("Ctrl-C stops it.") && Date.now() < deadline; ) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { printed, url: /on (http:\/\/127\.0\.0\.1:\d+)/.exec(printed)?.[1] };
}
