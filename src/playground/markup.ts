// The page's markup (scripts/lib/playground-page.mjs) as the script finds it, each element by its id, and the
// blocks the panes are made of.
export const element = <T extends HTMLElement = HTMLElement>(id: string) => document.getElementById(id) as T;

/** A block of text: a heading, a paragraph, or a `<pre>` the keyboard can reach. */
export const block = (tag: string, text: string, className?: string) =>
  Object.assign(document.createElement(tag), {
    textContent: text,
    ...(className && { className }),
    // A block of code may scroll sideways: a keyboard reaches it to scroll it (WCAG 2.1.1).
    ...(tag === "pre" && { tabIndex: 0 }),
  });

/** A value as the panes show JSON: indented by two. */
export const json = (value: unknown) => JSON.stringify(value, null, 2);
