// What a sample reads from the environment and what it falls back to: the SDK's own variables
// (src/contract/interfaces.ts) with the sandbox of `npx ingestion-api sandbox` as the default, so a sample runs as
// pasted against the sandbox and against a real server once they are set. Plain JavaScript: the playground runs it.
import { alerts, management } from "../contract/interfaces.js";
import { defaultBaseUrl } from "../contract/openapi.js";
import sandboxCredentials from "../sandbox/default-credentials.json" with { type: "json" };

/**
 * The credentials the pasteable samples carry: the sandbox's defaults, the one set it prints, `npm start` gives it
 * and README and CONTRACT.md show.
 */
export { sandboxCredentials };

/**
 * @typedef {{ name: string, fallback: string }} Variable
 * An environment variable a sample reads, and the value it uses when the variable is not set.
 */

/**
 * The environment of an operation's samples: its interface, the variable of the base URL (falling back to `baseUrl`,
 * else the default of the bundle's first server), those of its credentials (falling back to the sandbox's, by the
 * client option each sets: `keyId`, `keySecret` or `token`), and the comment line that says so.
 * `yourServer` says the base URL is a server of the reader's (the playground's "a URL with your credentials"): the
 * comment then asks for their credentials there, the sandbox's only standing in for them.
 * @param {any} bundle
 * @param {{ operation: any }} entry
 * @param {string} [baseUrl]
 * @param {boolean} [yourServer]
 */
export function sampleEnvironment(bundle, { operation }, baseUrl, yourServer = false) {
  const schemeName = Object.keys((operation.security ?? bundle.security)[0])[0];
  const scheme = bundle.components.securitySchemes[schemeName].scheme.toLowerCase();
  const api = [management, alerts].find((candidate) => candidate.scheme.toLowerCase() === scheme);
  if (!api) throw new Error(`${operation.operationId}: no interface signs in with HTTP ${scheme}`);
  /** @type {Variable} */
  const url = { name: api.environment.baseUrl, fallback: baseUrl ?? defaultBaseUrl(bundle) };
  /** @type {Record<string, Variable>} */
  const credentials = Object.fromEntries(
    (api.scheme === "Basic" ? ["keyId", "keySecret"] : ["token"]).map((option) => [
      option,
      { name: api.environment[option], fallback: sandboxCredentials[option] },
    ]),
  );
  const credentialNames = Object.values(credentials).map((variable) => variable.name);
  const listed = (all) => (all.length === 1 ? all[0] : `${all.slice(0, -1).join(", ")} and ${all.at(-1)}`);
  const comment = yourServer
    ? `Against ${url.fallback}: set ${listed(credentialNames)} to your credentials there (the sandbox's below only stand in for them).`
    : `Against \`npx ingestion-api sandbox\` as it is; for a real server set ${listed([url.name, ...credentialNames])}.`;
  return { api, basic: api.scheme === "Basic", url, credentials, comment };
}
