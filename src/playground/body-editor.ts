// The body editor: CodeMirror 6 with JSON, completing field names and enum values from the operation's request
// schema in the bundle. Its checks are the SDK's own validators (main.ts lists their issues under it), so the
// editor and Send name the same field and rule. Tab leaves the editor, as it leaves any field.
import { autocompletion, type CompletionContext, type CompletionResult } from "@codemirror/autocomplete";
import { json } from "@codemirror/lang-json";
import { syntaxTree } from "@codemirror/language";
import { Compartment, type EditorState } from "@codemirror/state";
import { EditorView } from "@codemirror/view";
import { basicSetup } from "codemirror";
import { resolveRef } from "../contract/openapi.js";

type SyntaxNode = ReturnType<ReturnType<typeof syntaxTree>["resolveInner"]>;

export type Schema = Record<string, unknown> & {
  properties?: Record<string, Schema>;
  items?: Schema;
  enum?: unknown[];
  const?: unknown;
  type?: string | string[];
  description?: string;
  oneOf?: Schema[];
  anyOf?: Schema[];
  allOf?: Schema[];
  discriminator?: { propertyName: string; mapping?: Record<string, string> };
};

/** The alternatives a schema stands for, references followed and `allOf` merged; `oneOf`/`anyOf` each one. */
function alternatives(bundle: object, schema: Schema | undefined, within: unknown): Schema[] {
  if (!schema) return [];
  const resolved = resolveRef(bundle, schema) as Schema;
  const branches = resolved.oneOf ?? resolved.anyOf;
  if (branches) {
    const tag = resolved.discriminator?.propertyName;
    const value = tag && typeof within === "object" && within !== null ? (within as Record<string, unknown>)[tag] : undefined;
    const mapped = typeof value === "string" ? resolved.discriminator?.mapping?.[value] : undefined;
    // With the discriminator's value written, only its branch; before, every branch.
    const chosen = mapped ? branches.filter((branch) => (branch as { $ref?: string }).$ref === mapped) : branches;
    return chosen.flatMap((branch) => alternatives(bundle, branch, within));
  }
  if (resolved.allOf) {
    const parts = resolved.allOf.flatMap((part) => alternatives(bundle, part, within));
    return [{ ...resolved, properties: Object.assign({}, resolved.properties, ...parts.map((part) => part.properties)) }];
  }
  return [resolved];
}

/** What a field's schema says in a line: its type, bounds and the values it takes. */
function detailOf(schema: Schema): string {
  const type = [schema.type ?? []].flat().join(" | ");
  const bounds = [
    schema.minimum !== undefined && `>= ${schema.minimum}`,
    schema.maximum !== undefined && `<= ${schema.maximum}`,
    schema.minLength !== undefined && `${schema.minLength}+ chars`,
    schema.maxLength !== undefined && `<= ${schema.maxLength} chars`,
  ].filter(Boolean);
  return [type, ...bounds].filter(Boolean).join(", ");
}

/** The keys and indexes from the document's root to `node`: the place in the body the cursor is at. */
function pathTo(node: SyntaxNode | null, state: EditorState): (string | number)[] {
  const path: (string | number)[] = [];
  for (let at = node; at; at = at.parent) {
    const parent = at.parent;
    if (at.name === "Property") {
      const name = at.getChild("PropertyName");
      if (name) path.unshift(JSON.parse(state.sliceDoc(name.from, name.to)) as string);
    } else if (parent?.name === "Array" && at.name !== "[" && at.name !== "]") {
      let index = 0;
      for (let before = at.prevSibling; before; before = before.prevSibling) if (before.name === ",") index++;
      path.unshift(index);
    }
  }
  return path;
}

/** The document as JSON where it parses, for the discriminators; undefined while it does not. */
function parsed(state: EditorState): unknown {
  try {
    return JSON.parse(state.doc.toString());
  } catch {
    return undefined;
  }
}

/** The schemas of the value at `path`, starting at the request schema. */
function schemasAt(bundle: object, root: Schema, path: (string | number)[], document: unknown): Schema[] {
  let schemas = alternatives(bundle, root, document);
  let value = document;
  for (const step of path) {
    value = typeof value === "object" && value !== null ? (value as Record<string | number, unknown>)[step] : undefined;
    schemas = schemas.flatMap((schema) =>
      alternatives(bundle, typeof step === "number" ? schema.items : (schema.properties?.[step] as Schema | undefined), value),
    );
  }
  return schemas;
}

/** The object or array the cursor is in: the syntax node itself or its nearest enclosing one. */
function enclosingContainer(node: SyntaxNode | null): SyntaxNode | null {
  let at = node;
  while (at && at.name !== "Object" && at.name !== "Array") at = at.parent;
  return at;
}

/** Whether JSON text ends inside a string: its quotes, escapes skipped, are odd in number. */
function endsInString(text: string): boolean {
  let inside = false;
  for (let index = 0; index < text.length; index++) {
    if (text[index] === "\\" && inside) index++;
    else if (text[index] === '"') inside = !inside;
  }
  return inside;
}

