// The Failures and options panel: the answer asked of the sandbox (its own, or a failure the operation declares),
// the sandbox's rate limit, how many calls go at once, and the SDK options the reader sets.
import type { RateLimit } from "../client/rate-limit.js";
import { element } from "./markup.js";
import type { PlaygroundOperation } from "./operations.js";
import type { ClientSettings, Target } from "./session.js";

// The sandbox limits the reader may turn on: one strict enough to see a 429 after two calls, and the contract's.
const sandboxLimits: Record<string, RateLimit | undefined> = {
  off: undefined,
  strict: { requests: 2, intervalMs: 10_000 },
  contract: { requests: 10, intervalMs: 10_000 },
};

/** The most calls the reader may send at once. */
const maxCallsAtOnce = 20;

export interface OptionsPanel {
  /** Lists `operation`'s declared failures to ask of the sandbox, the sandbox's own answer first. */
  showFailures(operation: PlaygroundOperation): void;
  /** The status asked of the sandbox, if one is. */
  failure(): number | undefined;
  /** The `Prefer` header that asks for it, if one is. */
  prefer(): string | undefined;
  /** How many calls go at once, from 1 to 20. */
  callsAtOnce(): number;
  /** The SDK options as set, for calls to `target`. */
  settings(target: Target): ClientSettings;
}

/** A failure as the picker names it: its code, how the operation declares it, and the header that asks for it. */
export function failureLabel({ code, declared }: PlaygroundOperation["failures"][number]): string {
  return `${code}, ${declared === String(code) ? "as declared" : `declared as ${declared}`} (Prefer: code=${code})`;
}

/** A number field's whole value, bounded; 0 (or `minimum`) for what is not a number. */
export function wholeNumber(text: string, minimum: number, maximum = Number.POSITIVE_INFINITY): number {
  return Math.min(maximum, Math.max(minimum, Math.trunc(Number(text) || 0)));
}

/** `limitChanged` is told when the reader picks another sandbox rate limit. */
export function createOptionsPanel({ limitChanged }: { limitChanged: (limit: RateLimit | undefined) => void }): OptionsPanel {
  const answerPicker = element<HTMLSelectElement>("answer");
  const limitPicker = element<HTMLSelectElement>("sandbox-limit");
  const times = element<HTMLInputElement>("times");
  const paced = element<HTMLInputElement>("paced");
  const maxRetries = element<HTMLInputElement>("max-retries");
  const maxWait = element<HTMLInputElement>("max-wait");
  limitPicker.addEventListener("change", () => limitChanged(sandboxLimits[limitPicker.value]));
  const failure = () => (answerPicker.value === "" ? undefined : Number(answerPicker.value));
  return {
    showFailures(operation) {
      answerPicker.replaceChildren(
        new Option("the sandbox's own answer", ""),
        ...operation.failures.map((declared) => new Option(failureLabel(declared), String(declared.code))),
      );
    },
    failure,
    prefer: () => {
      const code = failure();
      return code === undefined ? undefined : `code=${code}`;
    },
    callsAtOnce: () => wholeNumber(times.value, 1, maxCallsAtOnce),
    settings: (target) => ({
      target,
      paced: paced.checked,
      maxRetries: wholeNumber(maxRetries.value, 0),
      maxRateLimitWaitMs: wholeNumber(maxWait.value, 0),
    }),
  };
}
