// `ingestion-api sandbox --rate-limit`: past each credential's limit, a request gets the interface's own 429, as
// the contract declares it (management JSON with X-RateLimit-Reset, alerting text/html with Retry-After), and the
// next window takes requests again; the limits are the contract's by default, or scaled for tests.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { alerts, management } from "../../src/contract/interfaces.js";
import { rateLimitsOf } from "../../src/sandbox/rate-limit.js";
import { exampleSeed } from "../../src/sandbox/seed.js";
import { type Sandbox, startSandbox } from "../../src/sandbox/server.js";
import { bundles, resolve, validateAgainst } from "../support/bundles.js";
import { authorizationOf } from "../support/credentials.js";
import { operation } from "../support/operations.js";
import { sandboxCredentials } from "../support/sandbox.js";

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ seed: exampleSeed(), credentials: sandboxCredentials, rateLimits: rateLimitsOf("3/600ms") });
});
afterAll(async () => {
  await sandbox?.close();
});

const getSettings = operation("getPipeSettings");
const getAlert = operation("getAlert");
const { management: basic, alerts: bearer } = authorizationOf(sandboxCredentials);
const send = (url: string, authorization: string) => fetch(sandbox.url + url, { headers: { authorization } });

/** The 429 the operation declares, for a media type: its schema and headers. */
function declared429(o: typeof getSettings, media: string) {
  const response = resolve(o.api, bundles[o.api].paths[o.path][o.method.toLowerCase()].responses["429"]);
  return { schema: resolve(o.api, response.content[media].schema), headers: response.headers };
}

describe("management", () => {
  it("answers the 4th request in a window with the declared JSON 429 and X-RateLimit-Reset in fractional seconds, then takes requests again", async () => {
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await send(getSettings.example.url, basic)).status);
    expect(statuses).toEqual([200, 200, 200]);
    const limited = await send(getSettings.example.url, basic);
    expect(limited.status).toBe(429);
    expect(limited.headers.get("content-type")).toBe("application/json");
    expect(validateAgainst("management", declared429(getSettings, "application/json").schema, await limited.json()).errors).toBe("No errors");
    const reset = Number(limited.headers.get("x-ratelimit-reset"));
    expect(limited.headers.get("x-ratelimit-reset")).toMatch(/^\d+\.\d{3}$/);
    expect(reset).toBeGreaterThan(0);
    expect(reset).toBeLessThanOrEqual(0.6);
    await new Promise((done) => setTimeout(done, reset * 1000 + 20));
    expect((await send(getSettings.example.url, basic)).status).toBe(200);
  });

  it("counts a known credential only: a request without one gets 401, and uses up nobody's budget", async () => {
    await new Promise((done) => setTimeout(done, 650));
    for (let i = 0; i < 5; i++) expect((await send(getSettings.example.url, "Basic bm9ib2R5Om5vdGhpbmc=")).status).toBe(401);
    expect((await send(getSettings.example.url, basic)).status).toBe(200);
  });
});

describe("alerting", () => {
  it("answers past its limit with its limiter's text/html sentence and Retry-After in whole seconds", async () => {
    for (let i = 0; i < 3; i++) expect((await send(getAlert.example.url, bearer)).status).toBe(200);
    const limited = await send(getAlert.example.url, bearer);
    expect(limited.status).toBe(429);
    expect(limited.headers.get("content-type")).toMatch(/^text\/html/);
    const { schema } = declared429(getAlert, "text/html");
    expect(validateAgainst("alerts", schema, await limited.text()).errors).toBe("No errors");
    expect(limited.headers.get("retry-after")).toBe("1");
  });
});

describe("--rate-limit", () => {
  it("alone keeps the contract's declared limits", () => {
    const limits = rateLimitsOf("contract");
    expect(limits.get(management)).toEqual({ requests: 10, intervalMs: 10_000 });
    expect(limits.get(alerts)).toEqual({ requests: 100, intervalMs: 60_000 });
  });

  it.each([
    ["10/1s", { requests: 10, intervalMs: 1000 }],
    ["5/500ms", { requests: 5, intervalMs: 500 }],
    ["2/1.5s", { requests: 2, intervalMs: 1500 }],
  ])("takes %s for both interfaces", (value, expected) => {
    const limits = rateLimitsOf(value);
    expect(limits.get(management)).toEqual(expected);
    expect(limits.get(alerts)).toEqual(expected);
  });

  it.each(["10", "0/1s", "10/0s", "ten/1s", "10/1m"])("refuses %s, saying what it takes", (value) => {
    expect(() => rateLimitsOf(value)).toThrow("--rate-limit takes N/Ts or N/Tms (say 10/1s)");
  });
});
