// Type-level tests of the in-process sandbox's fault rules: checked by `tsc` in `npm test`, never run. A rule names
// an operation the contract has and a status that operation declares; each @ts-expect-error fails the type check if
// the line it guards starts to compile.
import { createSandbox, type FaultRule } from "ingestion-api/sandbox";
import { expectTypeOf } from "vitest";

const { faults } = createSandbox();

expectTypeOf(faults.add).parameter(0).toEqualTypeOf<FaultRule>();

// A status the operation declares, each code of a declared range (getPipe declares 5XX), or a dropped connection.
faults.add({ operation: "getPipe", status: 503, count: 1 });
faults.add({ operation: "getPipe", status: 424 });
faults.add({ operation: "createAlert", status: 415, headers: { "retry-after": "1" } });
faults.add({ operation: "getPipeSettings", status: "truncate", delayMs: 300 });
// For every operation, a status each of them declares.
faults.add({ operation: "*", status: 429 });
faults.add({ operation: "*", status: "reset", probability: 0.5 });

// @ts-expect-error an operation the contract does not have
faults.add({ operation: "getPipes", status: 503 });
// @ts-expect-error a status getPipe does not declare
faults.add({ operation: "getPipe", status: 418 });
// @ts-expect-error 424 is declared by getPipe, not by listServices
faults.add({ operation: "listServices", status: 424 });
// @ts-expect-error createAlert declares no 404, so not every operation does
faults.add({ operation: "*", status: 404 });
// @ts-expect-error a status is a number, "reset" or "truncate"
faults.add({ operation: "getPipe", status: "timeout" });
// @ts-expect-error a field a fault rule does not have
faults.add({ operation: "getPipe", status: 500, colour: "red" });
// @ts-expect-error a rule names its operation
faults.add({ status: 500 });
