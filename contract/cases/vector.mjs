// The shape of one test vector: what is checked, the value, the expected verdict and the rule that decides it.

/** Constructors for the vectors of one part ("params", "request" or "response") of one operation. */
export function vectorsOf(operation, part) {
  const vector = (verdict) => (name, value, rule) => ({ operation, part, name, value, verdict, rule });
  return { valid: vector("valid"), invalid: vector("invalid") };
}

/** A copy of `object` without `key`. */
export function without(object, key) {
  const { [key]: _left, ...rest } = object;
  return rest;
}
