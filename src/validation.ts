// Turns the generated validators' findings into issues a person can act on: the field and the rule in words.
import type { ValidationError as ValidatorError, Validator } from "../generated/validators/management.js";
import type { ValidationIssue } from "./errors.js";

// Both APIs' generated modules declare the same shapes; the management one names them for both.
export type { OperationValidators } from "../generated/validators/management.js";

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
    case "discriminator":
      return params.error === "mapping"
        ? { path: `${path}/${String(params.tag)}`, message: `has an unknown value ${JSON.stringify(params.tagValue)}` }
        : { path: `${path}/${String(params.tag)}`, message: "is required and must be a string" };
    default:
      return { path, message: error.message ?? `breaks the rule "${keyword}"` };
  }
}

/** The issues found by a validator, or none. Duplicates (the same field and rule) are reported once. */
export function issuesOf(validate: Validator, value: unknown): ValidationIssue[] {
  if (validate(value)) return [];
  const seen = new Set<string>();
  return (validate.errors ?? []).map(describe).filter((issue) => {
    const key = `${issue.path} ${issue.message}`;
    return seen.has(key) ? false : (seen.add(key), true);
  });
}

