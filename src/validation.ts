// Turns the generated validators' findings into issues a person can act on: the field and the rule in words.
import type { Validator, ValidationError as ValidatorError } from "../generated/validators/management.js";
import type { ValidationIssue } from "./errors.js";

// Both APIs' generated modules declare the same shapes; the management one names them for both.
export type { OperationValidators } from "../generated/validators/management.js";

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

/** The issues found by a validator, or none: one per field, the clearest. */
export function issuesOf(validate: Validator, value: unknown): ValidationIssue[] {
  if (validate(value)) return [];
  const best = new Map<string, { issue: ValidationIssue; rank: number }>();
  for (const error of validate.errors ?? []) {
    const issue = describe(error);
    const found = best.get(issue.path);
    if (!found || rank(error.keyword) < found.rank) best.set(issue.path, { issue, rank: rank(error.keyword) });
  }
  return [...best.values()].map(({ issue }) => issue);
}
