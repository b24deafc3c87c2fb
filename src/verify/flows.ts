// The flows `ingestion-api verify --allow-writes` runs: a write, then the reads its OpenAPI links name, whose
// answers must agree with it. The contract has no delete, so each create stays on the server; every pipe whose
// settings a write replaces gets them back at the end (settingsKept).
import { isDeepStrictEqual } from "node:util";
import { answered, type Check, type CheckOutcome, type Send } from "./checks.js";
import type { Link, Operation } from "./contract.js";
import type { Exchange, Outgoing } from "./sender.js";

/** The pipe the settings flow replaces, and whose service gets the endpoints. */
export interface PipeIds {
  organizationId: string;
  serviceId: string;
  pipeId: string;
}

type Operations = (operationId: string) => Operation;

/** The path of an operation with its parameters filled in. */
const pathOf = (operation: Operation, parameters: Record<string, string>) =>
  operation.template.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(parameters[name] ?? ""));

/** The value a link's runtime expression names: `$request.path.<name>` or `$response.body#/<pointer>`. */
function linkValue(expression: string, requestPath: Record<string, string>, responseBody: unknown): string | undefined {
  const fromPath = /^\$request\.path\.(.+)$/.exec(expression);
  if (fromPath) return requestPath[fromPath[1] as string];
  const fromBody = /^\$response\.body#(\/.*)$/.exec(expression);
  if (!fromBody) return undefined;
  const value = (fromBody[1] as string)
    .slice(1)
    .split("/")
    .reduce<unknown>(
      (at, part) => (at !== null && typeof at === "object" ? (at as Record<string, unknown>)[part.replaceAll("~1", "/").replaceAll("~0", "~")] : undefined),
      responseBody,
    );
  return typeof value === "string" ? value : undefined;
}

/** The request a link leads to from a write's request and answer, or why it cannot be made. */
function followed(link: Link, target: Operation, requestPath: Record<string, string>, answer: Exchange): Outgoing | string {
  const parameters: Record<string, string> = {};
  for (const [name, expression] of Object.entries(link.parameters ?? {})) {
    const value = linkValue(expression, requestPath, answer.json);
    if (value === undefined) return `the answer has no ${expression.replace(/^\$response\.body#/, "")} for the link to ${target.operationId}`;
    parameters[name] = value;
  }
  return { operationId: target.operationId, method: target.method, path: pathOf(target, parameters) };
}

/** A request of `operation` with a JSON body. */
const withBody = (operation: Operation, path: string, body: unknown): Outgoing => ({
  operationId: operation.operationId,
  method: operation.method,
  path,
  headers: { "content-type": "application/json" },
  body,
});

/** A write's links, from its declared 200. */
const linksOf = (operation: Operation) => operation.answer(200)?.declared.links ?? {};

/** Settings as they are in force: a setting left out and one that is null both mean the service default. */
function inForce(settings: unknown): Record<string, unknown> {
  return Object.fromEntries(Object.entries((settings ?? {}) as Record<string, unknown>).filter(([, value]) => value !== null));
}

/** The first field where two objects differ, for a reason. */
function firstDifference(expected: Record<string, unknown>, actual: Record<string, unknown>): string {
  const key = [...new Set([...Object.keys(expected), ...Object.keys(actual)])].find((name) => !isDeepStrictEqual(expected[name], actual[name])) ?? "";
  return `${key}: ${JSON.stringify(expected[key]) ?? "left out"} then ${JSON.stringify(actual[key]) ?? "left out"}`;
}

function flow(operation: Operation, name: string, rule: string, requests: number, run: (send: Send, outcome: CheckOutcome) => Promise<void>): Check {
  return {
    id: `${operation.api.name}/${operation.operationId}/flow/${name}`,
    api: operation.api,
    operation,
    kind: "flow",
    name,
    rule,
    requests,
    writes: true,
    posts: true,
    async run(send) {
      const outcome: CheckOutcome = { reasons: [], exchanges: [] };
      await run(send, outcome);
      return outcome;
    },
  };
}

/** Sends a request of `operation` and keeps its answer to judge; the answer, or undefined with a reason when it is not a 200. */
async function step(send: Send, outcome: CheckOutcome, operation: Operation, request: Outgoing): Promise<Exchange | undefined> {
  const exchange = await send(request);
  outcome.exchanges.push({ operation, exchange });
  if (exchange.status === 200 && exchange.isJson) return exchange;
  outcome.reasons.push(`${operation.operationId} ${answered(exchange, operation.api)}, where the flow needs its 200`);
  return undefined;
}

/** Each example alert is created, then read back through the link, equal (its `state` aside: the service evaluates it). */
function alertFlows(operationOf: Operations): Check[] {
  const create = operationOf("createAlert");
  return Object.entries(create.requestExamples).map(([example, body]) =>
    flow(
      create,
      `the ${example} example is created, then read back equal`,
      "getAlert answers the created alert's data (state aside)",
      2,
      async (send, outcome) => {
        const created = await step(send, outcome, create, withBody(create, create.example.url, body));
        if (!created) return;
        const links = Object.values(linksOf(create));
        if (links.length === 0) outcome.reasons.push("createAlert's 200 declares no link: nothing says how to read the alert back");
        for (const link of links) {
          const target = operationOf(link.operationId);
          const request = followed(link, target, {}, created);
          if (typeof request === "string") return void outcome.reasons.push(request);
          const read = await step(send, outcome, target, request);
          if (!read) return;
          const { state: _a, ...wrote } = (created.json as { data?: Record<string, unknown> }).data ?? {};
          const { state: _b, ...got } = (read.json as { data?: Record<string, unknown> }).data ?? {};
          if (!isDeepStrictEqual(wrote, got)) outcome.reasons.push(`${target.operationId} read back another alert: ${firstDifference(wrote, got)}`);
        }
      },
    ),
  );
}

