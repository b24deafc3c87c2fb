// The Operation panel: the operation and example pickers, the line saying what the operation is (its path wrapping
// at slashes, a link to its reference), and the page's address, which names them (`#<operationId>/<example key>`).
import { playgroundFragment } from "./address.js";
import { element } from "./markup.js";
import { type Example, type PlaygroundOperation, playgroundOperations } from "./operations.js";

export interface OperationPanel {
  /** The operation on show. */
  readonly operation: PlaygroundOperation;
  /** Shows what the address names, or the operation on show. */
  openAddress(): void;
}

/** What an address names: `#<operationId>` or `#<operationId>/<example key>`, each part decoded where it can be. */
export function addressParts(hash: string): { operationId: string | undefined; exampleKey: string | undefined } {
  const [operationId, exampleKey] = hash.replace(/^#/, "").split("/").map(decodedOrAsIs);
  return { operationId: operationId || undefined, exampleKey };
}

/** A part of the address decoded, or as it is when it is not valid percent-encoding (`#%`). */
function decodedOrAsIs(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

/**
 * Fills the pickers; `chosen` is told each operation and example shown (`left` when the operation is another than
 * the one before), before the address names them.
 */
export function createOperationPanel({ chosen }: { chosen: (operation: PlaygroundOperation, example: Example, left: boolean) => void }): OperationPanel {
  const operationPicker = element<HTMLSelectElement>("operation");
  const examplePicker = element<HTMLSelectElement>("example");
  const operationLine = element<HTMLElement>("operation-line");
  let operation = playgroundOperations[0] as PlaygroundOperation;
  for (const candidate of playgroundOperations) {
    operationPicker.append(new Option(`${candidate.operationId}: ${candidate.method} ${candidate.summary}`, candidate.operationId));
  }

  /** Shows `next` with its example `key` (its first when unknown), and says so in the address. */
  function choose(next: PlaygroundOperation, key: string | undefined): void {
    const left = next !== operation;
    operation = next;
    operationPicker.value = next.operationId;
    examplePicker.replaceChildren(...next.examples.map((example) => new Option(example.summary, example.key)));
    const example = next.examples.find((candidate) => candidate.key === key) ?? next.examples[0];
    if (!example) return;
    examplePicker.value = example.key;
    operationLine.replaceChildren(
      wrappingAtSlashes(`${next.method} ${next.path}`),
      ` ${next.summary} · `,
      Object.assign(document.createElement("a"), { href: `${next.api}.html#${next.operationId}`, textContent: "reference" }),
    );
    chosen(next, example, left);
    const address = `#${playgroundFragment(next.operationId, example.named ? example.key : undefined)}`;
    if (location.hash !== address) history.replaceState(null, "", address);
  }

  function openAddress(): void {
    const { operationId, exampleKey } = addressParts(location.hash);
    choose(playgroundOperations.find((candidate) => candidate.operationId === operationId) ?? operation, exampleKey);
  }

  operationPicker.addEventListener("change", () => choose(playgroundOperations.find((o) => o.operationId === operationPicker.value) ?? operation, undefined));
  examplePicker.addEventListener("change", () => choose(operation, examplePicker.value));
  window.addEventListener("hashchange", openAddress);
  return {
    get operation() {
      return operation;
    },
    openAddress,
  };
}

/** A path as code that a narrow screen wraps after a slash, never inside a name. */
function wrappingAtSlashes(text: string): HTMLElement {
  const code = document.createElement("code");
  text.split("/").forEach((part, index) => {
    if (index > 0) code.append("/", document.createElement("wbr"));
    code.append(part);
  });
  return code;
}
