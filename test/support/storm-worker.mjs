// The 429 storm's client: a process that fires `calls` concurrent calls at a server answering every request 429
// with Retry-After: 1 (`rateLimit: false`, `maxRateLimitWaitMs: 5000`), reports how each ended and the most
// attempts any call made, then leaves the event loop alone: the test measures how long the process takes to exit.
// Run by test/sdk/rate-limit-storm.test.ts with `node storm-worker.mjs <json>`: { url, calls, pipe }.
import { fileURLToPath } from "node:url";

const { url, calls, pipe } = JSON.parse(process.argv[2]);
const { createManagementClient, RateLimitError } = await import(fileURLToPath(new URL("../../dist/index.js", import.meta.url)));

let mostAttempts = 0;
const management = createManagementClient({
  baseUrl: url,
  keyId: "storm-key",
  keySecret: "storm-secret",
  rateLimit: false,
  maxRateLimitWaitMs: 5_000,
  onRequest: (_request, { attempt }) => {
    mostAttempts = Math.max(mostAttempts, attempt);
  },
});
const started = Date.now();
const ended = [];
const outcomes = await Promise.allSettled(
  Array.from({ length: calls }, () => management.pipes.getSettings(pipe).finally(() => ended.push(Date.now() - started))),
);
const errors = outcomes.map((outcome) => (outcome.status === "rejected" ? outcome.reason : undefined));
const ownAnswer = (error) => error instanceof RateLimitError && !error.message.includes("was not sent") && error.retryAfterMs === 1_000;
process.send({
  rateLimitErrors: errors.filter((error) => error instanceof RateLimitError).length,
  answered: errors.filter(ownAnswer).length,
  // What the first calls that did not end in their own answer ended with, for the test's failure message.
  notAnswered: errors
    .filter((error) => !ownAnswer(error))
    .slice(0, 3)
    .map(String),
  lastEndedMs: Math.max(...ended),
  mostAttempts,
  firstMessage: errors[0]?.message,
});
process.disconnect();
