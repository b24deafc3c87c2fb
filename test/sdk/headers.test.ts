// The headers a client sends and the checks they pass before anything is sent: names fetch accepts, values that
// cannot split a header, the client's own Accept, and a User-Agent naming the runtime it runs in.
import { afterEach, describe, expect, it, vi } from "vitest";
import { packageName, packageVersion } from "../../generated/package.js";
import { checkedCallHeaders, ownHeaders, userAgent } from "../../src/client/headers.js";
import { RequestValidationError } from "../../src/index.js";

afterEach(() => {
  vi.unstubAllGlobals();
  vi.resetModules();
});

const call = { label: "getPipe GET /v1/pipes/{pipeId}", operationId: "getPipe" };

/** The issues a call's headers are refused with, or undefined when they are accepted. */
function issuesOf(headers: Record<string, unknown>) {
  try {
    checkedCallHeaders(call, headers as Record<string, string>);
    return undefined;
  } catch (error) {
    expect(error).toBeInstanceOf(RequestValidationError);
    return (error as RequestValidationError).issues;
  }
}

describe("a call's headers", () => {
  it("are accepted with any token characters in their names and visible ASCII, spaces and tabs in their values", () => {
    expect(checkedCallHeaders(call, { "X-Trace_Id.v2": "a b\tc ~!", "x!#$%&'*+^`|~9": "" })).toEqual({
      "x-trace_id.v2": "a b\tc ~!",
      "x!#$%&'*+^`|~9": "",
    });
  });

  it.each(["x trace", " x-trace", "x-trace:", "x-trace\u00e9", ""])("are refused for the name %j, which is not a token", (name) => {
    expect(issuesOf({ [name]: "1" })).toEqual([{ path: `/headers/${encodeURIComponent(name)}`, message: "is not a valid header name" }]);
  });

  it.each(["a\r\nX-Injected: 1", "\nvalue", "value\n", "caf\u00e9", "\u0000"])(
    "are refused for the value %j, which could split a header or is not ASCII",
    (value) => {
      expect(issuesOf({ "x-a": value })).toEqual([{ path: "/headers/x-a", message: "must be visible ASCII, without line breaks" }]);
    },
  );

  it.each([5, null, ["a"]])("are refused for a value that is not a string (%j, from untyped code)", (value) => {
    expect(issuesOf({ "x-a": value })).toEqual([{ path: "/headers/x-a", message: "must be visible ASCII, without line breaks" }]);
  });
});

describe("the client's own headers", () => {
  it("accept JSON first, and any other answer (a proxy's text error) after it", () => {
    const own = ownHeaders("Basic a2V5OnNlY3JldA==", {});
    expect(own.fixedWithoutBody).toEqual({ accept: "application/json, */*;q=0.1", authorization: "Basic a2V5OnNlY3JldA==" });
    expect(own.fixedWithBody).toEqual({ ...own.fixedWithoutBody, "content-type": "application/json" });
  });

  it("name the SDK alone in User-Agent when the application names nothing", () => {
    expect(ownHeaders("Basic x", {}).withoutBody["user-agent"]).toBe(userAgent);
  });
});

describe("User-Agent", () => {
  /** The User-Agent headers.ts makes when loaded in a runtime with these globals. */
  async function userAgentIn(globals: Record<string, unknown>): Promise<string | undefined> {
    for (const [name, value] of Object.entries(globals)) vi.stubGlobal(name, value);
    vi.resetModules();
    const loaded = (await import("../../src/client/headers.js")).userAgent;
    vi.unstubAllGlobals();
    return loaded;
  }

  it("names the package, its version and Node's version under Node", () => {
    expect(userAgent).toBe(`${packageName}/${packageVersion} node/${process.versions.node}`);
  });

  it("names Deno and its version under Deno", async () => {
    expect(await userAgentIn({ Deno: { version: { deno: "2.1.4" } } })).toBe(`${packageName}/${packageVersion} deno/2.1.4`);
  });

  it("names Bun and its version under Bun", async () => {
    expect(await userAgentIn({ Bun: { version: "1.1.38" } })).toBe(`${packageName}/${packageVersion} bun/1.1.38`);
  });

  it("is not set where `process` is a bundler's polyfill without Node's versions, beside globals named Deno and Bun that are not those runtimes", async () => {
    expect(await userAgentIn({ process: { env: {} }, Deno: {}, Bun: {} })).toBeUndefined();
  });

  it("is not set in a browser, which has no `process`, and then no User-Agent header is sent", async () => {
    vi.stubGlobal("process", undefined);
    vi.resetModules();
    const headers = await import("../../src/client/headers.js");
    vi.unstubAllGlobals();
    expect(headers.userAgent).toBeUndefined();
    expect(headers.ownHeaders("Basic x", {}).withoutBody).not.toHaveProperty("user-agent");
  });
});
