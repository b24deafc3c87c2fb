// The playground's panels where they decide something without the page (src/playground/*-panel.ts): what an address
// names, the numbers the options hold, how a failure is offered, and the call as code for each server. What the
// panels show in a browser is test/docs/playground.test.ts's (every panel, from file:// and served).
import { describe, expect, it } from "vitest";
import { codeOf } from "../../src/playground/code-panel.js";
import { addressParts } from "../../src/playground/operation-panel.js";
import { playgroundOperations } from "../../src/playground/operations.js";
import { failureLabel, wholeNumber } from "../../src/playground/options-panel.js";

const operation = (id: string) => {
  const found = playgroundOperations.find(({ operationId }) => operationId === id);
  if (!found) throw new Error(`no ${id}`);
  return found;
};

describe("the operation panel's address", () => {
  it("names an operation, and an example of it, each part decoded", () => {
    expect(addressParts("#getPipe")).toEqual({ operationId: "getPipe", exampleKey: undefined });
    expect(addressParts("#createAlert/on%20a%20tile")).toEqual({ operationId: "createAlert", exampleKey: "on a tile" });
  });

  it("names nothing when empty, and keeps a part that is not valid percent-encoding as it is", () => {
    expect(addressParts("")).toEqual({ operationId: undefined, exampleKey: undefined });
    expect(addressParts("#")).toEqual({ operationId: undefined, exampleKey: undefined });
    expect(addressParts("#%/%E0")).toEqual({ operationId: "%", exampleKey: "%E0" });
  });
});

describe("the options panel", () => {
  it("reads a number field as a whole number within its bounds, the lower one for what is not a number", () => {
    expect(wholeNumber("3", 1, 20)).toBe(3);
    expect(wholeNumber("2.9", 0)).toBe(2);
    expect(wholeNumber("25", 1, 20)).toBe(20);
    expect(wholeNumber("-4", 0)).toBe(0);
    expect(wholeNumber("", 1, 20)).toBe(1);
    expect(wholeNumber("many", 0)).toBe(0);
    expect(wholeNumber("120000", 0)).toBe(120_000);
  });

  it("offers each failure with how it is declared and the header that asks for it", () => {
    expect(failureLabel({ code: 404, declared: "404" })).toBe("404, as declared (Prefer: code=404)");
    expect(failureLabel({ code: 503, declared: "5XX" })).toBe("503, declared as 5XX (Prefer: code=503)");
  });
});

describe("the code panel", () => {
  const getPipe = operation("getPipe");
  const request = getPipe.examples[0]?.request;
  if (!request) throw new Error("getPipe has no example");
  const page = { kind: "page" } as const;

  it("writes the call for the page's sandbox with the samples' own address, and for a server with its origin", () => {
    const forPage = codeOf(getPipe, { request }, "curl", undefined, page);
    const forServer = codeOf(getPipe, { request }, "curl", undefined, { kind: "sandbox", origin: "http://127.0.0.1:4010" });
    expect(forServer).toContain("http://127.0.0.1:4010");
    expect(forPage).not.toContain("http://127.0.0.1:4010");
    expect(forPage).toContain(request.path.pipeId as string);
  });

  it("includes the Prefer header of a failure asked of the sandbox, in every language", () => {
    for (const language of ["TypeScript", "curl", "Python", "Go"] as const) {
      expect(codeOf(getPipe, { request }, language, "code=404", page)).toContain("code=404");
      expect(codeOf(getPipe, { request }, language, undefined, page)).not.toContain("code=404");
    }
  });

  it("says so, and writes nothing, when the body is not JSON", () => {
    expect(codeOf(operation("updatePipeSettings"), { request, notJson: new SyntaxError("bad") }, "Go", undefined, page)).toBe("(the body is not JSON)");
  });
});
