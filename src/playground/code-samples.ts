// The call being edited as code in four languages, from the generators the references use (src/samples/).
import { requestUrl } from "../contract/openapi.js";
import { curlSample, goSample, pythonSample } from "../samples/http-samples.js";
import { typescriptSample } from "../samples/typescript-sample.js";
import type { EditedRequest, PlaygroundOperation } from "./operations.js";

const generators = { TypeScript: typescriptSample, curl: curlSample, Python: pythonSample, Go: goSample };

export const sampleLanguages = Object.keys(generators) as (keyof typeof generators)[];

/**
 * The program for the edited request in `language`, as a reader pastes it against the sandbox or a real server:
 * everything the server would see, the `Prefer` header of a failure asked for on purpose included; `baseUrl` is the
 * server the reader sends to, when it is not the page's sandbox (the code's default is the sandbox's address).
 */
export function codeSample(
  operation: PlaygroundOperation,
  request: EditedRequest,
  language: (typeof sampleLanguages)[number],
  { prefer, baseUrl }: { prefer: string | undefined; baseUrl: string | undefined },
): string {
  const generate = generators[language as keyof typeof generators];
  return generate(operation.bundle, operation.entry, {
    ...request,
    url: requestUrl(operation.path, request.path, request.query),
    ...(prefer !== undefined && { prefer }),
    ...(baseUrl !== undefined && { baseUrl }),
  });
}
