// A client's options are checked when it is made, each refusal naming the option and what to pass instead; the
// environment fills what the options leave out, wherever the runtime has one (Node, Deno, Bun, a browser's none).
import { createHash } from "node:crypto";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createMemoryRateLimitStore } from "../../src/client/memory-store.js";
import type { RateLimitStore } from "../../src/client/rate-limit.js";
import { createAlertsClient, createManagementClient, IngestionError } from "../../src/index.js";
import { alertEnvelope, alertId, keyId, keySecret, pipe, settingsEnvelope } from "../support/sdk-fixtures.js";

afterEach(() => {
  vi.unstubAllEnvs();
  vi.unstubAllGlobals();
});

const baseUrl = "https://api.example.test";

/** The error a management client's options get when it is made, or undefined when they are accepted. */
function refusalOf(options: Parameters<typeof createManagementClient>[0]): unknown {
  try {
    createManagementClient({ baseUrl, keyId, keySecret, ...options });
    return undefined;
  } catch (error) {
    return error;
  }
}

/** A fetch that records the URLs it is given and answers each with the settings envelope. */
function recordingFetch() {
  const urls: string[] = [];
  const fetch: typeof globalThis.fetch = async (input) => {
    urls.push(String(input));
    return Response.json(settingsEnvelope);
  };
  return { urls, fetch };
}

/** A management client made now refuses a call that names no organization as missing one, and sends nothing. */
async function expectOrganizationMissing() {
  const { urls, fetch } = recordingFetch();
  const client = createManagementClient({ baseUrl, keyId, keySecret, fetch, rateLimit: false });
  const error = await client.pipes.getSettings({ serviceId: pipe.serviceId, pipeId: pipe.pipeId }).catch((e: unknown) => e);
  expect((error as Error).message).toMatch(/: \/organizationId is required$/);
  expect(urls).toEqual([]);
}

