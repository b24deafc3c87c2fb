// What goes wrong, and how to tell: validation before sending, typed HTTP errors, retries, logging.
// Reads INGESTION_API_URL, INGESTION_API_KEY_ID, INGESTION_API_KEY_SECRET and INGESTION_ORGANIZATION_ID; without them,
// `npx ingestion-api sandbox` as it starts (its credentials; the ids below are its data).
import { ApiError, createManagementClient, NotFoundError, RateLimitError, RequestValidationError } from "ingestion-api";

const management = createManagementClient({
  baseUrl: process.env.INGESTION_API_URL || "http://127.0.0.1:4012",
  keyId: process.env.INGESTION_API_KEY_ID || "sandbox-key-id",
  keySecret: process.env.INGESTION_API_KEY_SECRET || "sandbox-key-secret",
  organizationId: process.env.INGESTION_ORGANIZATION_ID || "7b1e3f0a-5c2d-4e8f-9a6b-1c3d5e7f9a0b",
  maxRetries: 3, // retries after the first attempt (default 2), only where safe
  timeoutMs: 10_000, // per attempt (default 60 s)
  logLevel: "warn", // one line per retried attempt; "info" logs every attempt
});
const pipe = { serviceId: "3f6c2a1e-8b4d-4c7e-9f1a-2b3c4d5e6f70", pipeId: "9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a" };

// A value outside its bounds never leaves the process.
try {
  await management.pipes.updateSettings(pipe, { streaming_max_insert_wait_ms: 60_001 });
} catch (error) {
  if (!(error instanceof RequestValidationError)) throw error;
  for (const issue of error.issues) console.log(`invalid: ${issue.path} ${issue.message}`);
}

// HTTP errors have a class per status, with the status, the server's body and the request id.
// (`Prefer: code=404` asks the mock, or the sandbox, for the 404 the operation declares.)
try {
  await management.pipes.get(pipe, { headers: { Prefer: "code=404" } });
} catch (error) {
  if (error instanceof NotFoundError) console.log(`not found: HTTP ${error.status}, request ${error.requestId}`);
  else if (error instanceof RateLimitError) console.log(`rate limited; retry after ${error.retryAfterMs} ms`);
  else if (error instanceof ApiError) console.log(`HTTP ${error.status}: ${error.message}`);
  else throw error;
}
