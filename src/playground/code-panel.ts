// The Code panel: the call as the reader edited it, written in the language they pick (TypeScript over the SDK,
// curl, Python, Go) by the generators the references use (src/samples/), for the server the calls go to, with a
// button that copies it.
import { requestUrl } from "../contract/openapi.js";
import { curlSample, goSample, pythonSample } from "../samples/http-samples.js";
import { typescriptSample } from "../samples/typescript-sample.js";
import { element } from "./markup.js";
import type { PlaygroundOperation } from "./operations.js";
import type { ReadRequest } from "./request-panel.js";
import type { Target } from "./session.js";

const generators = { TypeScript: typescriptSample, curl: curlSample, Python: pythonSample, Go: goSample };

export type Language = keyof typeof generators;

export interface CodePanel {
  /** Writes `read` as code in the language picked; `prefer` is the failure asked of the sandbox, if one is. */
  show(operation: PlaygroundOperation, read: ReadRequest, prefer: string | undefined, target: Target): void;
}

/**
 * The program for the edited request in `language`, as a reader pastes it against the sandbox or a real server:
 * everything the server would see, the `Prefer` header of a failure asked for on purpose included, and the
 * server's origin when the calls go to one (the code's default is the sandbox's address).
 */
export function codeOf(
  operation: PlaygroundOperation,
  { request, notJson }: ReadRequest,
  language: Language,
  prefer: string | undefined,
  target: Target,
): string {
  if (notJson) return "(the body is not JSON)";
  return generators[language](operation.bundle, operation.entry, {
    ...request,
    url: requestUrl(operation.path, request.path, request.query),
    ...(prefer !== undefined && { prefer }),
    ...(target.kind !== "page" && { baseUrl: target.origin }),
    ...(target.kind === "server" && { yourServer: true }),
  });
}

/** `changed` is told when the reader picks another language. */
export function createCodePanel({ changed }: { changed: () => void }): CodePanel {
  const language = element<HTMLSelectElement>("language");
  const code = element<HTMLElement>("code-text");
  for (const name of Object.keys(generators)) language.append(new Option(name, name));
  language.addEventListener("change", changed);
  element<HTMLButtonElement>("copy").addEventListener("click", () => void navigator.clipboard?.writeText(code.textContent ?? ""));
  return {
    show(operation, read, prefer, target) {
      code.textContent = codeOf(operation, read, language.value as Language, prefer, target);
    },
  };
}
