// The call being edited as code in four languages, from the generators the references use (src/samples/).
import { curlSample, goSample, pythonSample } from "../samples/http-samples.js";
import { typescriptSample } from "../samples/typescript-sample.js";
import type { EditedRequest, PlaygroundOperation } from "./operations.js";

const generators = { TypeScript: typescriptSample, curl: curlSample, Python: pythonSample, Go: goSample };

export const sampleLanguages = Object.keys(generators);

/** The edited request's URL after the base: its path template filled in, and its query. */
function urlOf(operation: PlaygroundOperation, request: EditedRequest): string {
  const path = operation.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(request.path[name] ?? ""));
  const search = Object.entries(request.query)
    .flatMap(([name, value]) => [value].flat().map((item) => `${name}=${encodeURIComponent(item)}`))
    .join("&");
  return search ? `${path}?${search}` : path;
}

/** The program for the edited request in `language`, as a reader pastes it against the sandbox or a real server. */
export function codeSample(operation: PlaygroundOperation, request: EditedRequest, language: string): string {
  const generate = generators[language as keyof typeof generators] ?? typescriptSample;
  return generate(operation.bundle, operation.entry, { ...request, url: urlOf(operation, request) });
}
