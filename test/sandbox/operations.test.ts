// The sandbox's operations over its data, called as the engine calls them once a request is authenticated and
// valid: which unknown id gives which 404, what the service filter keeps, and that a create stores what it answers.
import { describe, expect, it } from "vitest";
import { handlers } from "../../src/sandbox/operations.js";
import { exampleSeed, type SandboxData } from "../../src/sandbox/seed.js";
import { operation } from "../support/operations.js";
import { organizationId, pipe } from "../support/sdk-fixtures.js";

const unknownUuid = "0e0e0e0e-0e0e-4e0e-8e0e-0e0e0e0e0e0e";
const request = (path: Record<string, string>, query: Record<string, string[]> = {}, body?: unknown) => ({ path, query, body });

describe("an unknown id in the path", () => {
  it("answers an unknown organization with 404 Organization not found, even beside a known service", () => {
    const data = exampleSeed();
    expect(handlers.getPipe(data, request({ ...pipe, organizationId: unknownUuid }))).toMatchObject({
      status: 404,
      body: { error: "Organization not found" },
    });
    expect(handlers.listServices(data, request({ organizationId: unknownUuid }))).toMatchObject({ status: 404, body: { error: "Organization not found" } });
  });

  it("answers an unknown service of a known organization with 404 Service not found", () => {
    expect(handlers.getPipe(exampleSeed(), request({ ...pipe, serviceId: unknownUuid }))).toMatchObject({
      status: 404,
      body: { error: "Service not found" },
    });
  });

  it("answers an unknown pipe of a known service with 404 Pipe not found", () => {
    expect(handlers.getPipe(exampleSeed(), request({ ...pipe, pipeId: unknownUuid }))).toMatchObject({ status: 404, body: { error: "Pipe not found" } });
  });
});

describe("getPipe", () => {
  it("answers a seeded pipe that carries a field named status (the contract allows more fields) as that pipe", () => {
    const data = exampleSeed();
    const seeded = data.pipes.find(({ id }) => id === pipe.pipeId) as SandboxData["pipes"][number] & { status?: string };
    seeded.status = "Running";
    expect(handlers.getPipe(data, request(pipe))).toMatchObject({ status: 200, body: { result: { id: pipe.pipeId, status: "Running" } } });
  });
});

describe("listServices' filter", () => {
  // The organization's two services, tagged so that each filter keeps a different set.
  const tagged = (): SandboxData => {
    const data = exampleSeed();
    const [production, staging] = data.services;
    if (!production || !staging) throw new Error("the examples seed fewer than two services");
    production.tags = { Environment: "Production", isActive: "true" };
    staging.tags = { Environment: "Staging" };
    return data;
  };
  const listed = (filter?: string[]) => {
    const data = tagged();
    const answer = handlers.listServices(data, request({ organizationId }, filter ? { filter } : {}));
    const names = new Map(data.services.map(({ service, tags }) => [service.id, tags.Environment]));
    return (answer.body as { result: { id: string }[] }).result.map(({ id }) => names.get(id));
  };

  it("lists every service of the organization when there is none", () => {
    expect(listed()).toEqual(["Production", "Staging"]);
  });

  it("keeps the services that have a tag: tag:<key>", () => {
    expect(listed(["tag:Environment"])).toEqual(["Production", "Staging"]);
    expect(listed(["tag:isActive"])).toEqual(["Production"]);
    expect(listed(["tag:Owner"])).toEqual([]);
  });

  it("keeps the services whose tag has a value: tag:<key>=<value>", () => {
    expect(listed(["tag:Environment=Staging"])).toEqual(["Staging"]);
    expect(listed(["tag:Environment=Prod"])).toEqual([]);
    expect(listed(["tag:Owner=Production"])).toEqual([]);
  });

  it("keeps, of several filters, the services that match every one", () => {
    expect(listed(["tag:Environment", "tag:isActive"])).toEqual(["Production"]);
  });
});

describe("createReversePrivateEndpoint", () => {
  it("stores the endpoint it answers with", () => {
    const data = exampleSeed();
    const create = operation("createReversePrivateEndpoint");
    const answer = handlers.createReversePrivateEndpoint(data, request(create.example.path, {}, create.example.body));
    const created = (answer.body as { result: { id: string } }).result;
    expect(data.reversePrivateEndpoints).toContainEqual(created);
  });
});
