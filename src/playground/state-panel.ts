// The State pane: the page's sandbox's data as `GET /_sandbox/state` answers it, and the Reset button that brings
// its seed back.
import { element, json } from "./markup.js";

export interface StatePanel {
  show(state: unknown): void;
}

/** Wires Reset to `reset`, which says what it did and shows the state again. */
export function createStatePanel({ reset }: { reset: () => void }): StatePanel {
  const view = element("state-view");
  element<HTMLButtonElement>("reset").addEventListener("click", reset);
  return {
    show(state) {
      view.textContent = json(state);
    },
  };
}
