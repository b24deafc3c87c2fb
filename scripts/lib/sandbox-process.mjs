// Runs `ingestion-api sandbox` as the package ships it (dist/cli.js) with Prism in front of it for each
// interface, as a validating proxy: `npm start` and the sandbox tests share it.
import { join } from "node:path";
import { startMocks, startServer, stopMock } from "./mock-servers.mjs";
import { apis, root } from "./toolchain.mjs";

/**
 * Starts the sandbox on `ports.sandbox`, then a Prism proxy per interface on `ports.management` and
 * `ports.alerts`. Prism runs with `--errors`, so an answer of the sandbox that breaks the contract reaches
 * nobody (it becomes a 500 naming the violation), and forwards requests that break the contract, so the
 * sandbox answers them with the contract's 400 naming each field; Prism's own answer would be an undeclared 422.
 * @param {{ sandbox: number, management: number, alerts: number }} ports
 * @param {{ keyId: string, keySecret: string, token: string }} credentials
 * @returns {Promise<import("./mock-servers.mjs").MockServer[]>} the sandbox, the management proxy, the alerts proxy
 */
export async function startSandboxBehindPrism(ports, credentials) {
  const sandbox = await startServer("the sandbox (dist/cli.js)", `http://127.0.0.1:${ports.sandbox}`, [
    join(root, "dist", "cli.js"),
    "sandbox",
    "--port",
    String(ports.sandbox),
    "--key-id",
    credentials.keyId,
    "--key-secret",
    credentials.keySecret,
    "--token",
    credentials.token,
  ]);
  try {
    const proxies = await startMocks(
      apis.map((api) => ({ bundle: `generated/openapi/${api}.json`, port: ports[api], upstream: sandbox.url, forwardInvalidRequests: true })),
    );
    return [sandbox, ...proxies];
  } catch (error) {
    await stopMock(sandbox);
    throw error;
  }
}