/**
 * Completes a field name where an object's next field goes (after its `{` or a `,`), and a value after a field's
 * colon where the schema lists the values (enum, const, boolean, null). Nothing inside a string or an array.
 */
function completeFromSchema(bundle: object, schema: Schema) {
  return (context: CompletionContext): CompletionResult | null => {
    const object = enclosingContainer(syntaxTree(context.state).resolveInner(context.pos, -1));
    if (object?.name !== "Object") return null;
    const word = context.matchBefore(/"?[\w-]*/);
    const from = word ? word.from : context.pos;
    // The text of the object up to the word being typed: where the cursor stands in its grammar.
    const lead = context.state.sliceDoc(object.from, from);
    if (endsInString(lead)) return null;
    // The editor closes a quote as it is opened: a completion replaces that closing quote too.
    const to = word?.text.startsWith('"') && context.state.sliceDoc(context.pos, context.pos + 1) === '"' ? context.pos + 1 : context.pos;
    const document = parsed(context.state);
    const path = pathTo(object, context.state);
    const validFor = /^"?[\w-]*"?$/;
    if (/[{,]\s*$/.test(lead)) {
      const present = new Set(
        object.getChildren("Property").map((property) => {
          const name = property.getChild("PropertyName");
          return name ? context.state.sliceDoc(name.from, name.to) : "";
        }),
      );
      const fields = new Map<string, Schema>();
      for (const candidate of schemasAt(bundle, schema, path, document)) {
        for (const [name, field] of Object.entries(candidate.properties ?? {})) if (!fields.has(name)) fields.set(name, resolveRef(bundle, field) as Schema);
      }
      // A name completed in front of its colon keeps that colon.
      const colonFollows = /^\s*:/.test(context.state.sliceDoc(to, to + 20));
      const options = [...fields]
        .filter(([name]) => !present.has(JSON.stringify(name)) || context.state.sliceDoc(from, to) === JSON.stringify(name))
        .map(([name, field]) => ({
          label: JSON.stringify(name),
          apply: colonFollows ? JSON.stringify(name) : `${JSON.stringify(name)}: `,
          type: "property",
          detail: detailOf(field),
          ...(field.description !== undefined && { info: field.description }),
        }));
      return { from, to, options, validFor };
    }
    const field = /"((?:[^"\\]|\\.)*)"\s*:\s*$/.exec(lead);
    if (!field) return null;
    const values = schemasAt(bundle, schema, [...path, JSON.parse(`"${field[1]}"`) as string], document).flatMap((candidate) => [
      ...(candidate.enum ?? []),
      ...(candidate.const !== undefined ? [candidate.const] : []),
      ...([candidate.type].flat().includes("boolean") ? [true, false] : []),
      ...([candidate.type].flat().includes("null") ? [null] : []),
    ]);
    if (values.length === 0) return null;
    return { from, to, options: [...new Set(values)].map((value) => ({ label: JSON.stringify(value), type: "enum" })), validFor };
  };
}

/** What the editor completes from: a request schema and the bundle its references point into. */
export interface BodySchema {
  bundle: object;
  schema: Schema;
}

export interface BodyEditor {
  readonly text: string;
  /** Replaces the text, and the schema it completes from (none for an operation without a body). */
  load(text: string, schema: BodySchema | undefined): void;
  /** Marks the editor invalid (or not) for assistive technology. */
  setInvalid(invalid: boolean): void;
}

/** The editor inside `parent`, named `label`; `changed` runs on every edit, `submit` on Ctrl+Enter or Cmd+Enter. */
export function createBodyEditor(
  parent: HTMLElement,
  { label, describedBy, changed, submit }: { label: string; describedBy: string; changed: () => void; submit: () => void },
): BodyEditor {
  let source: BodySchema | undefined;
  let marked = false;
  const attributes = new Compartment();
  const named = (invalid: boolean) =>
    EditorView.contentAttributes.of({ "aria-label": label, "aria-describedby": describedBy, "aria-invalid": String(invalid) });
  const view = new EditorView({
    parent,
    extensions: [
      basicSetup,
      json(),
      // The editor is narrow beside the answers: a long value wraps rather than hiding past the edge.
      EditorView.lineWrapping,
      autocompletion({ override: [(context) => (source ? completeFromSchema(source.bundle, source.schema)(context) : null)] }),
      attributes.of(named(false)),
      // After the update, not inside it: what `changed` does may update the editor too (its aria-invalid).
      EditorView.updateListener.of((update) => {
        if (update.docChanged) queueMicrotask(changed);
      }),
      EditorView.domEventHandlers({
        keydown: (event) => {
          if (event.key !== "Enter" || !(event.ctrlKey || event.metaKey)) return false;
          event.preventDefault();
          submit();
          return true;
        },
      }),
    ],
  });
  return {
    get text() {
      return view.state.doc.toString();
    },
    load(text, next) {
      source = next;
      view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } });
    },
    setInvalid(invalid) {
      if (invalid !== marked) view.dispatch({ effects: attributes.reconfigure(named(invalid)) });
      marked = invalid;
    },
  };
}
