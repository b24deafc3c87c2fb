// `raw`: openapi-fetch's client over the same sending as typed calls. Its requests are read back into calls of the
// operations their paths match, sent by sendCall, and their answers given back as Responses openapi-fetch reads.
import type { Client } from "openapi-fetch";
import * as openapiFetch from "openapi-fetch";
import { callPolicy, type PolicyDefaults } from "./call-policy.js";
import { IngestionError, RequestValidationError } from "./errors.js";
import { rereadable } from "./read-body.js";
import { fillPath, pathOf, type Routes, routeOfPath } from "./routes.js";
import { asAnswer, type Sender, sendCall } from "./send-call.js";

const createClient = openapiFetch.default;

/**
 * openapi-fetch's client over the clients' own sending (sendCall). Its middleware (`use`, `eject`) is refused: it
 * would see one call and never a retry, and typed calls do not pass through it; the client options `onRequest` and
 * `onResponse` see every attempt of both.
 */
export type RawClient<Paths extends {}> = Omit<Client<Paths>, "use" | "eject">;

/** What `raw` sends with: the client's sender and defaults, its server, and its routes (awaited while they load). */
export interface RawClientConfig {
  sender: Sender;
  defaults: PolicyDefaults;
  baseUrl: string;
  /** The path of `baseUrl`, which every request path starts with. */
  basePath: string;
  querySerializer: (query: Record<string, unknown>) => string;
  routes: () => Routes | Promise<Routes>;
}

export function createRawClient<Paths extends {}>(config: RawClientConfig): RawClient<Paths> {
  const { baseUrl, querySerializer } = config;
  const client = createClient<Paths>({ baseUrl, fetch: (request: Request) => rawFetch(config, request), pathSerializer: fillPath, querySerializer });
  // openapi-fetch fills the path (fillPath) before it says the method: a value refused there is named here, where
  // both are known, by the operation they make. Only the contracts' methods have operations to name.
  const named = async (error: unknown, method: string, template: string): Promise<never> => {
    const route = error instanceof RequestValidationError && !error.operationId && (await config.routes())[method]?.get(template);
    throw route ? new RequestValidationError(route.policy, (error as RequestValidationError).issues) : error;
  };
  const methods = client as unknown as Record<string, (...args: string[]) => Promise<unknown>>;
  for (const method of ["GET", "PUT", "POST", "request"]) {
    const call = methods[method] as (...args: string[]) => Promise<unknown>;
    methods[method] = (...args) =>
      call(...args).catch((error) =>
        method === "request" ? named(error, (args[0] as string).toUpperCase(), args[1] as string) : named(error, method, args[0] as string),
      );
  }
  return Object.assign(client, { use: refuseMiddleware, eject: refuseMiddleware });
}

/** `raw`'s fetch: openapi-fetch's Request, read into a call of the operation its path matches, sent the same way. */
async function rawFetch({ sender, defaults, basePath, routes }: RawClientConfig, request: Request): Promise<Response> {
  const path = pathOf(request.url);
  const loaded = routes();
  const route = routeOfPath(loaded instanceof Promise ? await loaded : loaded, request.method, path);
  // openapi-fetch fills the template only when the call gives path parameters; without any, it is sent as it is.
  if (route && decodeURIComponent(path) === basePath + route.template) {
    throw new RequestValidationError(route.policy, [{ path: route.template, message: "has a path parameter without a value" }]);
  }
  const { response, body } = await sendCall(
    sender,
    {
      method: request.method,
      url: request.url,
      body: request.body === null ? undefined : await request.text(),
      headers: Object.fromEntries(request.headers),
      signal: request.signal,
      policy: route?.policy ?? callPolicy({ label: `${request.method} ${path}`, operationId: undefined }, defaults),
    },
    asAnswer,
  );
  // openapi-fetch reads the body again, which the client has read already.
  return rereadable(response, body);
}

function refuseMiddleware(): never {
  throw new IngestionError(
    "raw.use() and raw.eject() are not supported: openapi-fetch middleware sees one call, not each attempt, and typed calls do not pass through it; pass onRequest and onResponse to the client instead, which see every attempt of typed calls and raw alike",
  );
}
