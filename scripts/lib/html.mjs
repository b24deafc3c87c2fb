// What the pages the docs build writes by hand share: text made safe for HTML, and the start of a page that loads
// nothing (no favicon request either).

/** Text (or a number) as HTML text or an attribute value. */
export const escapeHtml = (text) => String(text).replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;");

/** A page's doctype, language and the head lines every page has, up to and with its title; the caller closes the head. */
export const pageStart = (title) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<link rel="icon" href="data:,">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>`;
