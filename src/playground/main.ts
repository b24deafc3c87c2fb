// The playground page: pick an operation and an example, edit the request, send it with the SDK to the sandbox in
// this page (or a server the reader chooses), and see the request as sent, each answer, what the SDK returned and
// the same call as code. The markup is scripts/lib/playground-page.mjs's; each panel is a module of its own, wired
// together here. Nothing here reaches the network unless the reader chooses a server the page may connect to.
import { renderCall } from "./call-view.js";
import { createCodePanel } from "./code-panel.js";
import { CreatedIds } from "./created-ids.js";
import { element } from "./markup.js";
import { createOperationPanel } from "./operation-panel.js";
import { createOptionsPanel } from "./options-panel.js";
import { createRequestPanel } from "./request-panel.js";
import { createSendButton } from "./send-button.js";
import { createServerChoice } from "./server-choice.js";
import { type CallRecord, PlaygroundSession } from "./session.js";
import { createStatePanel } from "./state-panel.js";

function start(): void {
  const form = element<HTMLFormElement>("call");
  // Where the calls go: its help and credentials show as the reader chooses; the code view follows it.
  const servers = createServerChoice(() => edited());
  const { target, explain } = servers;
  const options = createOptionsPanel({
    limitChanged(limit) {
      session.limitSandbox(limit);
      if (button.running && sendingToPage) renderCall([], "The calls still waiting were stopped: the sandbox was replaced by one with the new rate limit.");
      state.show(session.state);
    },
  });
  const session = new PlaygroundSession(options.settings(target()));
  const created = new CreatedIds();
  const requestPanel = createRequestPanel({ created, changed: () => edited(), submit: () => form.requestSubmit() });
  const code = createCodePanel({ changed: () => edited() });
  const button = createSendButton();
  /** Whether the calls running, if any, go to the page's own sandbox, which Reset and a new rate limit replace. */
  let sendingToPage = true;
  const state = createStatePanel({
    // The reader's choices stay (the sandbox's rate limit, the calls at once, the SDK options): only the data goes.
    reset() {
      session.reset();
      created.clear();
      // Calls to another server run on (the page's sandbox is nothing to them), and the panes stay theirs.
      if (!button.running || sendingToPage)
        renderCall([], "Reset: the sandbox holds its seed again, and the SDK nothing of the calls before; your choices stay.");
      state.show(session.state);
      operations.openAddress();
    },
  });
  const operations = createOperationPanel({
    chosen(operation, example, left) {
      // What was sent belongs to the operation it was sent by.
      if (left) renderCall([], `Nothing sent yet with ${operation.operationId}.`);
      // The failures first: filling the request writes the code, which sends the failure's Prefer header.
      options.showFailures(operation);
      requestPanel.fill(operation, example.request);
    },
  });

  /** Checks the body as the SDK will, names each field and its rule, and writes the call as code. */
  function edited(): void {
    const { operation } = operations;
    const read = requestPanel.read(operation);
    requestPanel.check(operation, read);
    code.show(operation, read, options.prefer(), target());
  }

  async function sendNow(): Promise<void> {
    if (button.running) return button.cancel();
    const control = button.started();
    try {
      // The operation sent: the reader may pick another while its calls run, whose panes then stay its own.
      const sent = operations.operation;
      const { request, notJson } = requestPanel.read(sent);
      if (notJson) {
        renderCall([], `Not sent: the body is not JSON (${notJson.message}).`);
        return;
      }
      session.configure(options.settings(target()));
      sendingToPage = target().kind === "page";
      const shown = () => operations.operation === sent;
      // Each step of each call is shown as it happens, at most once a frame.
      let frame = 0;
      const progress = (records: CallRecord[]) => {
        cancelAnimationFrame(frame);
        frame = requestAnimationFrame(() => {
          if (shown()) renderCall(records, undefined, explain);
        });
      };
      const records = await session.sendMany(sent, request, options.failure(), options.callsAtOnce(), { signal: control.signal, progress });
      cancelAnimationFrame(frame);
      // None when Reset (or a new sandbox rate limit) replaced the sandbox meanwhile: the page already says so.
      if (!records) return;
      created.remember(sent, records);
      state.show(session.state);
      if (!shown()) return;
      renderCall(records, undefined, explain);
      // The Result's heading to the top, when the Result is not all in view already: "nearest" would leave it on
      // the screen's last line, with what the SDK gave below the fold.
      const heading = element("result-title");
      const { top, bottom } = (heading.parentElement as HTMLElement).getBoundingClientRect();
      if (top < 0 || bottom > innerHeight) heading.scrollIntoView({ block: "start" });
    } finally {
      button.finished();
      // How many sends have finished, for a test (or a reader's script) to wait on.
      document.body.dataset.sends = String(Number(document.body.dataset.sends ?? 0) + 1);
    }
  }

  // The parameters and options; the pickers and the body editor say themselves when they changed.
  form.addEventListener("input", (event) => {
    const field = event.target as HTMLElement;
    if (field.id !== "operation" && field.id !== "example" && !requestPanel.holdsBody(field)) edited();
  });
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    void sendNow();
  });

  operations.openAddress();
  servers.changed();
  state.show(session.state);
  document.body.dataset.ready = "true";
}

start();
