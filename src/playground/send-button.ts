// The Send button, which is Cancel while calls run: pressing it then aborts them through their signal. Not
// `disabled` while busy: a disabled button loses the keyboard's focus.
import { element } from "./markup.js";
import { cancelReason } from "./result-view.js";

export interface SendButton {
  /** The calls' controller while they run, else undefined. */
  readonly running: AbortController | undefined;
  /** Calls start: the button is Cancel, aborting through the controller returned. */
  started(): AbortController;
  /** The calls are over: the button is Send again. */
  finished(): void;
  /** Aborts the calls running, with the reason the page gives for a reader's Cancel. */
  cancel(): void;
}

export function createSendButton(): SendButton {
  const button = element<HTMLButtonElement>("send");
  let running: AbortController | undefined;
  const show = (next: AbortController | undefined) => {
    running = next;
    button.textContent = next ? "Cancel" : "Send";
    button.classList.toggle("cancel", next !== undefined);
    if (next) button.setAttribute("aria-busy", "true");
    else button.removeAttribute("aria-busy");
  };
  return {
    get running() {
      return running;
    },
    started() {
      const control = new AbortController();
      show(control);
      return control;
    },
    finished: () => show(undefined),
    cancel: () => running?.abort(cancelReason()),
  };
}
