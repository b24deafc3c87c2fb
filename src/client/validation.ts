// Turns the generated validators' findings into issues a person can act on: the field and the rule in words.
import type { Validator, ValidationError as ValidatorError } from "../../generated/validators/management.js";
import type { ValidationIssue } from "./errors.js";

// Both APIs' generated modules declare the same shapes; the management one names them for both.
export type { OperationValidators, Validator } from "../../generated/validators/management.js";

/** The rule an error breaks, in words: each keyword the specs use has its own wording; any other is named. */
function describe(error: ValidatorError): ValidationIssue {
  const { instancePath: path, keyword, params } = error;
  switch (keyword) {
    case "required":
      return { path: `${path}/${String(params.missingProperty)}`, message: "is required" };
    case "additionalProperties":
      return { path: `${path}/${String(params.additionalProperty)}`, message: "is not a field of this request" };
    case "enum":
      return { path, message: `must be one of ${(params.allowedValues as unknown[]).map(String).join(", ")}` };
    case "const":
      return { path, message: `must be ${JSON.stringify(params.allowedValue)}` };
    case "type":
      return { path, message: `must be ${String(params.type).replaceAll(",", " or ")}` };
    case "minimum":
      return { path, message: `must be >= ${String(params.limit)}` };
    case "maximum":
      return { path, message: `must be <= ${String(params.limit)}` };
    case "minLength":
      return { path, message: `must be at least ${String(params.limit)} characters long` };
    case "maxLength":
      return { path, message: `must be at most ${String(params.limit)} characters long` };
    case "pattern":
      return { path, message: `must match the pattern ${String(params.pattern)}` };
    case "format":
      return { path, message: `must be a valid ${String(params.format)}` };
    case "discriminator":
      return params.error === "mapping"
        ? { path: `${path}/${String(params.tag)}`, message: `has an unknown value ${JSON.stringify(params.tagValue)}` }
        : { path: `${path}/${String(params.tag)}`, message: "is required and must be a string" };
    default:
      return { path, message: `breaks the rule "${keyword}"` };
  }
}

// When a field breaks several rules, one issue says it best: a wrong type makes its bounds and format moot,
// and a summary of alternatives ("anyOf") says less than the alternative's own rule.
const summaries = new Set(["anyOf", "oneOf"]);
const rank = (keyword: string): number => (keyword === "type" ? 0 : summaries.has(keyword) ? 2 : 1);

/** At most this many issues are worded; a request with a million bad items gets twenty and a count of the rest. */
export const maxIssues = 20;

// Shared by every valid value: no array is made for a call that passes.
const noIssues: readonly ValidationIssue[] = Object.freeze([]);

/** The issues found by a validator, or none: one per field, the clearest, at most `maxIssues` and a count of the rest. */
export function issuesOf(validate: Validator, value: unknown): readonly ValidationIssue[] {
  if (validate(value)) return noIssues;
  // Stryker disable next-line ArrayDeclaration: a validator that returned false has set its errors; the default only satisfies the type.
  const errors = validate.errors ?? [];
  // Release them at once: the validator keeps them until its next run, and a huge input leaves many.
  validate.errors = null;
  const best = new Map<string, { issue: ValidationIssue; rank: number }>();
  let index = 0;
  for (; index < errors.length && best.size <= maxIssues; index++) {
    const error = errors[index] as ValidatorError;
    const issue = describe(error);
    const found = best.get(issue.path);
    if (!found || rank(error.keyword) < found.rank) best.set(issue.path, { issue, rank: rank(error.keyword) });
  }
  const issues = [...best.values()].map(({ issue }) => issue);
  if (issues.length <= maxIssues) return issues;
  // One issue too many was worded to know there are more; the rest are counted, not worded.
  return [...issues.slice(0, maxIssues), { path: "", message: `and ${errors.length - index + 1} more problem(s), not listed` }];
}
