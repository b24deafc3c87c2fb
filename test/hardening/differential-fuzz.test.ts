// Differential fuzzing: for every operation with a request body, bodies generated around every boundary of
// its schema (test/support/schema-mutations.ts, starting from the spec's named examples) go through the
// SDK's validation and, unvalidated, to Prism. The verdicts must agree on every case, so the generated
// validators and Prism's reading of the spec cannot drift apart.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { issuesOf } from "../../src/client/validation.js";
import { bundles } from "../support/bundles.js";
import { operations, partSchema } from "../support/operations.js";
import { send } from "../support/prism.js";
import { mutatedBodies } from "../support/schema-mutations.js";

const seed = 20261121;
const runs = 600;

type Verdict = "valid" | "invalid";

describe("the SDK's validation and Prism agree", () => {
  it.each(operations.filter((o) => o.parts.includes("request")).map((o) => [o.operationId, o] as const))(
    `on ${runs} %s bodies`,
    async (_id, o) => {
      const arbitrary = mutatedBodies(bundles[o.api], partSchema(o, "request"), Object.values(o.requestExamples) as Record<string, unknown>[]);
      const bodies = fc.sample(arbitrary, { numRuns: runs, seed });
      const disagreements: string[] = [];
      const counts = { valid: 0, invalid: 0 };
      // A few requests at a time: Prism answers in about a millisecond, one core is enough.
      for (let start = 0; start < bodies.length; start += 8) {
        await Promise.all(
          bodies.slice(start, start + 8).map(async (body) => {
            const ours: Verdict = o.validators.body && issuesOf(o.validators.body, body).length > 0 ? "invalid" : "valid";
            const answer = await send(o.api, o.method, o.example.url, { body });
            const prisms: Verdict =
              answer.status === 200 ? "valid" : answer.status === 400 || answer.status === 422 ? "invalid" : (`HTTP ${answer.status}` as Verdict);
            counts[ours] += 1;
            if (ours !== prisms) disagreements.push(`SDK says ${ours}, Prism says ${prisms}: ${JSON.stringify(body)}`);
          }),
        );
      }
      expect(disagreements, disagreements.join("\n")).toEqual([]);
      // Both verdicts must be well represented, or the family tests little.
      expect(Math.min(counts.valid, counts.invalid), JSON.stringify(counts)).toBeGreaterThan(runs / 10);
    },
    60_000,
  );
});
