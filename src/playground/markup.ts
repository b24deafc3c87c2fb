// The page's markup (scripts/lib/playground-page.mjs) as the script finds it: each element by its id.
export const element = <T extends HTMLElement = HTMLElement>(id: string) => document.getElementById(id) as T;
