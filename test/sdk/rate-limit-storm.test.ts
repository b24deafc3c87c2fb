// A 429 storm: a server that answers every request 429 with Retry-After: 1. Every wait a 429 causes counts against
// maxRateLimitWaitMs, so 2,000 concurrent calls all end in their own answer's RateLimitError within 15 s, with at
// most 3 attempts each, and the process exits on its own: nothing is left waiting, no timer left behind.
import { fork } from "node:child_process";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";
import { pipe } from "../support/sdk-fixtures.js";

interface Report {
  rateLimitErrors: number;
  answered: number;
  notAnswered: string[];
  lastEndedMs: number;
  mostAttempts: number;
  firstMessage: string;
}

it("2,000 calls under a server that answers only 429 all fail with their own answer's RateLimitError within 15 s, at most 3 attempts each, and the process exits", async () => {
  const calls = 2_000;
  let received = 0;
  // The first answers wait until every call has arrived: the storm is 2,000 calls in flight at once, however long a
  // busy machine takes to send them (a call still unsent when the first 429 lands waits in the queue instead, and may
  // end unsent, rightly, when the pauses add up past its bound).
  const held: (() => void)[] = [];
  const server = createServer((request, response) => {
    request.resume();
    const requestId = `storm-${++received}`;
    const answer = () => {
      response.writeHead(429, { "content-type": "application/json", "retry-after": "1" });
      response.end(JSON.stringify({ status: 429, error: "Rate limit exceeded", requestId }));
    };
    if (received > calls) return answer();
    held.push(answer);
    if (received === calls) for (const release of held.splice(0)) release();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  try {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const child = fork(fileURLToPath(new URL("../support/storm-worker.mjs", import.meta.url)), [JSON.stringify({ url, calls, pipe })], {
      stdio: "inherit",
    });
    const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
    const report = await new Promise<Report>((resolve, reject) => {
      child.once("message", (message) => resolve(message as Report));
      child.once("error", reject);
      void exited.then((code) => reject(new Error(`the storm's client exited with ${code} before it reported`)));
    });
    const reportedAt = Date.now();
    expect(report.rateLimitErrors).toBe(calls);
    expect(report.answered, `the first calls that did not end in their own 429:\n${report.notAnswered.join("\n")}`).toBe(calls);
    expect(report.lastEndedMs).toBeLessThan(15_000);
    expect(report.mostAttempts).toBeLessThanOrEqual(3);
    expect(received).toBeLessThanOrEqual(3 * calls);
    expect(report.firstMessage).toMatch(/failed with HTTP 429: Rate limit exceeded \(request id storm-\d+\); retry after 1 s; not retried: /);
    // Nothing keeps the client's process alive once every call has ended.
    await expect(exited).resolves.toBe(0);
    expect(Date.now() - reportedAt).toBeLessThan(2_000);
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}, 30_000);
