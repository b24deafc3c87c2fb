// What the docs add to each rendered reference for its readers, in the page's head, over Redoc's theme:
// - colours that reach WCAG AA's 4.5:1 on the backgrounds they are drawn on (white, and the code panels' light grey),
//   where Redoc's light palette falls short (links 3.9:1, code tokens 2.6 to 4.45:1, the method badges 2.4 to 2.6:1,
//   the search's placeholder 2.7:1). Redoc reads every colour from these custom properties, so setting them changes
//   nothing else; dark mode, which Redoc sets with a more specific selector, keeps its own;
// - buttons of at least 24 px, above the code lines they sit in (WCAG 2.5.8);
// - a layout that holds from a phone (390 px) to a laptop (1280 px), where Redoc's leaves text cut or squeezed: see
//   the comments in the styles. Each rule names Redoc's components by their data-component-name, which Redoc keeps
//   across builds (its class names change with every one); test/docs/reference-layout.test.ts measures the result.
// And a script that only sets attributes where Redoc's markup alone breaks a rule; test/docs/accessibility.test.ts
// fails when Redoc's markup changes under it.
export const referenceStyles = `<style id="ingestion-api-reference-styles">
:root {
  --color-blue-6: #1f66d1;
  --color-blue-7: #2558b8;
  --color-carrot-7: #934c1a;
  --color-green-7: #136a4d;
  --color-warm-grey-5: #5f6170;
}
:root .tag-get { --tag-color: #136a4d; }
:root .tag-post { --tag-color: #2558b8; }
:root .tag-put { --tag-color: #934c1a; }
:root .tag-patch { --tag-color: #6b3fa0; }
:root .tag-delete { --tag-color: #b72111; }
[data-component-name="Button/Button"][aria-label="collapse"],
[data-component-name="Button/Button"][aria-label="expand"] { min-width: 24px; min-height: 24px; position: relative; z-index: 1; }
/* From 1280 px, where Redoc starts its three panels, its samples take half the width and the text column keeps some
   400 px: a title wrapped onto three lines. Up to 1600 px the text gets 55% and the gaps are narrower. */
@media (min-width: 1280px) and (max-width: 1599px) { :root { --panel-samples-width: 45%; --panel-gap-horizontal: 24px; } }
/* A title shares its row with Redoc's Copy button, which left it 290 px at 1280 and cut "Management" mid-word on a
   phone: the button now moves under a title too long to sit beside it. */
div:has(> div > [data-component-name="Typography/H1"]),
div:has(> div > [data-component-name="Typography/H2"]) { flex-wrap: wrap; row-gap: 8px; }
div:has(> [data-component-name="Typography/H1"]),
div:has(> [data-component-name="Typography/H2"]) { flex: 1 0 auto; max-width: 100%; }
/* The sample picker's name ("TypeScript · Services tagged Environment=Production") ran out of its panel, on one line
   that pushed the server picker beside it to nothing: each picker now takes a line of its own and wraps. */
[data-component-name="Panel/PanelHeader"]:has(> [data-component-name="Dropdown/Dropdown"]) { flex-wrap: wrap; row-gap: 4px; }
[data-component-name="Panel/PanelHeader"] > [data-component-name="Dropdown/Dropdown"] { flex-shrink: 1; min-width: 0; max-width: 100%; }
[data-component-name="Panel/PanelHeader"] > [data-component-name="Dropdown/Dropdown"] > button[aria-haspopup] { white-space: normal; text-align: start; height: auto; min-width: 0; }
/* Its list cut every name at 150 px ("TypeScript · Se…") and ran off a phone's screen: it is now as wide as the
   names need, up to the screen's width, and opens leftwards from the picker's right edge, which is on screen. */
[data-component-name="Dropdown/DropdownMenu"] { left: auto; right: 0; width: min(22rem, calc(100vw - 4rem)); max-width: none; }
[data-component-name="Dropdown/DropdownMenuItem"] { white-space: normal; max-width: none; width: auto; align-self: stretch; }
[data-component-name="Dropdown/DropdownMenuItem"] svg { flex-shrink: 0; }
[data-component-name="Dropdown/DropdownMenuItem"] span[title] { max-width: none; white-space: normal; overflow: visible; text-overflow: clip; }
/* A code block's copy and expand buttons float over its top right corner, over the end of its first line: the code
   starts below them. */
[data-component-name="CodeBlock/CodeBlockControls"] ~ [data-component-name="CodeBlock/CodeBlockContainer"] { padding-top: 36px; }
</style>`;

