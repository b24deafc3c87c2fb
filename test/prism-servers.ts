// Vitest globalSetup: one Prism mock server per OpenAPI bundle; tests get their URLs with inject().
import type { TestProject } from "vitest/node";
import { freePort, killAllMocksNow, type MockServer, startMocks, stopMock } from "../scripts/lib/mock-servers.mjs";

declare module "vitest" {
  export interface ProvidedContext {
    managementUrl: string;
    alertsUrl: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const servers: MockServer[] = [];
  // Ctrl-C skips teardown: kill Prism, then die of the same signal as if we had not listened.
  const onSignal = (signal: NodeJS.Signals): void => {
    killAllMocksNow();
    removeHandlers();
    process.kill(process.pid, signal);
  };
  const removeHandlers = (): void => {
    process.off("exit", killAllMocksNow);
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
  };
  const teardown = async (): Promise<void> => {
    removeHandlers();
    await Promise.all(servers.map(stopMock));
  };

  process.on("exit", killAllMocksNow);
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  try {
    servers.push(
      ...(await startMocks([
        { bundle: "generated/openapi/management.json", port: await freePort() },
        { bundle: "generated/openapi/alerts.json", port: await freePort() },
      ])),
    );
  } catch (error) {
    removeHandlers();
    throw error;
  }
  const [management, alerts] = servers as [MockServer, MockServer];
  project.provide("managementUrl", management.url);
  project.provide("alertsUrl", alerts.url);
  return teardown;
}
