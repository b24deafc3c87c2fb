// The SDK method that sends each operation and the arguments it takes from a request's path, query and body: one
// table, which the TypeScript samples write out and the playground calls. typescript-samples.test.ts type-checks
// every program written from it, so a method or an argument that does not fit the SDK fails there.

/**
 * @typedef {{ path: Record<string, unknown>, query: Record<string, unknown>, body: unknown }} SampleRequest
 * @typedef {{ client: "management" | "alerts", result: string, method: string, args: (request: SampleRequest) => unknown[] }} SdkCall
 * The client, its method (a path from the client, `pipes.updateSettings`), the arguments it takes from a request, and
 * the name a sample gives the result.
 */

/** @type {Record<string, SdkCall>} The SDK's call for each operation (src/client/resources/). */
export const sdkCalls = {
  listServices: { client: "management", result: "services", method: "services.list", args: ({ path, query }) => [{ ...path, ...query }] },
  createReversePrivateEndpoint: {
    client: "management",
    result: "endpoint",
    method: "reversePrivateEndpoints.create",
    args: ({ path, body }) => [path, body],
  },
  getPipe: { client: "management", result: "pipe", method: "pipes.get", args: ({ path }) => [path] },
  getPipeSettings: { client: "management", result: "settings", method: "pipes.getSettings", args: ({ path }) => [path] },
  updatePipeSettings: { client: "management", result: "settings", method: "pipes.updateSettings", args: ({ path, body }) => [path, body] },
  createAlert: { client: "alerts", result: "alert", method: "create", args: ({ body }) => [body] },
  getAlert: { client: "alerts", result: "alert", method: "get", args: ({ path }) => [path.id] },
};
