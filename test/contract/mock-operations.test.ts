// Prism answers each operation's example request with 200 and a body that matches the declared schema, and
// refuses it without Authorization. The operations and their requests come from the bundles.
import { describe, expect, it } from "vitest";
import { validateAgainst } from "../support/bundles.js";
import { operations, partSchema } from "../support/operations.js";
import { send } from "../support/prism.js";

describe.each(operations.map((o) => [o.operationId, o] as const))("%s", (_operationId, o) => {
  it("answers its example request with 200 and a body that matches the declared schema", async () => {
    const answer = await send(o.api, o.method, o.example.url, { body: o.example.body });
    expect(answer.violations).toEqual([]);
    expect(answer.status).toBe(200);
    const { valid, errors } = validateAgainst(o.api, partSchema(o, "response"), answer.body);
    expect(errors).toBe("No errors");
    expect(valid).toBe(true);
  });

  it("answers 401 when Authorization is missing", async () => {
    const answer = await send(o.api, o.method, o.example.url, { body: o.example.body, authorized: false });
    expect(answer.status).toBe(401);
  });
});
