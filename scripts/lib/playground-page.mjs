// build/docs/playground.html and the script and styles it loads from beside it: the SDK, the in-page sandbox, the
// validators and the sample generators bundled by esbuild into one classic script (Chromium runs no module script
// from file://), so the page works opened as a file and served alike, and loads nothing from anywhere else.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { build } from "esbuild";
import { serversMeta } from "../../src/docs/server.js";
import { escapeHtml, pageStart } from "./html.mjs";
import { root } from "./toolchain.mjs";

/** The page's markup: every control named as a test and a screen reader find it; src/playground/main.ts fills it. */
function markup(version) {
  return `${pageStart(`Playground: ingestion-api ${version}`)}
${serversMeta}
<link rel="stylesheet" href="playground.css">
<script src="playground.js" defer></script>
</head>
<body>
<header>
  <h1>Playground <small>ingestion-api ${escapeHtml(version)}</small></h1>
  <nav><a href="index.html">All docs</a> · <a href="management.html">Management reference</a> · <a href="alerts.html">Alerting reference</a></nav>
  <p>Every call here is made by the TypeScript SDK, by default against a sandbox of both interfaces that runs in this
  page: nothing is sent over the network, what you create you can read back, and <b>Reset sandbox</b> puts the seed
  back. Served by <code>npx ingestion-api docs --sandbox</code> (or <code>--connect</code> a server's origin), it can
  send to that server instead.</p>
  <noscript><p class="failed">The playground runs the SDK in this page, so it needs JavaScript. The references
  (<a href="management.html">management</a>, <a href="alerts.html">alerting</a>) read without it.</p></noscript>
</header>
<main>
<form id="call" aria-label="Call">
  <label for="operation">Operation</label> <select id="operation"></select>
  <p id="operation-line"></p>
  <label for="example">Example</label> <select id="example"></select>
  <fieldset id="parameters"><legend>Parameters</legend></fieldset>
  <div id="body-field">
    <p class="field-name" id="body-label">Body</p>
    <div id="body"></div>
    <p id="body-help" class="help">Checked as you type against the request schema, as the SDK checks it before sending;
    Ctrl+Space completes field names and values. Tab leaves the editor; Ctrl+Enter sends.</p>
    <ul id="body-issues" class="issues" aria-live="polite"></ul>
  </div>
  <fieldset id="server-field">
    <legend>Server</legend>
    <label for="server">Send to</label> <select id="server"><option value="page">this page's sandbox</option></select>
    <p id="server-help" class="help"></p>
    <div id="server-credentials" hidden>
      <p class="help">Held in this page's memory only: never stored, and masked wherever the page shows them.</p>
      <label for="key-id">Key ID <small>management</small></label> <input id="key-id" autocomplete="off" spellcheck="false">
      <label for="key-secret">Key secret <small>management</small></label> <input id="key-secret" type="password" autocomplete="off">
      <label for="token">Token <small>alerting</small></label> <input id="token" type="password" autocomplete="off">
    </div>
  </fieldset>
  <fieldset>
    <legend>Failures on purpose</legend>
    <label for="answer">Answer</label> <select id="answer"></select>
    <label for="sandbox-limit">Sandbox rate limit</label> <select id="sandbox-limit">
      <option value="off">off</option>
      <option value="strict">2 requests per 10 s per credential</option>
      <option value="contract">10 requests per 10 s per credential (the contract's)</option>
    </select>
    <label for="times">Calls at once</label> <input id="times" type="number" min="1" max="20" value="1">
  </fieldset>
  <fieldset>
    <legend>SDK options</legend>
    <label class="inline"><input id="paced" type="checkbox"> Pace the calls at the contract's limit (<code>rateLimit</code>; off here: <code>rateLimit: false</code>)</label>
    <label for="max-retries">maxRetries</label> <input id="max-retries" type="number" min="0" max="10" value="2">
    <label for="max-wait">maxRateLimitWaitMs</label> <input id="max-wait" type="number" min="0" max="600000" step="1000" value="120000">
  </fieldset>
  <div class="actions"><button id="send" type="submit">Send</button> <button id="reset" type="button">Reset sandbox</button></div>
</form>
<div class="output">
  <section aria-labelledby="request-title"><h2 id="request-title">Request</h2><div id="request-view"><p class="note">Nothing sent yet.</p></div></section>
  <section aria-labelledby="response-title"><h2 id="response-title">Response</h2><div id="response-view" aria-live="polite"><p class="note">No answer yet.</p></div></section>
  <section aria-labelledby="result-title"><h2 id="result-title">Result</h2><div id="result-view" aria-live="polite"><p class="note">What the SDK returns, or the error it throws.</p></div></section>
  <section aria-labelledby="code-title"><h2 id="code-title">The same call as code</h2>
    <div class="actions"><label for="language">Language</label> <select id="language"></select> <button id="copy" type="button">Copy</button></div>
    <pre id="code-text" tabindex="0"></pre>
  </section>
  <section aria-labelledby="state-title"><h2 id="state-title">Sandbox state</h2><pre id="state-view" tabindex="0"></pre></section>
</div>
</main>
</body>
</html>
`;
}

