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

/**
 * Constructors for the vectors of one answer of one operation other than its 200 JSON body: the body of `status`
 * in `mediaType`, checked against the response the operation declares for that status (exactly, or by its range:
 * `5XX` for a 502).
 */
export function answerVectorsOf(operation, status, mediaType = "application/json") {
  const vector = (verdict) => (name, value, rule) => ({ operation, part: "response", status, mediaType, name, value, verdict, rule });
  return { valid: vector("valid"), invalid: vector("invalid") };
}

/**
 * What a gateway or proxy in front of either service answers for any operation (`5XX`, since 0.3.0): its own
 * words in plain text or an HTML page, or the interface's JSON error, which keeps its required field.
 */
export function gatewayVectors(operation, { errorBody, requiredField }) {
  const rule = "a 5XX body is the interface's JSON error or any text (plain or HTML)";
  return [
    answerVectorsOf(operation, 502, "text/plain").valid("a gateway's 502 in plain text", "Bad Gateway", rule),
    answerVectorsOf(operation, 504, "text/html").valid(
      "a proxy's 504 page in HTML",
      "<html><head><title>504 Gateway Time-out</title></head><body><h1>504 Gateway Time-out</h1></body></html>",
      rule,
    ),
    answerVectorsOf(operation, 503).valid("a 503 with the interface's JSON error", errorBody, rule),
    answerVectorsOf(operation, 503).invalid(
      `a 503 JSON error without ${requiredField}`,
      without(errorBody, requiredField),
      `a JSON error always has ${requiredField}`,
    ),
  ];
}
