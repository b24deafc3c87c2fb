// npm run docs: writes build/docs/: one self-contained Redoc page per API (with TypeScript, curl, Python and Go code
// samples and the servers explained), the playground (every operation sent by the SDK to a sandbox in the page), the
// bundles for other teams, the downloads (the release archive and the Python wheel, for teams without Node), and a
// landing page.
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse } from "yaml";
import { redocLanguages, withCodeSamples } from "./lib/code-samples.mjs";
import { landingPage } from "./lib/docs-landing.mjs";
import { writeDownloads } from "./lib/downloads.mjs";
import { writePlayground } from "./lib/playground-page.mjs";
import { referenceFixes, referenceStyles } from "./lib/reference-styles.mjs";
import { withStaticReference } from "./lib/static-reference.mjs";
import { apis, root, runTool } from "./lib/toolchain.mjs";

const docsDir = join(root, "build", "docs");
// Written beside build/docs and renamed into place, so a server never sees half a build.
const outDir = `${docsDir}.partial-${process.pid}`;
const { version } = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));

// Redoc's script fetches its logo from Redocly's CDN; the page must not reach any host.
const redoclyLogo = /https:\/\/cdn\.redoc\.ly\/redoc\/logo-mini(?:-full)?\.svg/g;
const inlineLogo = `data:image/svg+xml,${encodeURIComponent(
  '<svg xmlns="http://www.w3.org/2000/svg" width="60" height="14"><text x="0" y="11" font-family="sans-serif" font-size="11" fill="#888">Redocly</text></svg>',
)}`;

// Without an icon link, browsers ask the server for /favicon.ico and log the 404 as a console error.
const noFavicon = '<link rel="icon" href="data:,">';

/** The servers and their variables, in words, for the top of the reference. */
function serversSection(bundle) {
  const rows = bundle.servers.flatMap((server) =>
    Object.entries(server.variables ?? {}).map(([name, variable]) => `| \`${name}\` | \`${variable.default}\` | ${variable.description} |`),
  );
  const servers = bundle.servers.map((server) => `\`${server.url}\`: ${server.description}`).join("\n\n");
  return `\n## Servers\n\n${servers}\n\n| variable | default | meaning |\n|---|---|---|\n${rows.join("\n")}\n`;
}

/**
 * Markdown's words as text: Redoc's Servers panel shows a server's description, and a variable's, as text (no
 * Markdown there), so their backticks showed. A code span keeps its words, in quotes; the Servers section beside the
 * panel shows the same descriptions rendered. The descriptions hold no other Markdown, which
 * test/docs/reference-layout.test.ts holds: it finds no Markdown mark in the panel.
 */
const markdownAsText = (markdown) => markdown.replace(/`([^`]*)`/g, "“$1”");

function withTextDescriptions(server) {
  const variables = Object.entries(server.variables ?? {}).map(([name, variable]) => [
    name,
    { ...variable, description: markdownAsText(variable.description ?? "") },
  ]);
  return { ...server, description: markdownAsText(server.description ?? ""), ...(server.variables && { variables: Object.fromEntries(variables) }) };
}

function docsBundle(api, bundle) {
  const docs = withCodeSamples(bundle);
  const links = `Reference for the npm package \`ingestion-api\` **${version}**. [All docs](index.html) · bundle [JSON](openapi/${api}.json) · [YAML](openapi/${api}.yaml)\n\n`;
  docs.info.description = links + docs.info.description + serversSection(docs);
  docs.servers = docs.servers.map(withTextDescriptions);
  return docs;
}

rmSync(outDir, { recursive: true, force: true });
mkdirSync(join(outDir, "openapi"), { recursive: true });
const work = mkdtempSync(join(tmpdir(), "ingestion-api-docs-"));
const bundles = {};
const { openapi: redocOptions } = parse(readFileSync(join(root, "redocly.yaml"), "utf8"));
try {
  for (const api of apis) {
    bundles[api] = JSON.parse(readFileSync(join(root, "generated", "openapi", `${api}.json`), "utf8"));
    const source = join(work, `${api}.json`);
    const docs = docsBundle(api, bundles[api]);
    writeFileSync(source, JSON.stringify(docs));
    // Redoc shows a code sample only when its config names the sample's label, and each named example has its own.
    const config = join(work, `redocly-${api}.yaml`);
    writeFileSync(config, JSON.stringify({ openapi: { ...redocOptions, codeSamples: { languages: redocLanguages(docs) } } }));
    const page = join(outDir, `${api}.html`);
    const title = `${bundles[api].info.title} ${version}`;
    const rendered = runTool("redocly", ["build-docs", source, "--config", config, "--inlineBundle", "--title", title, "--output", page], {
      capture: true,
    });
    if (rendered.status !== 0) throw new Error(`redocly build-docs ${api} failed:\n${rendered.stderr}`);
    writeFileSync(
      page,
      withStaticReference(
        readFileSync(page, "utf8")
          .replace(redoclyLogo, inlineLogo)
          .replace("<head>", `<head>\n${noFavicon}`)
          // Last in the head, after Redoc's own styles, so the docs' colours win at equal specificity.
          .replace("</head>", `${referenceStyles}\n${referenceFixes}\n</head>`),
        bundles[api],
      ),
    );
    for (const extension of ["json", "yaml"]) {
      copyFileSync(join(root, "generated", "openapi", `${api}.${extension}`), join(outDir, "openapi", `${api}.${extension}`));
    }
  }
} catch (error) {
  rmSync(outDir, { recursive: true, force: true });
  throw error;
} finally {
  rmSync(work, { recursive: true, force: true });
}
const playground = await writePlayground(outDir, { version });
writeFileSync(join(outDir, "index.html"), landingPage({ version, bundles, quickstart: readFileSync(join(root, "examples", "management.ts"), "utf8") }));
const downloads = writeDownloads(outDir, { version });
rmSync(docsDir, { recursive: true, force: true });
renameSync(outDir, docsDir);
const kB = (bytes) => `${Math.round(bytes / 1024)} kB`;
console.log(
  `docs: wrote build/docs/{index,playground,${apis.join(",")}}.html, the playground's script (${kB(playground["playground.js"])}) and styles, build/docs/openapi/, and build/docs/downloads/ (${downloads.map(({ name, size }) => `${name} ${kB(size)}`).join(", ")}) (ingestion-api ${version})`,
);