const styles = `body { font: 15px/1.45 system-ui, sans-serif; margin: 0; color: #1f2328; }
header { padding: 0.5rem 1.5rem; border-bottom: 1px solid #d1d9e0; }
header h1 { margin: 0.3rem 0; font-size: 1.4rem; } header h1 small { color: #59636e; font-weight: normal; font-size: 0.9rem; }
main { display: grid; grid-template-columns: minmax(22rem, 30rem) 1fr; gap: 1.5rem; padding: 1rem 1.5rem; }
@media (max-width: 900px) { main { grid-template-columns: 1fr; } }
form label { display: block; margin: 0.5rem 0; font-weight: 600; }
form label.inline { font-weight: normal; }
form label small { color: #59636e; font-weight: normal; margin-left: 0.4rem; }
select, input, textarea, button { font: inherit; }
form select, form input[type=number], #parameters input, #parameters textarea, #server-credentials input { display: block; width: 100%; box-sizing: border-box; margin-top: 0.2rem; }
textarea { width: 100%; box-sizing: border-box; font-family: ui-monospace, monospace; font-size: 0.85rem; }
.field-name { font-weight: 600; margin: 0.5rem 0 0.2rem; }
#body .cm-editor { border: 1px solid #d1d9e0; border-radius: 6px; max-height: 22rem; font-size: 0.85rem; }
#body .cm-scroller { overflow: auto; }
#body .cm-editor.cm-focused { outline: 2px solid #0969da; }
#body:has([aria-invalid=true]) .cm-editor { border-color: #cf222e; }
fieldset { border: 1px solid #d1d9e0; border-radius: 6px; margin: 0.8rem 0; }
.help { color: #59636e; font-size: 0.85rem; margin: 0.2rem 0; }
/* The path breaks after its slashes (the script puts a <wbr> there), never inside a name. */
#operation-line code { overflow-wrap: normal; }
/* The form and the panes show once the script has filled them (some 170 ms): shown empty first, they moved as
   they filled (CLS 0.05 to 0.16). Without scripts the header says the page needs them. */
body:not([data-ready]) main { visibility: hidden; }
/* A grid column grows to its widest line unless told it may be narrower: the panes' long lines scroll in their pre. */
.output { min-width: 0; }
.issues { color: #cf222e; margin: 0.3rem 0; padding-left: 1.2rem; }
.actions { display: flex; gap: 0.5rem; align-items: end; }
.actions label { margin: 0; }
button { padding: 0.35rem 1rem; border-radius: 6px; border: 1px solid #d1d9e0; background: #f6f8fa; cursor: pointer; }
button#send { background: #1f883d; color: white; border-color: #1a7f37; min-width: 6rem; }
button#send.cancel { background: #cf222e; border-color: #a40e26; }
button:focus-visible, select:focus-visible, input:focus-visible, textarea:focus-visible { outline: 2px solid #0969da; outline-offset: 1px; }
section { border-bottom: 1px solid #d1d9e0; padding-bottom: 0.5rem; }
section h2 { font-size: 1.1rem; margin: 0.6rem 0 0.3rem; }
section h3 { font-size: 0.95rem; margin: 0.5rem 0 0.2rem; }
pre { background: #f6f8fa; border-radius: 6px; padding: 0.6rem; overflow: auto; max-height: 24rem; font-size: 0.8rem; margin: 0.2rem 0; }
.ok { color: #1a7f37; } .failed { color: #cf222e; } .note, .message { color: #59636e; }
.message { color: #1f2328; }
a { color: #0969da; }
`;

/** Writes playground.html, playground.js and playground.css into `outDir`; their sizes in bytes. */
export async function writePlayground(outDir, { version }) {
  await build({
    absWorkingDir: root,
    entryPoints: ["src/playground/main.ts"],
    bundle: true,
    platform: "browser",
    format: "iife",
    target: "es2022",
    minify: true,
    // No keepNames: the page shows an error's class by its `name`, which each SDK error sets. The licences of what is
    // bundled (CodeMirror's among them) stay, at the end of the file.
    legalComments: "eof",
    outfile: join(outDir, "playground.js"),
    logLevel: "warning",
  });
  writeFileSync(join(outDir, "playground.css"), styles);
  writeFileSync(join(outDir, "playground.html"), markup(version));
  return Object.fromEntries(["playground.html", "playground.js", "playground.css"].map((file) => [file, readFileSync(join(outDir, file)).length]));
}
