// Fault rules as `faults.add()` and `POST /_sandbox/faults` take them: which rules are refused and in what words,
// how they are listed, and what a rule makes of a request (its answer, its headers, how many times, with what
// chance). Over createFaults() directly; failures.test.ts and in-process.test.ts play rules against the SDK.
import { afterEach, describe, expect, it, vi } from "vitest";
import { operationNamed, operations } from "../../src/sandbox/contract.js";
import { createFaults, type FaultRule } from "../../src/sandbox/faults.js";

const getPipe = operationNamed("getPipe");
const getAlert = operationNamed("getAlert");

/** The words addUntyped() refuses a rule with, as `POST /_sandbox/faults` passes them on. */
function refusal(rule: unknown): string {
  try {
    createFaults().addUntyped(rule);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error(`the rule ${JSON.stringify(rule)} was accepted`);
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("a fault rule, checked when it is added", () => {
  it.each([
    ["null", null],
    ["an array", [{ operation: "getPipe", status: 503 }]],
    ["a string", "getPipe 503"],
  ])("refuses %s: a fault rule must be a JSON object", (_what, rule) => {
    expect(refusal(rule)).toBe("a fault rule must be a JSON object");
  });

  it("names every problem of a rule, each once, separated by semicolons", () => {
    expect(refusal({ operation: "getPipe", status: 503, shade: "red", count: 0 })).toBe(
      "shade is not a field of a fault rule (operation, status, delayMs, count, probability, retryAfterSeconds, headers); count must be an integer of 1 or more",
    );
  });

  it("refuses an operation that is not one of the contract's, naming them all", () => {
    expect(refusal({ operation: "getPipes", status: 503 })).toBe(
      `operation must be an operation id (${operations.map(({ operationId }) => operationId).join(", ")}) or "*"`,
    );
  });

  it.each([["503"], [503.5], [undefined]])("refuses a status that is not a code, reset or truncate: %s", (status) => {
    expect(refusal({ operation: "getPipe", status })).toBe('status must be a status the operation declares, "reset" or "truncate"');
  });

  it("takes a status only the rule's own operation declares (424 for getPipe), and refuses it for every operation", () => {
    expect(createFaults().add({ operation: "getPipe", status: 424 })).toMatchObject({ operation: "getPipe", status: 424 });
    expect(refusal({ operation: "*", status: 424 })).toContain("status 424 is not one getAlert declares");
  });

  it("refuses a status whose declared example breaks its declared schema, naming both", () => {
    vi.spyOn(getPipe.answers, "404").mockReturnValue(false);
    expect(refusal({ operation: "getPipe", status: 404 })).toBe("the declared example of getPipe 404 breaks its schema");
  });

  it.each([0, 60_000])("takes delayMs %i, an end of its range", (delayMs) => {
    expect(createFaults().add({ operation: "getPipe", status: 503, delayMs })).toMatchObject({ delayMs });
  });

  it.each([-1, 60_001, 1.5])("refuses delayMs %s", (delayMs) => {
    expect(refusal({ operation: "getPipe", status: 503, delayMs })).toBe("delayMs must be an integer from 0 to 60000");
  });

  it.each([1, 0.25])("takes probability %s", (probability) => {
    expect(createFaults().add({ operation: "getPipe", status: 503, probability })).toMatchObject({ probability });
  });

  it.each([0, -0.5, 1.5, "0.5"])("refuses probability %s", (probability) => {
    expect(refusal({ operation: "getPipe", status: 503, probability })).toBe("probability must be a number above 0 and at most 1");
  });

  it.each([1.5, -1, 3601, "1"])("refuses retryAfterSeconds: %s, naming the bound", (retryAfterSeconds) => {
    expect(refusal({ operation: "getPipe", status: 429, retryAfterSeconds })).toBe("retryAfterSeconds must be an integer from 0 to 3600");
  });

  it("names both problems of retryAfterSeconds with a status some targets do not declare", () => {
    const words = refusal({ operation: "*", status: 424, retryAfterSeconds: 1 });
    expect(words).toContain("status 424 is not one getAlert declares");
    expect(words).toContain("retryAfterSeconds goes with status 429, the answer that says how long to wait");
  });

  it.each([503, "reset"])("refuses retryAfterSeconds with status %s: it goes with a 429", (status) => {
    expect(refusal({ operation: "getPipe", status, retryAfterSeconds: 1 })).toBe(
      "retryAfterSeconds goes with status 429, the answer that says how long to wait",
    );
  });

  it("takes headers whose names are tokens and whose values are visible ASCII", () => {
    const headers = { "Retry-After": "120", "x-note": "a value\twith tab, space ~ and !" };
    expect(createFaults().add({ operation: "getPipe", status: 503, headers })).toMatchObject({ headers });
  });

  it.each([
    ["a string", "retry-after: 1"],
    ["null", null],
    ["an array", [["retry-after", "1"]]],
  ])("refuses headers that are %s", (_what, headers) => {
    expect(refusal({ operation: "getPipe", status: 503, headers })).toBe("headers must be an object of header names and values");
  });

  it.each([
    ["a name with a space", "retry after", "1"],
    ["a name with a colon", "retry-after:", "1"],
    ["a value that is a number", "retry-after", 1],
    ["a value with a line break", "x-note", "one\r\nset-cookie: two"],
    ["a value that is not ASCII", "x-note", "café"],
  ])("refuses %s", (_what, name, value) => {
    expect(refusal({ operation: "getPipe", status: 503, headers: { [name]: value } })).toBe(`headers.${name} must be a header name with a visible-ASCII value`);
  });
});

describe("the rules, listed", () => {
  it("lists none at first", () => {
    expect(createFaults().list()).toEqual([]);
  });

  it("lists each rule as asked, numbered from 1 in the order added, with the plays it has left", () => {
    const faults = createFaults();
    const first: FaultRule = { operation: "getPipe", status: 503, count: 2 };
    const second: FaultRule = { operation: "*", status: "reset" };
    expect(faults.add(first)).toEqual({ ...first, id: 1, remaining: 2 });
    expect(faults.addUntyped(second)).toEqual({ ...second, id: 2, remaining: undefined });
    expect(faults.list()).toEqual([
      { ...first, id: 1, remaining: 2 },
      { ...second, id: 2, remaining: undefined },
    ]);
  });
});

describe("what a rule makes of a request", () => {
  it("answers with the declared answer, the rule's headers over the declared ones, named in lowercase", () => {
    const faults = createFaults();
    faults.add({ operation: "getPipe", status: 429, headers: { "Retry-After": "7", "X-Note": "injected" } });
    const play = faults.play(getPipe);
    expect(play?.answer?.status).toBe(429);
    expect(play?.answer?.headers).toMatchObject({ "retry-after": "7", "x-note": "injected" });
    expect(Object.keys(play?.answer?.headers ?? {}).filter((name) => name.toLowerCase() === "retry-after")).toEqual(["retry-after"]);
  });

  it("retryAfterSeconds: a 429 naming that wait in each wait header it declares and in its message, on both interfaces", () => {
    const faults = createFaults();
    faults.add({ operation: "*", status: 429, retryAfterSeconds: 1 });
    const management = faults.play(getPipe)?.answer;
    expect(management?.headers).toMatchObject({ "retry-after": "1", "x-ratelimit-reset": "1" });
    expect((management?.body as { error: string } | undefined)?.error).toBe("Rate limit exceeded, retry after 1 seconds");
    expect(faults.play(getAlert)?.answer?.headers).toMatchObject({ "retry-after": "1" });
  });

  it("gives each management answer a request id of its own", () => {
    const faults = createFaults();
    faults.add({ operation: "getPipe", status: 500 });
    const ids = [faults.play(getPipe), faults.play(getPipe)].map((play) => (play?.answer?.body as { requestId: string } | undefined)?.requestId);
    expect(ids[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(ids[0]).not.toBe(ids[1]);
  });

  it("plays only on its own operation", () => {
    const faults = createFaults();
    faults.add({ operation: "getPipe", status: 503 });
    expect(faults.play(getAlert)).toBeUndefined();
    expect(faults.play(getPipe)?.answer?.status).toBe(503);
  });

  it("without a count, plays every time and keeps no count", () => {
    const faults = createFaults();
    faults.add({ operation: "getPipe", status: 503 });
    for (let i = 0; i < 3; i++) expect(faults.play(getPipe)?.answer?.status).toBe(503);
    expect(faults.list()).toMatchObject([{ remaining: undefined }]);
  });

  it("with a count, plays that many times, counting down, and is then gone", () => {
    const faults = createFaults();
    faults.add({ operation: "getPipe", status: 503, count: 2 });
    expect(faults.play(getPipe)?.answer?.status).toBe(503);
    expect(faults.list()).toMatchObject([{ remaining: 1 }]);
    expect(faults.play(getPipe)?.answer?.status).toBe(503);
    expect(faults.list()).toEqual([]);
    expect(faults.play(getPipe)).toBeUndefined();
  });

  it("with a probability, plays on a draw below it and not on one at or above it", () => {
    const draws = [0.49, 0.5, 0.51];
    const faults = createFaults(() => draws.shift() as number);
    faults.add({ operation: "getPipe", status: 503, probability: 0.5 });
    expect([faults.play(getPipe), faults.play(getPipe), faults.play(getPipe)].map((play) => play?.answer?.status)).toEqual([503, undefined, undefined]);
  });
});
