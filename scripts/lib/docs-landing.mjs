// The landing page of build/docs: what is there, a line each with its link or command (the playground first, the way
// to start), the two interfaces, and the quickstart. Plain HTML and CSS, nothing loaded from anywhere.
import { defaultBaseUrl } from "../../src/contract/openapi.js";
import { playgroundAddress } from "../../src/playground/address.js";
import { escapeHtml, pageStart } from "./html.mjs";

function apiCard(api, bundle) {
  const scheme = Object.values(bundle.components.securitySchemes)[0];
  const auth = scheme.scheme === "basic" ? "HTTP Basic (API key ID and secret)" : "Bearer token";
  const operations = Object.values(bundle.paths)
    .flatMap((item) => Object.entries(item).filter(([, op]) => op?.operationId))
    .map(([method, op]) => `<li><code>${method.toUpperCase()}</code> <a href="${playgroundAddress(op.operationId)}">${escapeHtml(op.summary)}</a></li>`)
    .join("");
  return `<section class="card">
  <h2><a href="${api}.html">${escapeHtml(bundle.info.title)}</a></h2>
  <p>${escapeHtml(bundle.info.summary)}</p>
  <p class="meta">${auth} · samples call <code>${escapeHtml(defaultBaseUrl(bundle))}</code>, the sandbox of <code>npx ingestion-api sandbox</code></p>
  <ul>${operations}</ul>
  <p><a href="${api}.html">Reference</a> · bundle <a href="openapi/${api}.json">JSON</a> · <a href="openapi/${api}.yaml">YAML</a></p>
</section>`;
}

/** A download's link, and its checksum's: the line `sha256sum -c` reads. */
const download = (name) => `<a href="downloads/${escapeHtml(name)}">${escapeHtml(name)}</a> (<a href="downloads/${escapeHtml(name)}.sha256">SHA-256</a>)`;

/** What build/docs and the package hold, one line each: its link, or the path or command that gets it. */
function contents(apis, version, sandboxUrl) {
  const links = (name) => apis.map((api) => `<a href="${name(api)}">${name(api)}</a>`).join(", ");
  const packagePaths = (suffix) => apis.map((api) => `<code>ingestion-api/openapi/${api}${suffix}.json</code>`).join(", ");
  return `<ul class="contents">
  <li><strong><a href="playground.html">Playground</a></strong>: start here. Every operation, sent by the TypeScript SDK to a sandbox inside the page, with its examples to edit; nothing to install.</li>
  <li>References: ${links((api) => `${api}.html`)}: every operation, every field with its type, bounds and meaning.</li>
  <li>Code samples in four languages, TypeScript, curl, Python and Go, for each operation in the references: they run as pasted against <code>npx ingestion-api sandbox</code>, and read <code>INGESTION_*</code> variables for a real server.</li>
  <li>OpenAPI 3.1 bundles: ${links((api) => `openapi/${api}.json`)}, ${links((api) => `openapi/${api}.yaml`)}.</li>
  <li>OpenAPI 3.0.3 twins, for tools that read only 3.0: not in this folder; in the npm package as ${packagePaths(".openapi-3.0")} (and <code>.yaml</code>).</li>
  <li>Dereferenced copies, no <code>$ref</code> at all: not in this folder; in the npm package as ${packagePaths(".dereferenced")} (and <code>.yaml</code>).</li>
  <li>Release archive for teams without Node, ${download(`ingestion-api-contract-${version}.tar.gz`)}: the bundles in all three forms, JSON Schemas, test vectors, these pages, and a README that says how to check and use them.</li>
  <li>Python package <code>ingestion-api-contract</code>, ${download(`ingestion_api_contract-${version}-py3-none-any.whl`)} (Python 3.9+ with <code>jsonschema</code> 4.10+): the same files, validation by operation id, and <code>python3 -m ingestion_api_contract check-traffic recorded.har</code>.</li>
  <li><code>npx ingestion-api check-traffic recorded.har</code>: checks recorded traffic (a HAR file, or JSON Lines) against the contract, offline.</li>
  <li><code>npx ingestion-api verify --management-url URL --alerts-url URL</code>: checks your server of either interface against the contract.</li>
  <li><code>npx ingestion-api sandbox</code>: a stateful server of both interfaces on <code>${escapeHtml(sandboxUrl)}</code>, for integration tests in any language; it prints its credentials and the ids to try.</li>
</ul>`;
}

export function landingPage({ version, bundles, quickstart }) {
  return `${pageStart(`ingestion-api ${version}: API docs`)}
<style>
  body { font: 16px/1.5 system-ui, sans-serif; max-width: 60rem; margin: 2rem auto; padding: 0 1rem; color: #1f2328; }
  h1 { margin-bottom: 0; } .version { color: #59636e; margin-top: 0; }
  .contents li { margin-bottom: 0.4rem; }
  .cards { display: grid; grid-template-columns: repeat(auto-fit, minmax(26rem, 1fr)); gap: 1rem; }
  .card { border: 1px solid #d1d9e0; border-radius: 8px; padding: 0 1rem; }
  .meta { color: #59636e; font-size: 0.9rem; }
  pre { background: #f6f8fa; border-radius: 8px; padding: 1rem; overflow-x: auto; font-size: 0.85rem; }
  code { font-family: ui-monospace, monospace; }
  a { color: #0969da; }
</style>
</head>
<body>
<main>
<h1>ingestion-api</h1>
<p class="version">version ${escapeHtml(version)}</p>
<p>The contract, a typed TypeScript client and a sandbox server for the ingestion platform's two HTTP JSON interfaces.</p>
<h2>What is here</h2>
${contents(Object.keys(bundles), version, defaultBaseUrl(Object.values(bundles)[0]))}
<div class="cards">
${Object.entries(bundles)
  .map(([api, bundle]) => apiCard(api, bundle))
  .join("\n")}
</div>
<h2>Quickstart</h2>
<p>Against the sandbox, in two terminals: the program uses the ids and credentials the sandbox prints.</p>
<pre tabindex="0"><code>npm install ingestion-api
npx ingestion-api sandbox</code></pre>
<pre tabindex="0"><code>${escapeHtml(quickstart)}</code></pre>
<h2>Accessibility</h2>
<p>Every page here is checked in Chromium with axe-core (WCAG 2.x A and AA rules, and best practices) by the package's tests, on this page, each reference as it opens and with each section open, and the playground before and after a call: no violation of any impact is left. Where Redoc's markup falls short, a small script in the references, run after Redoc renders, sets attributes only: it names each sample picker by the language and example it shows, makes the sidebar a navigation landmark, gives a heading that skips a level the level it is read at, and lets the keyboard reach a block of code that scrolls.</p>
</main>
</body>
</html>
`;
}
