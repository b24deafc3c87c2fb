// The Parameters and Body panel: the operation's path and query parameters as inputs (a path parameter holds the
// id the reader last created, where the operation reads that item), and its body in the editor, checked as the SDK
// will check it before sending.
import { issuesOf } from "../client/validation.js";
import { createBodyEditor } from "./body-editor.js";
import type { CreatedIds } from "./created-ids.js";
import { element } from "./markup.js";
import type { EditedRequest, PlaygroundOperation } from "./operations.js";

/** The request as the inputs hold it; `notJson` when the editor's text is not JSON. */
export interface ReadRequest {
  request: EditedRequest;
  notJson?: SyntaxError;
}

export interface RequestPanel {
  /** Shows `operation`'s inputs holding `request`; loading the body counts as an edit. */
  fill(operation: PlaygroundOperation, request: EditedRequest): void;
  read(operation: PlaygroundOperation): ReadRequest;
  /** Names each field of the body that breaks its schema (or that it is not JSON), and marks the editor. */
  check(operation: PlaygroundOperation, read: ReadRequest): void;
  /** Whether `node` is part of the body field, which says itself when it changed. */
  holdsBody(node: Node): boolean;
}

/** Fills the panel; `changed` is told of every edit of the body, `submit` of Ctrl+Enter in it. */
export function createRequestPanel({ created, changed, submit }: { created: CreatedIds; changed: () => void; submit: () => void }): RequestPanel {
  const parameters = element<HTMLElement>("parameters");
  const bodyField = element<HTMLElement>("body-field");
  const bodyIssues = element<HTMLElement>("body-issues");
  // In the body editor, Enter is a new line; Ctrl+Enter (or Cmd+Enter) sends.
  const body = createBodyEditor(element("body"), { label: "Body", describedBy: "body-issues body-help", changed, submit });

  function fill(operation: PlaygroundOperation, request: EditedRequest): void {
    parameters.replaceChildren(
      ...operation.parameters.map((parameter) => {
        const label = document.createElement("label");
        const value = parameter.in === "path" ? (created.for(operation, parameter.name) ?? request.path[parameter.name]) : request.query[parameter.name];
        const input = parameter.multiple ? document.createElement("textarea") : document.createElement("input");
        input.name = parameter.name;
        // Its name alone, without the hint beside it: "serviceId", as the contract and the SDK call it.
        input.setAttribute("aria-label", parameter.name);
        input.value = [value ?? []].flat().join("\n");
        if (parameter.multiple) (input as HTMLTextAreaElement).rows = 2;
        if (parameter.description) input.title = parameter.description;
        label.append(
          Object.assign(document.createElement("span"), { textContent: parameter.name }),
          Object.assign(document.createElement("small"), { textContent: `${parameter.in}${parameter.multiple ? ", one per line" : ""}` }),
          input,
        );
        return label;
      }),
    );
    parameters.hidden = operation.parameters.length === 0;
    bodyField.hidden = !operation.bodySchema;
    // Loading the editor counts as an edit, which checks the body and writes the code.
    body.load(operation.bodySchema ? JSON.stringify(request.body, null, 2) : "", operation.bodySchema);
    if (!operation.bodySchema) changed();
  }

  function read(operation: PlaygroundOperation): ReadRequest {
    const path: EditedRequest["path"] = {};
    const query: EditedRequest["query"] = {};
    for (const input of parameters.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>("[name]")) {
      const parameter = operation.parameters.find((candidate) => candidate.name === input.name);
      if (!parameter) continue;
      if (parameter.in === "path") path[parameter.name] = input.value;
      else if (input.value !== "") query[parameter.name] = parameter.multiple ? input.value.split("\n").filter(Boolean) : input.value;
    }
    if (!operation.bodySchema) return { request: { path, query, body: undefined } };
    try {
      return { request: { path, query, body: JSON.parse(body.text) } };
    } catch (error) {
      return { request: { path, query, body: undefined }, notJson: error as SyntaxError };
    }
  }

  function check(operation: PlaygroundOperation, { request, notJson }: ReadRequest): void {
    const issues = notJson
      ? [`the body is not JSON: ${notJson.message}`]
      : operation.bodyValidator
        ? issuesOf(operation.bodyValidator, request.body).map((issue) => `${issue.path.slice(1).replaceAll("/", ".") || "the body"} ${issue.message}`)
        : [];
    bodyIssues.replaceChildren(...issues.map((issue) => Object.assign(document.createElement("li"), { textContent: issue })));
    body.setInvalid(issues.length > 0);
  }

  return { fill, read, check, holdsBody: (node) => bodyField.contains(node) };
}