/** Each example endpoint type is created for the pipe's service: the answer is an endpoint of that type, with what was sent. */
function endpointFlows(operationOf: Operations, pipe: PipeIds): Check[] {
  const create = operationOf("createReversePrivateEndpoint");
  return Object.entries(create.requestExamples).map(([example, body]) => {
    const sent = body as Record<string, unknown>;
    return flow(
      create,
      `a ${String(sent.type)} endpoint is created (the ${example} example)`,
      "the answer is an endpoint of the service, of the type and with the fields sent",
      1,
      async (send, outcome) => {
        const created = await step(send, outcome, create, withBody(create, pathOf(create, { ...pipe }), body));
        if (!created) return;
        const result = (created.json as { result?: Record<string, unknown> }).result ?? {};
        const expected: Record<string, unknown> = { ...sent, serviceId: pipe.serviceId };
        const differs = Object.keys(expected).find((key) => !isDeepStrictEqual(expected[key], result[key]));
        if (differs)
          outcome.reasons.push(
            `the created endpoint's ${differs} is ${JSON.stringify(result[differs]) ?? "left out"}, where ${JSON.stringify(expected[differs])} was sent`,
          );
      },
    );
  });
}

/** The pipe's settings are replaced with the first example, then read back through the links (the settings, and the pipe's `settings`). */
function settingsFlow(operationOf: Operations, pipe: PipeIds): Check {
  const update = operationOf("updatePipeSettings");
  const [example, body] = Object.entries(update.requestExamples)[0] ?? ["", {}];
  const links = Object.values(linksOf(update));
  return flow(
    update,
    `the ${example} example replaces the settings, then read back`,
    "the settings read back are the ones in force",
    1 + links.length,
    async (send, outcome) => {
      const replaced = await step(send, outcome, update, withBody(update, pathOf(update, { ...pipe }), body));
      if (!replaced) return;
      const now = inForce((replaced.json as { result?: unknown }).result);
      if (!isDeepStrictEqual(now, inForce(body)))
        outcome.reasons.push(`updatePipeSettings answered other settings than it was sent: ${firstDifference(inForce(body), now)}`);
      if (links.length === 0) outcome.reasons.push("updatePipeSettings' 200 declares no link: nothing says how to read the settings back");
      for (const link of links) {
        const target = operationOf(link.operationId);
        const request = followed(link, target, { ...pipe }, replaced);
        if (typeof request === "string") {
          outcome.reasons.push(request);
          continue;
        }
        const answer = await step(send, outcome, target, request);
        if (!answer) continue;
        const result = (answer.json as { result?: Record<string, unknown> }).result;
        const seen = inForce(target.operationId === "getPipe" ? result?.settings : result);
        if (!isDeepStrictEqual(seen, now)) outcome.reasons.push(`${target.operationId} read back other settings: ${firstDifference(now, seen)}`);
      }
    },
  );
}

/**
 * The settings of every pipe a write replaces (`paths`: the settings flow's and the valid vectors' PUTs) are read
 * before the first write and put back after the last, whatever happened between. A pipe the server does not have
 * (404) has nothing to put back.
 */
function settingsKept(operationOf: Operations, paths: string[]): Check[] {
  const update = operationOf("updatePipeSettings");
  const read = operationOf("getPipeSettings");
  const originals = new Map<string, Record<string, unknown>>();
  const kept = (name: string, rule: string, phase: "first" | "last", run: (send: Send, outcome: CheckOutcome) => Promise<void>): Check => ({
    ...flow(update, name, rule, paths.length, run),
    posts: phase === "last",
    phase,
  });
  return [
    kept("the settings of every pipe written are read first", "each pipe's settings can be read before they are replaced", "first", async (send, outcome) => {
      for (const path of paths) {
        const exchange = await send({ operationId: read.operationId, method: read.method, path });
        outcome.exchanges.push({ operation: read, exchange });
        if (exchange.status === 200 && exchange.isJson) originals.set(path, inForce((exchange.json as { result?: unknown }).result));
        else if (exchange.status !== 404) outcome.reasons.push(`${path} ${answered(exchange, read.api)}: its settings cannot be put back`);
      }
    }),
    kept("the settings of every pipe written are put back", "each pipe's settings are as they were before the writes", "last", async (send, outcome) => {
      for (const [path, original] of originals) {
        const restored = await step(send, outcome, update, withBody(update, path, original));
        const back = restored && inForce((restored.json as { result?: unknown }).result);
        if (back && !isDeepStrictEqual(back, original))
          outcome.reasons.push(`putting ${path}'s settings back answered others: ${firstDifference(original, back)}`);
      }
    }),
  ];
}

/** Every flow, for the interfaces being checked; `settingsPuts` are the paths the valid settings vectors PUT to. */
export function flowChecks(operationOf: Operations, has: (operationId: string) => boolean, pipe: PipeIds, settingsPuts: string[]): Check[] {
  const settingsPaths = () => [...new Set([pathOf(operationOf("updatePipeSettings"), { ...pipe }), ...settingsPuts])];
  return [
    ...(has("createAlert") ? alertFlows(operationOf) : []),
    ...(has("createReversePrivateEndpoint") ? endpointFlows(operationOf, pipe) : []),
    ...(has("updatePipeSettings") ? [settingsFlow(operationOf, pipe), ...settingsKept(operationOf, settingsPaths())] : []),
  ];
}
