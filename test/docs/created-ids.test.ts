// The playground's memory of what the reader created (src/playground/created-ids.ts), alone: which id the
// operation reading an item takes, and when it forgets.
import { expect, it } from "vitest";
import { CreatedIds } from "../../src/playground/created-ids.js";
import type { CallRecord } from "../../src/playground/session.js";

const createAlert = { method: "POST", path: "/api/v2/alerts" };
const getAlert = { method: "GET", path: "/api/v2/alerts/{id}" };
const returned = (...values: unknown[]): CallRecord[] => values.map((value) => ({ attempts: [], outcome: { value } }));

it("gives the operation reading an item the id a POST to its collection returned last", () => {
  const created = new CreatedIds();
  expect(created.for(getAlert, "id")).toBeUndefined();
  created.remember(createAlert, returned({ id: "a-1" }, { id: "a-2" }));
  expect(created.for(getAlert, "id")).toBe("a-2");
  // Another parameter, or a path that does not end with this one, takes nothing.
  expect(created.for(getAlert, "alertId")).toBeUndefined();
  expect(created.for({ method: "GET", path: "/api/v2/alerts/{id}/history" }, "id")).toBeUndefined();
});

it("keeps nothing from a GET, an error, a value without a string id, or a call still running", () => {
  const created = new CreatedIds();
  created.remember(getAlert, returned({ id: "from-a-read" }));
  created.remember(createAlert, [{ attempts: [], outcome: { error: new Error("refused") } }, { attempts: [] }, ...returned(null, { id: 7 }, "text")]);
  expect(created.for(getAlert, "id")).toBeUndefined();
});

it("forgets every id on clear: the sandbox they were made in is gone", () => {
  const created = new CreatedIds();
  created.remember(createAlert, returned({ id: "a-1" }));
  created.clear();
  expect(created.for(getAlert, "id")).toBeUndefined();
});
