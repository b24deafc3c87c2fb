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
    expect(answer).toMatchObject({ status: 200, body: pipeExamples.LogStreamPipeWithNulls });
  });

  it("takes a quoted example name without its quotes", () => {
    expect(preferredAnswer(getPipe, 'example="LogStreamPipeWithNulls"')?.body).toEqual(pipeExamples.LogStreamPipeWithNulls);
  });

  it.each(['x"y"', '"x"y', "x=y"])("takes a value with quotes or = inside it as sent: example=%s", (value) => {
    expect(refusal(`example=${value}`)).toMatch(new RegExp(`^Prefer: example=${value} is not an example of getPipe;`));
  });

  it("finds an example of a declared error by its name alone, and answers with that error's status", () => {
    const answer = preferredAnswer(getPipe, "example=NotFound");
    expect(answer).toMatchObject({ status: 404, body: operation("getPipe").responseExamples("404").NotFound });
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
