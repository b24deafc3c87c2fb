// How one call is sent, named for its errors, hooks and log lines: the one place a call's policy is made.
import { checkedCount, maxTimeoutMs, type RequestOptions } from "./client-options.js";
import type { CallName } from "./errors.js";

/** How one call is sent: named for errors, hooks and log lines, with its timeout and retries. */
export interface CallPolicy extends CallName {
  timeoutMs: number;
  maxRetries: number;
}

/** What a client does for a call that says nothing of its own. */
export interface PolicyDefaults {
  timeoutMs: number;
  maxRetries: number;
}

/**
 * The policy of the calls `name` names: the client's timeout and retries, over which a call's own options win
 * (checked here, named by the call). An operation's policy is made once, without options, and a call that
 * overrides nothing is sent with it as it is: no object is made per call.
 */
export function callPolicy({ label, operationId }: CallName, defaults: PolicyDefaults, options?: RequestOptions): CallPolicy {
  const { timeoutMs, maxRetries } = defaults;
  return {
    label,
    operationId,
    timeoutMs: options?.timeoutMs === undefined ? timeoutMs : checkedCount(label, "timeoutMs", options.timeoutMs, 1, maxTimeoutMs),
    maxRetries: options?.maxRetries === undefined ? maxRetries : checkedCount(label, "maxRetries", options.maxRetries, 0, 100),
  };
}

/** An operation's policy for one call: `policy` itself when the call overrides nothing. */
export function policyForCall(policy: CallPolicy, options: RequestOptions): CallPolicy {
  if (options.timeoutMs === undefined && options.maxRetries === undefined) return policy;
  return callPolicy(policy, policy, options);
}
