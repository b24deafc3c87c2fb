// The playground page: pick an operation and an example, edit the request, send it with the SDK to the sandbox in
// this page, and see the request as sent, each answer, what the SDK returned and the same call as code. The markup
// is scripts/lib/playground-page.mjs's; this fills it in and runs it. Nothing here reaches the network.
import type { RateLimit } from "../client/rate-limit.js";
import { playgroundFragment } from "./address.js";
import { cancelReason, renderCall, renderState } from "./call-view.js";
import { codeSample, sampleLanguages } from "./code-samples.js";
import { CreatedIds } from "./created-ids.js";
import { element } from "./markup.js";
import { type PlaygroundOperation, playgroundOperations } from "./operations.js";
import { createRequestPanel } from "./request-panel.js";
import { createServerChoice } from "./server-choice.js";
import { type CallRecord, type ClientSettings, PlaygroundSession } from "./session.js";

/** A part of the address decoded, or as it is when it is not valid percent-encoding (`#%`). */
function decodedOrAsIs(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

// The sandbox limits the reader may turn on: one strict enough to see a 429 after two calls, and the contract's.
const sandboxLimits: Record<string, RateLimit | undefined> = {
  off: undefined,
  strict: { requests: 2, intervalMs: 10_000 },
  contract: { requests: 10, intervalMs: 10_000 },
};

/** A path as code that a narrow screen wraps after a slash, never inside a name. */
function wrappingAtSlashes(text: string): HTMLElement {
  const code = document.createElement("code");
  text.split("/").forEach((part, index) => {
    if (index > 0) code.append("/", document.createElement("wbr"));
    code.append(part);
  });
  return code;
}

function start(): void {
  const form = element<HTMLFormElement>("call");
  const operationPicker = element<HTMLSelectElement>("operation");
  const examplePicker = element<HTMLSelectElement>("example");
  const operationLine = element<HTMLElement>("operation-line");
  const answerPicker = element<HTMLSelectElement>("answer");
  const sandboxLimit = element<HTMLSelectElement>("sandbox-limit");
  const times = element<HTMLInputElement>("times");
  const paced = element<HTMLInputElement>("paced");
  const maxRetries = element<HTMLInputElement>("max-retries");
  const maxWait = element<HTMLInputElement>("max-wait");
  const send = element<HTMLButtonElement>("send");
  const language = element<HTMLSelectElement>("language");
  const code = element<HTMLElement>("code-text");
  // Where the calls go: its help and credentials show as the reader chooses; the code view follows it.
  const servers = createServerChoice(() => edited());
  const { target, explain } = servers;

  const settings = (): ClientSettings => ({
    target: target(),
    paced: paced.checked,
    maxRetries: Math.max(0, Math.trunc(Number(maxRetries.value) || 0)),
    maxRateLimitWaitMs: Math.max(0, Math.trunc(Number(maxWait.value) || 0)),
  });
  const session = new PlaygroundSession(settings());
  let operation = playgroundOperations[0] as PlaygroundOperation;
  const created = new CreatedIds();
  const requestPanel = createRequestPanel({ created, changed: () => edited(), submit: () => form.requestSubmit() });

  for (const candidate of playgroundOperations) {
    operationPicker.append(new Option(`${candidate.operationId}: ${candidate.method} ${candidate.summary}`, candidate.operationId));
  }
  for (const name of sampleLanguages) language.append(new Option(name, name));
  /** Shows `next` with its example `key` (its first when unknown), and says so in the address. */
  function choose(next: PlaygroundOperation, key: string | undefined): void {
    // What was sent belongs to the operation it was sent by.
    if (next !== operation) renderCall([], `Nothing sent yet with ${next.operationId}.`);
    operation = next;
    operationPicker.value = next.operationId;
    examplePicker.replaceChildren(...next.examples.map((example) => new Option(example.summary, example.key)));
    const example = next.examples.find((candidate) => candidate.key === key) ?? next.examples[0];
    if (!example) return;
    examplePicker.value = example.key;
    operationLine.replaceChildren(
      wrappingAtSlashes(`${next.method} ${next.path}`),
      ` ${next.summary} · `,
      Object.assign(document.createElement("a"), { href: `${next.api}.html#${next.operationId}`, textContent: "reference" }),
    );
    // The failures first: filling the request writes the code, which sends the failure's Prefer header.
    answerPicker.replaceChildren(
      new Option("the sandbox's own answer", ""),
      ...next.failures.map(
        ({ code, declared }) =>
          new Option(`${code}, ${declared === String(code) ? "as declared" : `declared as ${declared}`} (Prefer: code=${code})`, String(code)),
      ),
    );
    requestPanel.fill(next, example.request);
    const address = `#${playgroundFragment(next.operationId, example.named ? example.key : undefined)}`;
    if (location.hash !== address) history.replaceState(null, "", address);
  }

  /** Checks the body as the SDK will, names each field and its rule, and writes the call as code. */
  function edited(): void {
    const read = requestPanel.read(operation);
    requestPanel.check(operation, read);
    const { request: now, notJson } = read;
    const prefer = answerPicker.value === "" ? undefined : `code=${answerPicker.value}`;
    const chosen = target();
    const baseUrl = chosen.kind === "page" ? undefined : chosen.origin;
    code.textContent = notJson ? "(the body is not JSON)" : codeSample(operation, now, language.value as (typeof sampleLanguages)[number], { prefer, baseUrl });
  }

  // While calls run, Send is Cancel: pressing it aborts them through their signal. Not `disabled` while busy: a
  // disabled button loses the keyboard's focus.
  let running: AbortController | undefined;
  function setRunning(next: AbortController | undefined): void {
    running = next;
    send.textContent = next ? "Cancel" : "Send";
    send.classList.toggle("cancel", next !== undefined);
    if (next) send.setAttribute("aria-busy", "true");
    else send.removeAttribute("aria-busy");
  }

  async function sendNow(): Promise<void> {
    if (running) {
      running.abort(cancelReason());
      return;
    }
    const control = new AbortController();
    setRunning(control);
    try {
      const { request: now, notJson } = requestPanel.read(operation);
      if (notJson) {
        renderCall([], `Not sent: the body is not JSON (${notJson.message}).`);
        return;
      }
      session.configure(settings());
      const answer = answerPicker.value === "" ? undefined : Number(answerPicker.value);
      const count = Math.min(20, Math.max(1, Math.trunc(Number(times.value) || 1)));
      // The operation sent: the reader may pick another while its calls run, whose panes then stay its own.
      const sent = operation;
      const shown = () => operation === sent;
      // Each step of each call is shown as it happens, at most once a frame.
      let frame = 0;
      const progress = (records: CallRecord[]) => {
        cancelAnimationFrame(frame);
        frame = requestAnimationFrame(() => {
          if (shown()) renderCall(records, undefined, explain);
        });
      };
      const records = await session.sendMany(sent, now, answer, count, { signal: control.signal, progress });
      cancelAnimationFrame(frame);
      // None when Reset (or a new sandbox rate limit) replaced the sandbox meanwhile: the page already says so.
      if (!records) return;
      created.remember(sent, records);
      renderState(session.state);
      if (!shown()) return;
      renderCall(records, undefined, explain);
      element("result-title").scrollIntoView({ block: "nearest" });
    } finally {
      setRunning(undefined);
      // How many sends have finished, for a test (or a reader's script) to wait on.
      document.body.dataset.sends = String(Number(document.body.dataset.sends ?? 0) + 1);
    }
  }

  /** Opens what the address names: `#<operationId>` or `#<operationId>/<example key>`. */
  function openAddress(): void {
    const [id, key] = location.hash.slice(1).split("/").map(decodedOrAsIs);
    const named = playgroundOperations.find((candidate) => candidate.operationId === id);
    choose(named ?? operation, key);
  }

  operationPicker.addEventListener("change", () => choose(playgroundOperations.find((o) => o.operationId === operationPicker.value) ?? operation, undefined));
  examplePicker.addEventListener("change", () => choose(operation, examplePicker.value));
  // The parameters and options; the body editor says itself when it changed.
  form.addEventListener("input", (event) => {
    if (event.target !== operationPicker && event.target !== examplePicker && !requestPanel.holdsBody(event.target as Node)) edited();
  });
  language.addEventListener("change", edited);
  sandboxLimit.addEventListener("change", () => {
    session.limitSandbox(sandboxLimits[sandboxLimit.value]);
    if (running) renderCall([], "The calls still waiting were stopped: the sandbox was replaced by one with the new rate limit.");
    renderState(session.state);
  });
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    void sendNow();
  });
  // The reader's choices stay (the sandbox's rate limit, the calls at once, the SDK options): only the data goes.
  element<HTMLButtonElement>("reset").addEventListener("click", () => {
    session.reset();
    created.clear();
    renderCall([], "Reset: the sandbox holds its seed again, and the SDK nothing of the calls before; your choices stay.");
    renderState(session.state);
    openAddress();
  });
  element<HTMLButtonElement>("copy").addEventListener("click", () => void navigator.clipboard?.writeText(code.textContent ?? ""));
  window.addEventListener("hashchange", openAddress);

  openAddress();
  servers.changed();
  renderState(session.state);
  document.body.dataset.ready = "true";
}

start();
