// IDs, bodies and client options for the SDK tests. IDs and bodies are the specs' own named examples, so a
// test never restates the contract; credentials and the error table are the SDK's.

import { beforeEach } from "vitest";
import { createMemoryRateLimitStore } from "../../src/client/memory-store.js";
import type { RateLimitStore } from "../../src/client/rate-limit.js";
import {
  type Alert,
  type AlertRequest,
  type ApiError,
  AuthenticationError,
  BadRequestError,
  InternalServerError,
  NotFoundError,
  PermissionDeniedError,
  type PipeSettings,
  RateLimitError,
} from "../../src/index.js";
import { operation } from "./operations.js";

const getPipe = operation("getPipe");
export const { organizationId, serviceId, pipeId } = getPipe.example.path as { organizationId: string; serviceId: string; pipeId: string };
export const pipe = { organizationId, serviceId, pipeId };
export const alertId = operation("getAlert").example.path.id as string;

export const keyId = "test-key-id";
export const keySecret = "test-key-secret-5b1f9c";
export const token = "test-token-8c2e7a";

/** The settings GET example: the envelope and the settings in it. */
export const settingsEnvelope = operation("getPipeSettings").exampleResponse() as { status: number; requestId: string; result: PipeSettings };
export const settingsResult = settingsEnvelope.result;

/** An alert on a dashboard tile, as the create example sends it, and the alert the service answers with. */
export const tileAlert = operation("createAlert").requestExamples.TileAlert as AlertRequest;
export const alertEnvelope = operation("getAlert").exampleResponse() as { data: Alert };

/** The declared error statuses and the class each maps to, named for test titles. */
export const declaredErrorClasses: [status: number, name: string, ErrorClass: abstract new (...args: never[]) => ApiError][] = [
  [400, "BadRequestError", BadRequestError],
  [401, "AuthenticationError", AuthenticationError],
  [403, "PermissionDeniedError", PermissionDeniedError],
  [404, "NotFoundError", NotFoundError],
  [429, "RateLimitError", RateLimitError],
  [500, "InternalServerError", InternalServerError],
];

/**
 * A rate-limit store made anew before each test of the file that calls this: a client given it shares pauses and
 * budgets with the other clients of its test only, so a 429 in one test never pauses the next one's credential (as
 * the store every client shares by default would).
 */
export function storeOfEachTest(): () => RateLimitStore {
  let store = createMemoryRateLimitStore();
  beforeEach(() => {
    store = createMemoryRateLimitStore();
  });
  return () => store;
}
