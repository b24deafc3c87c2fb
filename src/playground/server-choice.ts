// The Server panel: where the playground sends, chosen by the reader among what the page may reach. As built, and
// from file://, only the sandbox in this page; served by `npx ingestion-api docs --sandbox` also that sandbox, and
// with `--connect <origin>` a server of the reader's, with credentials held in this page's memory only. The docs
// server names them in the page (src/docs/server.js) and lets its policy connect to them and nothing else.

import { element } from "./markup.js";
import type { Target } from "./session.js";

/** The servers the docs server said this page may call, from the element it fills: none as built, or from file://. */
function namedServers(): { sandbox: string | undefined; servers: string[] } {
  if (location.protocol === "file:") return { sandbox: undefined, servers: [] };
  const content = document.querySelector<HTMLMetaElement>('meta[name="ingestion-api-servers"]')?.content;
  try {
    const named = JSON.parse(content || "{}") as { sandbox?: unknown; servers?: unknown };
    return {
      sandbox: typeof named.sandbox === "string" ? named.sandbox : undefined,
      servers: Array.isArray(named.servers) ? named.servers.filter((origin): origin is string => typeof origin === "string") : [],
    };
  } catch {
    return { sandbox: undefined, servers: [] };
  }
}

/** The origin of a URL a policy report names, or the text as it is. */
function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}

export interface ServerChoice {
  /** Where the calls go now; a server's credentials are read from the inputs at each call only. */
  target(): Target;
  /** Why a call to a server other than the page's sandbox got no answer the page may read, and what to do. */
  explain(error: Error): string | undefined;
  /** Shows what the choice means (and asks for credentials where it needs them); `changed` is told. */
  changed(): void;
}

/** Fills the Server panel; `onChange` is told when the reader chooses another server. */
export function createServerChoice(onChange: () => void): ServerChoice {
  const server = element<HTMLSelectElement>("server");
  const help = element<HTMLElement>("server-help");
  const credentials = element<HTMLElement>("server-credentials");
  const named = namedServers();
  if (named.sandbox) server.append(new Option(`npx ingestion-api sandbox at ${named.sandbox}`, "sandbox"));
  for (const origin of named.servers) server.append(new Option(`${origin}, with your credentials`, `server:${origin}`));

  // The servers this page's policy kept it from reaching, by origin: a failed call to one of them says so.
  const blockedByPolicy = new Set<string>();
  document.addEventListener("securitypolicyviolation", (event) => {
    if (event.effectiveDirective === "connect-src") blockedByPolicy.add(originOf(event.blockedURI));
  });

  function target(): Target {
    if (server.value === "sandbox" && named.sandbox) return { kind: "sandbox", origin: named.sandbox };
    if (server.value.startsWith("server:")) {
      const value = (id: string) => element<HTMLInputElement>(id).value;
      return {
        kind: "server",
        origin: server.value.slice("server:".length),
        credentials: { keyId: value("key-id"), keySecret: value("key-secret"), token: value("token") },
      };
    }
    return { kind: "page" };
  }

  function explain(error: Error): string | undefined {
    const chosen = target();
    if (chosen.kind === "page" || error.name !== "ConnectionError") return undefined;
    if (blockedByPolicy.has(chosen.origin)) {
      return `This page's Content-Security-Policy kept it from ${chosen.origin}: the docs server lets the playground connect only to the servers it was told of (npx ingestion-api docs --sandbox, --connect ${chosen.origin}).`;
    }
    const page = location.origin;
    return `No answer this page may read came from ${chosen.origin}: the server is not running there, or it does not answer CORS for this page's origin (${page}). Ask its owners to answer a preflight from ${page} with Access-Control-Allow-Origin: ${page}, Access-Control-Allow-Headers: authorization, content-type, prefer, and to expose Retry-After, X-RateLimit-Reset and x-request-id.`;
  }

  function changed(): void {
    const chosen = target();
    credentials.hidden = chosen.kind !== "server";
    help.textContent =
      location.protocol === "file:"
        ? "Opened as a file, this page calls only its own sandbox. To call npx ingestion-api sandbox or a server of yours, open it through npx ingestion-api docs --sandbox (or --connect <origin>)."
        : chosen.kind === "sandbox"
          ? `npx ingestion-api sandbox at ${chosen.origin}, with its published credentials. Sandbox rate limit, Reset sandbox and the state below are this page's sandbox's.`
          : chosen.kind === "server"
            ? `Your server: the browser lets this page read only what its CORS allows this page's origin (${location.origin}).`
            : named.sandbox || named.servers.length > 0
              ? "The sandbox in this page."
              : "This page may call only its own sandbox: npx ingestion-api docs --sandbox lets it call that sandbox, --connect <origin> a server of yours.";
    onChange();
  }

  server.addEventListener("change", changed);
  return { target, explain, changed };
}