describe("the environment", () => {
  it("an empty INGESTION_ORGANIZATION_ID counts as unset: a call naming no organization is refused as missing one", async () => {
    vi.stubEnv("INGESTION_ORGANIZATION_ID", "");
    await expectOrganizationMissing();
  });

  it("where the runtime has no `process` (a browser), a missing option says to pass it or set its variable", () => {
    vi.stubGlobal("process", undefined);
    expect(() => createAlertsClient({ baseUrl })).toThrow(
      new IngestionError("createAlertsClient: missing token; pass { token } or set the environment variable INGESTION_ALERTS_TOKEN"),
    );
  });

  it("where `process` has no `env` (a bundler's polyfill), a missing option says to pass it or set its variable", () => {
    vi.stubGlobal("process", {});
    expect(() => createAlertsClient({ baseUrl })).toThrow(
      new IngestionError("createAlertsClient: missing token; pass { token } or set the environment variable INGESTION_ALERTS_TOKEN"),
    );
  });

  it("where reading the environment is refused (Deno without --allow-env), a missing option says how to allow the read", () => {
    const refusal = new Error('Requires env access to "INGESTION_ALERTS_TOKEN"');
    const env = new Proxy(
      {},
      {
        get: () => {
          throw refusal;
        },
      },
    );
    vi.stubGlobal("process", { env });
    const error = (() => {
      try {
        createAlertsClient({ baseUrl });
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(IngestionError);
    expect((error as Error).message).toBe(
      "createAlertsClient: missing token; pass { token }, or let the runtime read INGESTION_ALERTS_TOKEN (Deno: --allow-env=INGESTION_ALERTS_TOKEN)",
    );
    expect((error as Error).cause).toBe(refusal);
  });

  it("where reading the environment is refused, an optional option read from it is unset: a call naming no organization is refused as missing one", async () => {
    const env = new Proxy(
      {},
      {
        get: () => {
          throw new Error('Requires env access to "INGESTION_ORGANIZATION_ID"');
        },
      },
    );
    vi.stubGlobal("process", { env });
    await expectOrganizationMissing();
  });

  it("an empty option counts as missing, as an empty variable does", () => {
    expect(() => createAlertsClient({ baseUrl, token: "" })).toThrow(
      new IngestionError("createAlertsClient: missing token; pass { token } or set the environment variable INGESTION_ALERTS_TOKEN"),
    );
  });
});

describe("baseUrl", () => {
  it("refuses text that is not a URL, showing it", () => {
    expect(refusalOf({ baseUrl: "api.example.test" })).toEqual(
      new IngestionError('createManagementClient: baseUrl (or INGESTION_API_URL) is not a valid URL: "api.example.test"'),
    );
  });

  it("refuses text that is not a URL without showing it when it has an @, which may be a credential", () => {
    const error = refusalOf({ baseUrl: "https://user:s3cret@api example.test" });
    expect(error).toEqual(
      new IngestionError("createManagementClient: baseUrl (or INGESTION_API_URL) is not a valid URL: (not shown: it contains @, so it may carry credentials)"),
    );
  });

  it("refuses a scheme other than https and http, naming it", () => {
    expect(refusalOf({ baseUrl: "ftp://api.example.test" })).toEqual(
      new IngestionError("createManagementClient: baseUrl must use https:// (or http:// to a loopback host), not ftp:"),
    );
  });

  it.each(["https://user@api.example.test", "https://:pw@api.example.test"])("refuses %s, which carries a user name or a password", (url) => {
    expect(refusalOf({ baseUrl: url })).toEqual(new IngestionError("createManagementClient: baseUrl must not carry credentials; pass them as options instead"));
  });

  it.each(["https://api.example.test/?tenant=1", "https://api.example.test/#top"])("refuses %s, which has a query or a fragment", (url) => {
    expect(refusalOf({ baseUrl: url })).toEqual(new IngestionError("createManagementClient: baseUrl must not have a query or a fragment"));
  });

  it("refuses plain http to a host that only starts like a loopback address", () => {
    expect(refusalOf({ baseUrl: "http://127.0.0.1.example.test" })).toBeInstanceOf(IngestionError);
  });

  it("takes plain http to any address of 127.0.0.0/8, whose parts have up to three digits", () => {
    expect(refusalOf({ baseUrl: "http://127.0.0.10:8080" })).toBeUndefined();
    expect(refusalOf({ baseUrl: "http://127.100.200.254" })).toBeUndefined();
  });

  it("takes a base URL whose path only begins like the version prefix: a gateway's path of its own", () => {
    expect(refusalOf({ baseUrl: `${baseUrl}/v1-gateway` })).toBeUndefined();
    expect(() => createAlertsClient({ baseUrl: `${baseUrl}/api-gateway`, token: "t" })).not.toThrow();
  });

  it("sends to the base URL without its trailing slashes, however many", async () => {
    const { urls, fetch } = recordingFetch();
    await createManagementClient({ baseUrl: `${baseUrl}//`, keyId, keySecret, fetch, rateLimit: false }).pipes.getSettings(pipe);
    expect(urls[0]).toMatch(new RegExp(`^${baseUrl}/v1/organizations/`));
  });

  it("refuses a base URL ending in the version prefix followed by several slashes", () => {
    expect((refusalOf({ baseUrl: `${baseUrl}/v1//` }) as Error).message).toBe(
      `createManagementClient: baseUrl ends with /v1, which every path already starts with; pass ${baseUrl} instead`,
    );
  });
});

describe("numeric options", () => {
  it.each([
    ["timeoutMs", 0, "from 1 to 2147483647, got 0"],
    ["maxRetries", 101, "from 0 to 100, got 101"],
    ["maxResponseBytes", 0, "from 1 to 1073741824, got 0"],
    ["maxRateLimitWaitMs", -1, "from 0 to 2147483647, got -1"],
  ])("refuses %s = %s, naming the option and its bounds", (option, value, bounds) => {
    expect(refusalOf({ [option]: value })).toEqual(new IngestionError(`createManagementClient: ${option} must be an integer ${bounds}`));
  });

  it.each([
    ["timeoutMs", 2_147_483_647],
    ["maxRetries", 100],
    ["maxResponseBytes", 2 ** 30],
    ["maxRateLimitWaitMs", 2_147_483_647],
  ])("accepts %s at its upper bound, %s", (option, value) => {
    expect(refusalOf({ [option]: value })).toBeUndefined();
  });
});

describe("rateLimit and hooks", () => {
  it("refuses rateLimit: null, saying what it takes", () => {
    expect(refusalOf({ rateLimit: null as never })).toEqual(new IngestionError("createManagementClient: rateLimit must be { requests, intervalMs } or false"));
  });

  it.each(["onQueued", "onRequest", "onResponse"])("refuses an %s that is not a function, naming it", (option) => {
    expect(refusalOf({ [option]: "log" })).toEqual(new IngestionError(`createManagementClient: ${option} must be a function`));
  });
});

describe("rateLimitStore", () => {
  it("is given a key naming the credential by its SHA-256, never the credential: a store that logs its keys leaks no token", async () => {
    const keys: string[] = [];
    const memory = createMemoryRateLimitStore();
    const rateLimitStore: RateLimitStore = {
      take: (key, limit) => {
        keys.push(key);
        return memory.take(key, limit);
      },
      answered: (key, ...rest) => {
        keys.push(key);
        return memory.answered(key, ...rest);
      },
      limited: (...args) => memory.limited(...args),
      release: (...args) => memory.release(...args),
    };
    const token = "tok-secret-2f9a";
    const alerts = createAlertsClient({ baseUrl: "https://alerts.example.test", token, rateLimitStore, fetch: async () => Response.json(alertEnvelope) });
    await alerts.get(alertId);
    const management = createManagementClient({ baseUrl, keyId, keySecret, rateLimitStore, fetch: recordingFetch().fetch });
    await management.pipes.getSettings(pipe);
    const digest = (text: string) => createHash("sha256").update(text).digest("hex");
    expect([...new Set(keys)]).toEqual([`alerts https://alerts.example.test ${digest(token)}`, `management ${baseUrl} ${digest(keyId)}`]);
    for (const key of keys) expect(key).not.toMatch(new RegExp(`${token}|${keyId}|${keySecret}`));
  });
});
