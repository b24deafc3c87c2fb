// `Prefer: code=<status>` and `Prefer: example=<name>`, as the sandbox reads the header: which declared answer it
// asks for, and the 400 that names what the operation has when it asks for something else. Over preferredAnswer()
// directly; failures.test.ts plays the same header over a socket against the contract.
import { describe, expect, it } from "vitest";
import { operationNamed } from "../../src/sandbox/contract.js";
import { preferredAnswer } from "../../src/sandbox/prefer.js";
import { bundles, resolve } from "../support/bundles.js";
import { operation } from "../support/operations.js";

const getPipe = operationNamed("getPipe");
const pipeExamples = operation("getPipe").responseExamples("200");
/** A management example as the sandbox answers it: the example's fields, with a request id of the answer's own. */
const answered = (example: unknown) => ({ ...(example as object), requestId: expect.stringMatching(/^[0-9a-f-]{36}$/) });
const refusal = (header: string) => (preferredAnswer(getPipe, header)?.body as { error?: string } | undefined)?.error;

/** The names of the examples each declared answer of getPipe has, in its first media type (the one the sandbox answers with). */
function declaredExampleNames(): string[] {
  const { api, path, method } = operation("getPipe");
  const responses: object = bundles[api].paths[path][method.toLowerCase()].responses;
  return Object.values(responses).flatMap((response) => {
    const [media] = Object.values<{ examples?: object }>(resolve(api, response).content ?? {});
    return Object.keys(media?.examples ?? {});
  });
}

describe("Prefer, as the sandbox reads it", () => {
  it("leaves a request whose Prefer asks for neither a code nor an example to the operation", () => {
    expect(preferredAnswer(getPipe, "respond-async, wait=5")).toBeUndefined();
    expect(preferredAnswer(getPipe, undefined)).toBeUndefined();
  });

  it("reads code and example in any case, with spaces around names, values and separators", () => {
    const answer = preferredAnswer(getPipe, " Code = 200 ; Example = LogStreamPipeWithNulls ");
    expect(answer).toMatchObject({ status: 200, body: answered(pipeExamples.LogStreamPipeWithNulls) });
  });

  it("takes a quoted example name without its quotes", () => {
    expect(preferredAnswer(getPipe, 'example="LogStreamPipeWithNulls"')?.body).toEqual(answered(pipeExamples.LogStreamPipeWithNulls));
  });

  it.each(['x"y"', '"x"y', "x=y"])("takes a value with quotes or = inside it as sent: example=%s", (value) => {
    expect(refusal(`example=${value}`)).toMatch(new RegExp(`^Prefer: example=${value} is not an example of getPipe;`));
  });

  it("finds an example of a declared error by its name alone, and answers with that error's status", () => {
    const answer = preferredAnswer(getPipe, "example=NotFound");
    expect(answer).toMatchObject({ status: 404, body: answered(operation("getPipe").responseExamples("404").NotFound) });
  });

  it("finds an example of the 5XX range by its name alone, answered with the first code the range covers (501 beside a declared 500)", () => {
    expect(preferredAnswer(getPipe, "example=BadGateway")).toMatchObject({ status: 501, body: "Bad Gateway" });
  });

  it("refuses an example the operation does not have with a 400 naming each one it has, once, the success's first", () => {
    const answer = preferredAnswer(getPipe, "example=Nope");
    expect(answer?.status).toBe(400);
    expect(refusal("example=Nope")).toBe(`Prefer: example=Nope is not an example of getPipe; it has ${declaredExampleNames().join(", ")}`);
  });

  it("refuses an example a named code does not have with a 400 naming that code's examples", () => {
    expect(refusal("code=404, example=Nope")).toBe("Prefer: example=Nope is not an example of getPipe 404; it has NotFound");
  });
});

describe("Prefer on a 429, and the request id of every answer", () => {
  const getAlert = operationNamed("getAlert");
  const managementExample = operation("getPipe").responseExamples("429").TooManyRequests as { requestId: string; error: string };
  const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

  it("names one wait on management: Retry-After, X-RateLimit-Reset and the message all say the example's 10 s", () => {
    const answer = preferredAnswer(getPipe, "code=429");
    expect(answer?.headers).toMatchObject({ "retry-after": "10", "x-ratelimit-reset": "10" });
    expect(answer?.body).toMatchObject({ status: 429, error: "Rate limit exceeded, retry after 10 seconds" });
  });

  it("code=429, retry-after=1: a 1 s wait in every header each interface declares for it, and in the message", () => {
    const management = preferredAnswer(getPipe, "code=429, retry-after=1");
    expect(management).toMatchObject({ status: 429, headers: { "retry-after": "1", "x-ratelimit-reset": "1" } });
    expect((management?.body as { error: string } | undefined)?.error).toBe("Rate limit exceeded, retry after 1 seconds");
    const alerts = preferredAnswer(getAlert, "code=429; retry-after=1");
    expect(alerts).toMatchObject({ status: 429, body: "Too many requests, please try again later.", headers: { "retry-after": "1" } });
    expect(preferredAnswer(getAlert, "code=429")?.headers).toMatchObject({ "retry-after": "30" });
    expect(preferredAnswer(getAlert, "code=429, retry-after=0")?.headers).toMatchObject({ "retry-after": "0" });
  });

  it.each(["1.5", "-1", "3601", "1s", ""])("refuses retry-after=%s: whole seconds from 0 to 3600", (value) => {
    expect(refusal(`code=429, retry-after=${value}`)).toBe(`Prefer: retry-after must be whole seconds from 0 to 3600, not ${value}`);
  });

  it.each(["retry-after=1", "code=404, retry-after=1", "example=TooManyRequests, retry-after=1"])("refuses %s: retry-after goes with code=429", (header) => {
    expect(preferredAnswer(getPipe, header)?.status).toBe(400);
    expect(refusal(header)).toBe("Prefer: retry-after=1 goes with code=429, the answer of getPipe that says how long to wait");
  });

  it("changes only what it names: no wait header an interface does not declare, no challenge but on a 401, no request id on alerting", () => {
    expect(preferredAnswer(getAlert, "code=429, retry-after=1")?.headers).not.toHaveProperty("x-ratelimit-reset");
    expect(preferredAnswer(getPipe, "code=404")?.headers).not.toHaveProperty("www-authenticate");
    expect(preferredAnswer(getPipe, "code=401")?.headers).toHaveProperty("www-authenticate");
    expect(preferredAnswer(getAlert, "code=404")?.body).toEqual(operation("getAlert").responseExamples("404").NotFound);
  });

  it("gives every management answer a request id of its own, never the example's", () => {
    const ids = [preferredAnswer(getPipe, "code=429"), preferredAnswer(getPipe, "code=429"), preferredAnswer(getPipe, "example=NotFound")].map(
      (answer) => (answer?.body as { requestId: string } | undefined)?.requestId,
    );
    expect(new Set(ids).size).toBe(3);
    for (const id of ids) expect(id).toMatch(uuid);
    expect(ids).not.toContain(managementExample.requestId);
    expect((preferredAnswer(getPipe, "code=200")?.body as { requestId: string } | undefined)?.requestId).toMatch(uuid);
  });
});
