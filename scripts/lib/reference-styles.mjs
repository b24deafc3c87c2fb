// What the docs add to each rendered reference for its readers, in the page's head. Styles over Redoc's theme:
// colours that reach WCAG AA's 4.5:1 on the
// backgrounds they are drawn on (white, and the code panels' light grey), where Redoc's light palette falls short
// (links 3.9:1, code tokens 2.6 to 4.45:1, the method badges 2.4 to 2.6:1, the search's placeholder 2.7:1). Redoc
// reads every colour from these custom properties, so setting them changes nothing else; dark mode, which Redoc
// sets with a more specific selector, keeps its own. Buttons of at least 24 px, above the code lines they sit in
// (WCAG 2.5.8). And a script that only
// sets attributes where Redoc's markup alone breaks a rule; test/docs/accessibility.test.ts fails when Redoc's
// markup changes under it.
export const referenceStyles = `<style id="ingestion-api-contrast">
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
</style>`;

/**
 * Attributes Redoc's rendering leaves out, set again whenever it renders:
 * - the sample picker is named "Example" whatever it shows ("TypeScript · Services tagged…"): its name now
 *   begins with that visible text, so a screen reader hears the language and the example (WCAG 2.5.3);
 * - a block of code that scrolls sideways gets tabindex="0", so a keyboard reaches it to scroll (WCAG 2.1.1).
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
    for (const block of document.querySelectorAll("pre:not([tabindex])")) {
      if (block.scrollWidth > block.clientWidth || block.scrollHeight > block.clientHeight) block.setAttribute("tabindex", "0");
    }
  };
  new MutationObserver(fix).observe(document.documentElement, { subtree: true, childList: true, characterData: true });
  addEventListener("DOMContentLoaded", fix);
})();
</script>`;
