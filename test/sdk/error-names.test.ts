// An error's `name` is what an uncaught error, `String(error)` and most log lines print first: each class of the
// SDK's error tree has its own, the class's name, so a reader of a log knows which it was without a stack trace.
import { expect, it } from "vitest";
import * as sdk from "../../src/index.js";

const call = { label: "getPipe GET /v1/pipes/{pipeId}", operationId: "getPipe" };
const issues = [{ path: "/pipeId", message: "is required" }];

/** One instance of each error class the package exports, made as the SDK makes it. */
const instances: Record<string, sdk.IngestionError> = {
  IngestionError: new sdk.IngestionError("x"),
  ConnectionError: new sdk.ConnectionError("x"),
  TimeoutError: new sdk.TimeoutError("x"),
  RequestValidationError: new sdk.RequestValidationError(call, issues),
  ResponseValidationError: new sdk.ResponseValidationError(call, issues, undefined),
  ResponseTooLargeError: new sdk.ResponseTooLargeError(call, 10, undefined),
  ApiError: new sdk.ApiError(418, undefined, new Headers(), undefined, call),
  BadRequestError: new sdk.BadRequestError(400, undefined, new Headers(), undefined, call),
  AuthenticationError: new sdk.AuthenticationError(401, undefined, new Headers(), undefined, call),
  PermissionDeniedError: new sdk.PermissionDeniedError(403, undefined, new Headers(), undefined, call),
  NotFoundError: new sdk.NotFoundError(404, undefined, new Headers(), undefined, call),
  InternalServerError: new sdk.InternalServerError(500, undefined, new Headers(), undefined, call),
  RedirectError: new sdk.RedirectError(302, new Headers(), undefined, call),
  RateLimitError: new sdk.RateLimitError(429, undefined, new Headers(), undefined, call, undefined, 1_000),
};

it("makes one instance of every error class the package exports", () => {
  const exported = Object.entries(sdk)
    .filter(([, value]) => typeof value === "function" && (value === sdk.IngestionError || value.prototype instanceof sdk.IngestionError))
    .map(([name]) => name)
    .sort();
  expect(Object.keys(instances).sort()).toEqual(exported);
});

it.each(Object.entries(instances))("%s is named for its class, and prints that name first", (name, error) => {
  expect(error.name).toBe(name);
  expect(error.constructor.name).toBe(name);
  expect(String(error).startsWith(`${name}: `)).toBe(true);
  expect(error.stack?.startsWith(`${name}: `)).toBe(true);
  expect(error).toBeInstanceOf(Error);
});
