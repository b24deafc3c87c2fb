// A reference page's operations as plain HTML, put into the page after Redoc's server-rendered intro: what a text
// browser, a browser with scripts off or a search index that runs no script reads. A browser that runs scripts hides
// it at once (its first child is the script that does), so those readers see Redoc's page exactly as before.

import { operationsOf, resolveRef } from "../../src/contract/openapi.js";
import { playgroundAddress } from "../../src/playground/address.js";
import { escapeHtml } from "./html.mjs";

const code = (value) => `<code>${escapeHtml(typeof value === "string" ? value : JSON.stringify(value))}</code>`;

/** Markdown kept as text, with only what reads badly raw rendered: paragraphs and code spans. */
function prose(markdown) {
  if (!markdown) return "";
  return markdown
    .trim()
    .split(/\n\s*\n/)
    .map((paragraph) => `<p>${escapeHtml(paragraph).replace(/`([^`]+)`/g, "<code>$1</code>")}</p>`)
    .join("");
}

/**
 * Redoc's address of an operation, `#/<tag>/<operationid>` (the tag in lower case, its spaces as hyphens; the
 * operationId in lower case), as its navigation links to it once its script runs.
 */
export const redocRoute = ({ operation, operationId }) => `${tagRoute(operation.tags?.[0] ?? "")}/${operationId.toLowerCase()}`;

/** Redoc's address of a tag's section, `#/<tag>`, as its navigation links to it. */
const tagRoute = (tag) => `#/${tag.toLowerCase().replace(/\s+/g, "-")}`;

const schemaPrefix = "#/components/schemas/";
const responsePrefix = "#/components/responses/";
const nameOf = (ref, prefix) => (ref?.startsWith(prefix) ? ref.slice(prefix.length) : undefined);

/** An object, or a choice between objects: what is shown once under its own name and linked to elsewhere. */
function isStructured(bundle, schema) {
  const choices = [...(schema.oneOf ?? []), ...(schema.anyOf ?? [])];
  return Boolean(schema.properties || schema.allOf || choices.some((choice) => isStructured(bundle, resolveRef(bundle, choice))));
}

/** The keywords that bound or mark a value, in words, each with its value as the bundle states it. */
function constraints(schema) {
  const words = [
    ["minimum", "minimum"],
    ["exclusiveMinimum", "exclusive minimum"],
    ["maximum", "maximum"],
    ["exclusiveMaximum", "exclusive maximum"],
    ["minLength", "min length"],
    ["maxLength", "max length"],
    ["minItems", "min items"],
    ["maxItems", "max items"],
    ["uniqueItems", "unique items"],
  ];
  const parts = words.filter(([keyword]) => schema[keyword] !== undefined).map(([keyword, word]) => `${word} ${escapeHtml(schema[keyword])}`);
  if (schema.pattern !== undefined) parts.push(`pattern ${code(schema.pattern)}`);
  if (schema.enum) parts.push(`one of ${schema.enum.map(code).join(", ")}`);
  if (schema.const !== undefined) parts.push(`always ${code(schema.const)}`);
  if (schema.default !== undefined) parts.push(`default ${code(schema.default)}`);
  if (schema.additionalProperties === false) parts.push("no other fields");
  if (schema.deprecated) parts.push("deprecated");
  return parts;
}

/**
 * A schema as `{ line, block }`: one line of inline HTML (type, format, bounds) and the block under it (fields,
 * choices). A named object met below the top is a link to its own section, recorded in `linked`; `expand` shows a
 * named one in place (the top of a body or a response, and the choices there).
 */
function describe(bundle, node, linked, expand = false) {
  const name = nameOf(node?.$ref, schemaPrefix);
  const schema = resolveRef(bundle, node) ?? {};
  if (name && !expand && isStructured(bundle, schema)) {
    linked.add(name);
    return { line: `<a href="#schema-${escapeHtml(name)}">${escapeHtml(name)}</a>`, block: "", link: true };
  }
  const types = [schema.type].flat().filter(Boolean);
  const parts = [];
  let block = "";
  if (types.includes("array")) {
    const items = describe(bundle, schema.items ?? {}, linked);
    parts.push([...types.filter((type) => type !== "array"), `array of ${items.line || "any value"}`].join(" or "));
    block += items.block;
  } else if (types.length > 0) parts.push(types.join(" or "));
  if (schema.format) parts.push(escapeHtml(schema.format));
  parts.push(...constraints(schema));
  for (const keyword of ["oneOf", "anyOf", "allOf"]) {
    if (!schema[keyword]) continue;
    const choices = schema[keyword].map((choice) => ({ choice, ...describe(bundle, choice, linked, expand) }));
    const simple = keyword !== "allOf" && choices.every((choice) => !choice.block);
    const joiner = keyword === "allOf" ? "all of" : keyword === "oneOf" ? "exactly one of" : "any of";
    if (simple) {
      parts.push(choices.map((choice) => choice.line || "any value").join("; or "));
      continue;
    }
    const { propertyName, mapping = {} } = schema.discriminator ?? {};
    const discriminatorValue = (choice) => Object.entries(mapping).find(([, ref]) => ref === choice.$ref)?.[0];
    parts.push(propertyName ? `${joiner}, chosen by ${code(propertyName)}` : joiner);
    const items = choices.map(({ choice, line, block: inner }) => {
      const title = nameOf(choice.$ref, schemaPrefix);
      const value = discriminatorValue(choice);
      const heading = [value && `${code(propertyName)} ${code(value)}`, title && escapeHtml(title)].filter(Boolean).join(": ");
      return `<li>${heading ? `${heading}: ` : ""}${line}${inner}</li>`;
    });
    block += `<ul>${items.join("")}</ul>`;
  }
  if (schema.properties) {
    const required = new Set(schema.required ?? []);
    const fields = Object.entries(schema.properties).map(([field, property]) => {
      const { line, block: inner, link } = describe(bundle, property, linked);
      // A linked schema's own description is in its section; only a description beside the $ref is the field's.
      const description = link ? property.description : resolveRef(bundle, property)?.description;
      const head = [required.has(field) ? "required" : "optional", line].filter(Boolean).join(", ");
      return `<dt>${code(field)}</dt><dd>${head}${prose(description)}${inner}</dd>`;
    });
    block = `<dl>${fields.join("")}</dl>${block}`;
  }
  return { line: parts.filter(Boolean).join(", "), block };
}

/** A named example as a caption and its value: JSON, or the text itself for a text body. */
function exampleHtml(bundle, key, example, tryIt) {
  const { summary, value } = resolveRef(bundle, example);
  const shown = typeof value === "string" ? value : JSON.stringify(value, null, 2);
  const link = tryIt ? ` <a href="${escapeHtml(tryIt)}">Try this example in the playground</a>` : "";
  return `<p>Example ${code(key)}${summary ? `: ${escapeHtml(summary)}` : ""}.${link}</p><pre><code>${escapeHtml(shown)}</code></pre>`;
}

/** Each media type of a body or response: its schema and its named examples. */
function contentHtml(bundle, content, linked, tryIt) {
  return Object.entries(content ?? {})
    .map(([mediaType, media]) => {
      const { line, block } = describe(bundle, media.schema ?? {}, linked, true);
      const schema = resolveRef(bundle, media.schema) ?? {};
      const examples = Object.entries(media.examples ?? {}).map(([key, example]) => exampleHtml(bundle, key, example, tryIt?.(key)));
      if (media.example !== undefined) examples.push(`<pre><code>${escapeHtml(JSON.stringify(media.example, null, 2))}</code></pre>`);
      return `<p>${code(mediaType)}${line ? `: ${line}` : ""}</p>${prose(schema.description)}${block}${examples.join("")}`;
    })
    .join("");
}

function headersHtml(bundle, headers, linked) {
  const entries = Object.entries(headers ?? {}).map(([name, header]) => {
    const resolved = resolveRef(bundle, header);
    const { line } = describe(bundle, resolved.schema ?? {}, linked);
    return `<dt>${code(name)}</dt><dd>${resolved.required ? "required" : "optional"}, ${line}${prose(resolved.description)}</dd>`;
  });
  return entries.length > 0 ? `<p>Headers:</p><dl>${entries.join("")}</dl>` : "";
}

function responseHtml(bundle, response, linked) {
  return `${prose(response.description)}${headersHtml(bundle, response.headers, linked)}${contentHtml(bundle, response.content, linked)}`;
}

function parametersHtml(bundle, parameters, linked, tryIt) {
  if (parameters.length === 0) return "";
  const rows = parameters.map((parameter) => {
    const { line, block } = describe(bundle, parameter.schema ?? {}, linked);
    const examples = Object.entries(parameter.examples ?? {}).map(([key, example]) => {
      const { summary, value } = resolveRef(bundle, example);
      return `${code(key)}${summary ? ` (${escapeHtml(summary)})` : ""}: ${code(value)} <a href="${escapeHtml(tryIt(key))}">try it</a>`;
    });
    if (parameter.example !== undefined) examples.push(code(parameter.example));
    return `<tr><td>${code(parameter.name)}</td><td>${escapeHtml(parameter.in)}</td><td>${parameter.required ? "yes" : "no"}</td><td>${line}${block}</td><td>${prose(parameter.description)}</td><td>${examples.join("<br>")}</td></tr>`;
  });
  return `<h4>Parameters</h4><table><thead><tr><th>name</th><th>in</th><th>required</th><th>schema</th><th>description</th><th>example</th></tr></thead><tbody>${rows.join("")}</tbody></table>`;
}

function operationHtml(bundle, entry, linked, sharedResponses) {
  const { operation, operationId, method, path } = entry;
  const playground = playgroundAddress(operationId);
  const meta = [
    `${code(`${method.toUpperCase()} ${path}`)}`,
    `operation ${code(operationId)}`,
    ...(operation.tags ?? []).map((tag) => `tag ${escapeHtml(tag)}`),
  ];
  if (operation.deprecated) meta.push("deprecated");
  // Redoc's own address of the operation lands here too when no script runs (copied from a page where one did).
  let html = `<section id="${escapeHtml(operationId)}"><span id="${escapeHtml(redocRoute(entry).slice(1))}"></span><h3>${escapeHtml(operation.summary ?? operationId)}</h3><p>${meta.join(" · ")} · <a href="${playground}">Try it in the playground</a></p>${prose(operation.description)}`;
  const tryIt = (key) => playgroundAddress(operationId, key);
  html += parametersHtml(bundle, entry.parameters, linked, tryIt);
  if (operation.requestBody) {
    const body = resolveRef(bundle, operation.requestBody);
    html += `<h4>Request body${body.required ? " (required)" : ""}</h4>${prose(body.description)}${contentHtml(bundle, body.content, linked, tryIt)}`;
  }
  html += "<h4>Responses</h4>";
  for (const [status, response] of Object.entries(operation.responses ?? {})) {
    const shared = nameOf(response.$ref, responsePrefix);
    if (shared) {
      sharedResponses.add(shared);
      html += `<h5>${code(status)} <a href="#response-${escapeHtml(shared)}">${escapeHtml(shared)}</a></h5>`;
    } else html += `<h5>${code(status)}</h5>${responseHtml(bundle, response, linked)}`;
  }
  return `${html}</section>`;
}

/**
 * Every operation of `bundle` as an HTML fragment: method, path, id, summary, description, parameters, the request
 * body's and every response's fields with their types, bounds and enums, and every named example; then the shared
 * responses and the named schemas the operations link to, each once. Each operation's section has its operationId
 * as id and links to the playground.
 */
export function staticReference(bundle) {
  const linked = new Set();
  const sharedResponses = new Set();
  const entries = operationsOf(bundle);
  const index = entries.map(
    ({ operationId, operation, method, path }) =>
      `<li><a href="#${escapeHtml(operationId)}">${escapeHtml(operation.summary ?? operationId)}</a> ${code(`${method.toUpperCase()} ${path}`)}</li>`,
  );
  // Grouped by their first tag, in the bundle's order of tags, as Redoc's navigation shows them: each group's heading
  // carries the tag's address (`#/services`), which the navigation links to.
  const tags = [...new Set([...(bundle.tags ?? []).map(({ name }) => name), ...entries.flatMap(({ operation }) => operation.tags?.[0] ?? [])])];
  const operations = [...tags, undefined].flatMap((tag) => {
    const grouped = entries.filter(({ operation }) => operation.tags?.[0] === tag);
    if (grouped.length === 0) return [];
    const about = bundle.tags?.find(({ name }) => name === tag)?.description;
    const heading = tag === undefined ? "" : `<h2 id="${escapeHtml(tagRoute(tag).slice(1))}">${escapeHtml(tag)}</h2>${prose(about)}`;
    return [heading, ...grouped.map((entry) => operationHtml(bundle, entry, linked, sharedResponses))];
  });
  const responses = Object.entries(bundle.components?.responses ?? {})
    .filter(([name]) => sharedResponses.has(name))
    .map(([name, response]) => `<section id="response-${escapeHtml(name)}"><h3>${escapeHtml(name)}</h3>${responseHtml(bundle, response, linked)}</section>`);
  // Showing a schema may link to others: show each named schema once, until none is left unshown.
  const schemas = new Map();
  for (let pending = [...linked]; pending.length > 0; pending = [...linked].filter((name) => !schemas.has(name))) {
    for (const name of pending) {
      const { line, block } = describe(bundle, { $ref: `${schemaPrefix}${name}` }, linked, true);
      const { description } = resolveRef(bundle, { $ref: `${schemaPrefix}${name}` });
      schemas.set(name, `<section id="schema-${escapeHtml(name)}"><h3>${escapeHtml(name)}</h3><p>${line}</p>${prose(description)}${block}</section>`);
    }
  }
  const schemaSections = Object.keys(bundle.components?.schemas ?? {}).flatMap((name) => schemas.get(name) ?? []);
  return [
    `<h2>Operations</h2><ul>${index.join("")}</ul>`,
    ...operations,
    responses.length > 0 ? `<h2>Shared responses</h2>${responses.join("")}` : "",
    schemaSections.length > 0 ? `<h2>Schemas</h2>${schemaSections.join("")}` : "",
  ].join("\n");
}

// build-docs writes Redoc's server-rendered container, then the module script that hydrates it.
const redocContainer = '<div id="redoc">';
const redocScript = '<script type="module">';

/**
 * The page built by `redocly build-docs` with `bundle`'s static reference placed right after Redoc's container, so
 * it reads after the intro Redoc rendered on the server; its first child hides it wherever scripts run.
 */
export function withStaticReference(page, bundle) {
  const container = page.indexOf(redocContainer);
  const at = container === -1 ? -1 : page.indexOf(redocScript, container);
  if (at === -1) throw new Error("redocly build-docs changed its page: no Redoc container followed by its module script");
  const fragment = `<section id="static-reference" style="max-width:60rem;margin:0 auto;padding:0 2rem 2rem;font-family:sans-serif;line-height:1.5"><script>document.currentScript.parentElement.hidden = true;</script>\n${staticReference(bundle)}\n</section>\n`;
  // Redoc renders its navigation on the server with paths (`/services`), which lead nowhere from a new tab, a
  // copied link or file://; its script routes by fragment (`#/services`), which the page's own ids also answer.
  // A section Redoc rendered (Servers) has the id `section/servers`, where its address is `#/section/servers`: the
  // heading's own link gets that address as its name, which a fragment lands on as it does on an id. An attribute
  // Redoc's script never reads, as the links' hrefs: its hydration keeps it.
  const rendered = page
    .slice(container, at)
    .replace(/href="\/([^"#]*)"/g, 'href="#/$1"')
    .replace(/(<h2[^>]* id="(section\/[^"]+)"[^>]*>(?:(?!<\/h2>)[\s\S])*?<a )/g, '$1name="/$2" ');
  return page.slice(0, container) + rendered + fragment + routeScript(bundle) + page.slice(at);
}

/**
 * One address per operation, `#<operationId>` (the static reference's anchor, and what the playground links to):
 * this turns it (or the older `#operation/<operationId>`) into Redoc's own `#/<tag>/<operationid>`, which Redoc
 * opens; without scripts, the anchor is the static reference's section. It runs before Redoc's script starts, and
 * again on each change of the fragment (one typed in the address bar), ahead of Redoc's own listeners, which are
 * added after it.
 */
function routeScript(bundle) {
  const routes = Object.fromEntries(operationsOf(bundle).map((entry) => [entry.operationId, redocRoute(entry)]));
  return `<script>(() => {
  const routes = ${JSON.stringify(routes)};
  const toRedoc = () => {
    const wanted = decodeURIComponent(location.hash.slice(1)).replace(/^operation[/]/, "");
    if (Object.hasOwn(routes, wanted)) history.replaceState(history.state, "", routes[wanted]);
  };
  toRedoc();
  addEventListener("popstate", toRedoc);
  addEventListener("hashchange", toRedoc);
})();</script>\n`;
}
