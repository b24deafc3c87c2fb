// Vitest globalSetup: one Prism mock server per OpenAPI bundle; tests get their URLs with inject().
import type { TestProject } from "vitest/node";
import { freePort, killMockNow, type MockServer, startMock, stopMock } from "../scripts/mock-servers.mjs";

declare module "vitest" {
  export interface ProvidedContext {
    managementUrl: string;
    alertsUrl: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const servers: MockServer[] = [];
  const killNow = (): void => servers.forEach(killMockNow);
  // Ctrl-C skips teardown: kill Prism, then die of the same signal as if we had not listened.
  const onSignal = (signal: NodeJS.Signals): void => {
    killNow();
    removeHandlers();
    process.kill(process.pid, signal);
  };
  const removeHandlers = (): void => {
    process.off("exit", killNow);
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
  };
  const teardown = async (): Promise<void> => {
    removeHandlers();
    await Promise.all(servers.map(stopMock));
  };

  process.on("exit", killNow);
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  const started = await Promise.allSettled(
    ["generated/openapi/management.json", "generated/openapi/alerts.json"].map(async (bundle) => startMock(bundle, await freePort())),
  );
  // If one failed, the other may be running: stop it before reporting the failure.
  for (const result of started) if (result.status === "fulfilled") servers.push(result.value);
  const failure = started.find((result) => result.status === "rejected");
  if (failure || servers.length !== 2) {
    await teardown();
    throw failure?.reason;
  }
  const [management, alerts] = servers as [MockServer, MockServer];
  project.provide("managementUrl", management.url);
  project.provide("alertsUrl", alerts.url);
  return teardown;
}
