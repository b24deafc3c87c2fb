// The landing page of build/docs: what the two interfaces are, where their references and bundles are,
// and the quickstart. Plain HTML and CSS, nothing loaded from anywhere.

const escapeHtml = (text) => text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;");

function apiCard(api, bundle) {
  const server = bundle.servers[0];
  const [variable] = Object.values(server.variables);
  const scheme = Object.values(bundle.components.securitySchemes)[0];
  const auth = scheme.scheme === "basic" ? "HTTP Basic (API key ID and secret)" : "Bearer token";
  const operations = Object.values(bundle.paths)
    .flatMap((item) => Object.entries(item).filter(([, op]) => op?.operationId))
    .map(([method, op]) => `<li><code>${method.toUpperCase()}</code> ${escapeHtml(op.summary)}</li>`)
    .join("");
  return `<section class="card">
  <h2><a href="${api}.html">${escapeHtml(bundle.info.title)}</a></h2>
  <p>${escapeHtml(bundle.info.summary)}</p>
  <p class="meta">${auth} · sandbox behind Prism at <code>${escapeHtml(variable.default)}</code> (<code>npm start</code>)</p>
  <ul>${operations}</ul>
  <p><a href="${api}.html">Reference</a> · bundle <a href="openapi/${api}.json">JSON</a> · <a href="openapi/${api}.yaml">YAML</a></p>
</section>`;
}

export function landingPage({ version, bundles, quickstart }) {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<link rel="icon" href="data:,">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>ingestion-api ${escapeHtml(version)}: API docs</title>
<style>
  body { font: 16px/1.5 system-ui, sans-serif; max-width: 60rem; margin: 2rem auto; padding: 0 1rem; color: #1f2328; }
  h1 { margin-bottom: 0; } .version { color: #59636e; margin-top: 0; }
  .cards { display: grid; grid-template-columns: repeat(auto-fit, minmax(26rem, 1fr)); gap: 1rem; }
  .card { border: 1px solid #d1d9e0; border-radius: 8px; padding: 0 1rem; }
  .meta { color: #59636e; font-size: 0.9rem; }
  pre { background: #f6f8fa; border-radius: 8px; padding: 1rem; overflow-x: auto; font-size: 0.85rem; }
  code { font-family: ui-monospace, monospace; }
  a { color: #0969da; }
</style>
</head>
<body>
<h1>ingestion-api</h1>
<p class="version">version ${escapeHtml(version)}</p>
<p>The contract, a typed TypeScript client and mock servers for the ingestion platform's two HTTP JSON interfaces.
Each reference lists every operation, every field with its type and bounds, and a TypeScript and a curl sample for each call.</p>
<div class="cards">
${Object.entries(bundles)
  .map(([api, bundle]) => apiCard(api, bundle))
  .join("\n")}
</div>
<h2>For other language teams</h2>
<p>The bundles above are single files with internal <code>$ref</code>s only, the contract to generate clients and tests from:
<a href="openapi/management.json">management.json</a>, <a href="openapi/management.yaml">management.yaml</a>,
<a href="openapi/alerts.json">alerts.json</a>, <a href="openapi/alerts.yaml">alerts.yaml</a>.
They are also in the npm package as <code>ingestion-api/openapi/&lt;name&gt;</code>.</p>
<h2>Quickstart</h2>
<pre><code>npm install ingestion-api</code></pre>
<pre><code>${escapeHtml(quickstart)}</code></pre>
</body>
</html>
`;
}