/**
 * Attributes Redoc's rendering leaves out, set again whenever it renders:
 * - the sample picker is named "Example" whatever it shows ("TypeScript · Services tagged…"): its name now
 *   begins with that visible text, so a screen reader hears the language and the example (WCAG 2.5.3);
 * - a block of code that scrolls sideways gets tabindex="0", so a keyboard reaches it to scroll (WCAG 2.1.1);
 * - the sidebar (the menu's highest ancestor short of the one that holds <main>) is a navigation landmark, so a
 *   screen reader can jump to it and past it;
 * - a heading that skips a level (Redoc goes from an operation's h2 to an h4) is read one level under the heading
 *   it stands under (its aria-level), so the outline a screen reader lists has no gap and keeps its order: an h5
 *   then an h4 under an h2 both read as level 3 (WCAG 1.3.1).
 */
export const referenceFixes = `<script id="ingestion-api-accessibility">
(() => {
  const fix = () => {
    // Redoc sets the name once and changes only the text as the reader picks another sample: named again each time.
    for (const picker of document.querySelectorAll('button[aria-haspopup][aria-label="Example"], button[data-named-by-docs]')) {
      const name = picker.textContent.trim() + " (example)";
      picker.dataset.namedByDocs = "";
      if (picker.getAttribute("aria-label") !== name) picker.setAttribute("aria-label", name);
    }
    // Only once Redoc has rendered its <main> too: without it the climb would reach the page's root.
    const menu = document.querySelector("main") && document.querySelector('[data-component-name="Menu/Menu"]');
    let sidebar = menu;
    while (sidebar?.parentElement && !sidebar.parentElement.querySelector("main")) sidebar = sidebar.parentElement;
    if (sidebar && sidebar.getAttribute("role") !== "navigation") {
      sidebar.setAttribute("role", "navigation");
      sidebar.setAttribute("aria-label", "Reference");
    }
    // The headings a screen reader lists, each under the nearest before it of a lower level of its own.
    const under = [];
    for (const heading of document.querySelectorAll("h1, h2, h3, h4, h5, h6")) {
      // checkVisibility: Chrome 121, Firefox 125, Safari 17.4; before them, whether it takes up room at all.
      const shown = heading.checkVisibility?.({ visibilityProperty: true }) ?? heading.getClientRects().length > 0;
      if (!shown || heading.closest("[aria-hidden=true]")) continue;
      // Its own level, as Redoc made it: kept aside the first time, since aria-level is what it is read as after.
      const own = Number(heading.dataset.ownLevel ?? heading.tagName.slice(1));
      while (under.length > 0 && under.at(-1).own >= own) under.pop();
      const parent = under.at(-1);
      const level = parent ? Math.min(own, parent.level + 1) : own;
      if (level !== own) {
        heading.dataset.ownLevel = String(own);
        if (heading.getAttribute("aria-level") !== String(level)) heading.setAttribute("aria-level", String(level));
      } else if (heading.dataset.ownLevel !== undefined) {
        heading.removeAttribute("aria-level");
      }
      under.push({ own, level });
    }
    for (const block of document.querySelectorAll("pre:not([tabindex])")) {
      if (block.scrollWidth > block.clientWidth || block.scrollHeight > block.clientHeight) block.setAttribute("tabindex", "0");
    }
  };
  new MutationObserver(fix).observe(document.documentElement, { subtree: true, childList: true, characterData: true });
  addEventListener("DOMContentLoaded", fix);
})();
</script>`;
