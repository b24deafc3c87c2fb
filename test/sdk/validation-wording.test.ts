// How a validator's findings become the issues a person reads: the field as a JSON pointer and the rule in words,
// one issue per field (the clearest), at most twenty and a count of the rest. A validator here is scripted to
// report exactly the findings a case needs, in the generated validators' shape.
import { describe, expect, it } from "vitest";
import type { ValidationError, Validator } from "../../generated/validators/management.js";
import { issuesOf, maxIssues } from "../../src/client/validation.js";

/** A validator that refuses every value with these findings. */
function refusing(...errors: Partial<ValidationError>[]): Validator {
  const validate: Validator = () => {
    validate.errors = errors.map((error) => ({ instancePath: "", keyword: "x", params: {}, ...error }));
    return false;
  };
  return validate;
}
const accepting: Validator = () => true;

describe("the words of each rule", () => {
  it.each([
    [
      { keyword: "required", params: { missingProperty: "source" } },
      { path: "/source", message: "is required" },
    ],
    [
      { instancePath: "/source", keyword: "required", params: { missingProperty: "kind" } },
      { path: "/source/kind", message: "is required" },
    ],
    [
      { keyword: "additionalProperties", params: { additionalProperty: "tileID" } },
      { path: "/tileID", message: "is not a field of this request" },
    ],
    [
      { instancePath: "/state", keyword: "enum", params: { allowedValues: ["ALERT", "OK", 3] } },
      { path: "/state", message: "must be one of ALERT, OK, 3" },
    ],
    [
      { instancePath: "/source", keyword: "const", params: { allowedValue: "tile" } },
      { path: "/source", message: 'must be "tile"' },
    ],
    [
      { instancePath: "/n", keyword: "type", params: { type: "integer,null" } },
      { path: "/n", message: "must be integer or null" },
    ],
    [
      { instancePath: "/n", keyword: "type", params: { type: "integer,string,null" } },
      { path: "/n", message: "must be integer or string or null" },
    ],
    [
      { instancePath: "/n", keyword: "minimum", params: { limit: 1 } },
      { path: "/n", message: "must be >= 1" },
    ],
    [
      { instancePath: "/n", keyword: "maximum", params: { limit: 60000 } },
      { path: "/n", message: "must be <= 60000" },
    ],
    [
      { instancePath: "/s", keyword: "minLength", params: { limit: 1 } },
      { path: "/s", message: "must be at least 1 characters long" },
    ],
    [
      { instancePath: "/s", keyword: "maxLength", params: { limit: 24 } },
      { path: "/s", message: "must be at most 24 characters long" },
    ],
    [
      { instancePath: "/id", keyword: "pattern", params: { pattern: "^[0-9a-f]{24}$" } },
      { path: "/id", message: "must match the pattern ^[0-9a-f]{24}$" },
    ],
    [
      { instancePath: "/id", keyword: "format", params: { format: "uuid" } },
      { path: "/id", message: "must be a valid uuid" },
    ],
    [
      { keyword: "discriminator", params: { error: "mapping", tag: "type", tagValue: "KAFKA" } },
      { path: "/type", message: 'has an unknown value "KAFKA"' },
    ],
    [
      { keyword: "discriminator", params: { error: "tag", tag: "type" } },
      { path: "/type", message: "is required and must be a string" },
    ],
    [
      { instancePath: "/a", keyword: "uniqueItems", params: {} },
      { path: "/a", message: 'breaks the rule "uniqueItems"' },
    ],
  ])("%j reads %j", (error, issue) => {
    expect(issuesOf(refusing(error), {})).toEqual([issue]);
  });
});

describe("which issues are told", () => {
  it("none for a valid value", () => {
    expect(issuesOf(accepting, {})).toEqual([]);
  });

  it("one per field: a wrong type over the bounds it makes moot, in whichever order they come", () => {
    const type = { instancePath: "/n", keyword: "type", params: { type: "integer" } };
    const bound = { instancePath: "/n", keyword: "maximum", params: { limit: 5 } };
    expect(issuesOf(refusing(bound, type), {})).toEqual([{ path: "/n", message: "must be integer" }]);
    expect(issuesOf(refusing(type, bound), {})).toEqual([{ path: "/n", message: "must be integer" }]);
  });

  it("an alternative's own rule over the summary of the alternatives, and the first of two equal rules", () => {
    const summary = { instancePath: "/n", keyword: "oneOf", params: {} };
    const own = { instancePath: "/n", keyword: "maximum", params: { limit: 5 } };
    const other = { instancePath: "/n", keyword: "minimum", params: { limit: 1 } };
    expect(issuesOf(refusing(summary, own), {})).toEqual([{ path: "/n", message: "must be <= 5" }]);
    expect(issuesOf(refusing(own, summary, other), {})).toEqual([{ path: "/n", message: "must be <= 5" }]);
    expect(issuesOf(refusing({ instancePath: "/n", keyword: "anyOf", params: {} }, own), {})).toEqual([{ path: "/n", message: "must be <= 5" }]);
  });

  it("each field once, in the order found", () => {
    const issues = issuesOf(
      refusing({ instancePath: "/b", keyword: "minimum", params: { limit: 1 } }, { instancePath: "/a", keyword: "minimum", params: { limit: 2 } }),
      {},
    );
    expect(issues.map(({ path }) => path)).toEqual(["/b", "/a"]);
  });

  it(`at most ${maxIssues}, then a count of the problems not listed`, () => {
    const errors = Array.from({ length: 25 }, (_, index) => ({ instancePath: `/${index}`, keyword: "minimum", params: { limit: 0 } }));
    const issues = issuesOf(refusing(...errors), {});
    expect(issues).toHaveLength(maxIssues + 1);
    expect(issues.slice(0, maxIssues).map(({ path }) => path)).toEqual(errors.slice(0, maxIssues).map(({ instancePath }) => instancePath));
    expect(issues[maxIssues]).toEqual({ path: "", message: "and 5 more problem(s), not listed" });
  });

  it(`exactly ${maxIssues} fields are all listed, with no count`, () => {
    const errors = Array.from({ length: maxIssues }, (_, index) => ({ instancePath: `/${index}`, keyword: "minimum", params: { limit: 0 } }));
    expect(issuesOf(refusing(...errors), {})).toHaveLength(maxIssues);
    expect(maxIssues).toBe(20);
  });

  it("releases the validator's findings once read, so a huge input's errors are not kept", () => {
    const validate = refusing({ keyword: "required", params: { missingProperty: "a" } });
    issuesOf(validate, {});
    expect(validate.errors).toBeNull();
  });
});
