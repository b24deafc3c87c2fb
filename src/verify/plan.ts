// What a verify run will check, before anything is sent: every check of an interface in its order, and which of
// them the mode leaves out (and why), so that the report lists every check, run or not.
import { authentication, type Check, credentialsAccepted, vectorChecks } from "./checks.js";
import { type Api, type Operation, operationsOfApi, vectorsOf } from "./contract.js";
import { flowChecks, type PipeIds } from "./flows.js";

/** What may be sent: GETs only; also POST and PUT requests the contract says are refused before any change; or anything. */
export type Mode = "read-only" | "refusals" | "writes";

/** Why a planned check is left out in a mode, or undefined when it runs. */
export function leftOut(check: Check, mode: Mode): string | undefined {
  if (mode === "read-only" && check.posts) return "they send a POST or PUT, which --read-only leaves out";
  if (mode !== "writes" && check.writes) return "they need --allow-writes: a valid POST or PUT, or a flow";
  return undefined;
}

/**
 * Every check of an interface, in order: the credentials first, then the vectors, authentication, the flows. The
 * credentials check reads with a GET of `only` when it names one, so that `--only getPipe` runs getPipe's checks alone.
 */
export function plan(api: Api, pipe: PipeIds | undefined, only?: string[]): Check[] {
  const operations = operationsOfApi(api);
  const operationOf = (operationId: string) => operations.find((operation) => operation.operationId === operationId) as Operation;
  const reads = operations.filter((operation) => operation.method === "GET");
  const firstRead = (reads.find((operation) => only?.includes(operation.operationId)) ?? reads[0]) as Operation;
  const has = (operationId: string) => operations.some((operation) => operation.operationId === operationId);
  const update = has("updatePipeSettings") ? operationOf("updatePipeSettings").example.path : {};
  const pipeIds = pipe ?? { organizationId: update.organizationId ?? "", serviceId: update.serviceId ?? "", pipeId: update.pipeId ?? "" };
  const vectors = vectorsOf(api);
  const settingsPuts = vectors.flatMap((vector) =>
    vector.operation === "updatePipeSettings" && vector.part !== "response" && vector.verdict === "valid" && vector.http ? [vector.http.path] : [],
  );
  return [
    credentialsAccepted(firstRead),
    ...vectorChecks(operations, vectors),
    ...operations.flatMap(authentication),
    ...flowChecks(operationOf, has, pipeIds, settingsPuts),
  ];
}

/**
 * How many resources --allow-writes may create through each POST operation of an interface (its valid vectors and
 * its flows): the contract has no delete, so `--help` says how many stay on the server.
 */
export function createdByWrites(api: Api): Record<string, number> {
  const created: Record<string, number> = {};
  for (const check of plan(api, undefined)) {
    if (check.writes && check.operation.method === "POST") created[check.operation.operationId] = (created[check.operation.operationId] ?? 0) + 1;
  }
  return created;
}
