// What an editor offers while a user writes a fault rule for the in-process sandbox: every operation id and `*`,
// and the dropped connections among the statuses. What it refuses is in sandbox.typecheck.ts.
import { beforeAll, describe, expect, it } from "vitest";
import { root } from "../../scripts/lib/toolchain.mjs";
import { openEditor } from "../support/editor.js";
import { operations } from "../support/operations.js";

const file = "test/types/editing-fault-rule.ts";
const text = `import { createSandbox } from "ingestion-api/sandbox";
const { faults } = createSandbox();
faults.add({ operation: "" });
faults.add({ operation: "getPipe", status: "" });
`;

describe("a fault rule of the in-process sandbox", () => {
  const editor = openEditor(root, { [file]: text });
  beforeAll(() => editor.load(), 30_000);

  it("offers every operation id of the contract and * at operation", () => {
    const offered = editor.completions(file, 'add({ operation: "');
    expect(offered.sort()).toEqual([...operations.map(({ operationId }) => operationId), "*"].sort());
  });

  it("offers reset and truncate at a status written as a string", () => {
    expect(editor.completions(file, 'status: "').sort()).toEqual(["reset", "truncate"]);
  });
});
