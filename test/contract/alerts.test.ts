// Alert creation: enums, ID formats, required fields and the tile/search requirements (Prism enforces the spec).
import { describe, expect, it } from "vitest";
import { alertsPath } from "../support/paths.js";
import { send } from "../support/prism.js";

const channel = { type: "webhook", webhookId: "65f1c2d3e4b5a69788796a20" };
const tileAlert = {
  source: "tile",
  dashboardId: "65f1c2d3e4b5a69788796a10",
  tileId: "error-rate",
  threshold: 100,
  thresholdType: "above",
  interval: "5m",
  channel,
  name: "Error rate too high",
  message: "More than 100 errors in 5 minutes.",
};
const searchAlert = { source: "search", savedSearchId: "65f1c2d3e4b5a69788796a30", threshold: 1, thresholdType: "below", interval: "1h", channel };

const create = (body: unknown) => send("alerts", "POST", alertsPath, { body });

async function expectRejected(body: unknown) {
  const answer = await create(body);
  expect(answer.status).toBe(400);
  expect(answer.violations).not.toEqual([]);
}

describe.each([
  ["tile", tileAlert],
  ["search", searchAlert],
] as const)("a %s alert", (_source, alert) => {
  it("is accepted when complete", async () => {
    const answer = await create(alert);
    expect(answer.violations).toEqual([]);
    expect(answer.status).toBe(200);
  });

  it.each(Object.keys(alert).filter((f) => f !== "name" && f !== "message"))("is rejected without %s", async (field) => {
    const { [field as keyof typeof alert]: _left, ...rest } = alert;
    await expectRejected(rest);
  });

  it.each(["1m", "5m", "15m", "30m", "1h", "6h", "12h", "1d"])("accepts interval %s", async (interval) => {
    expect((await create({ ...alert, interval })).status).toBe(200);
  });

  it.each([
    ["interval", "7m"],
    ["interval", "5 m"],
    ["thresholdType", "equal"],
    ["source", "metric"],
    ["threshold", "100"],
    ["channel", { type: "email", webhookId: channel.webhookId }],
    ["channel", { type: "webhook", webhookId: "not-an-object-id" }],
    ["channel", { type: "webhook" }],
    ["channel", { ...channel, url: "https://example.com/hook" }],
    ["name", ""],
    ["name", "n".repeat(513)],
    ["message", "m".repeat(4097)],
    ["unknownField", 1],
  ])("rejects %s = %j", async (field, value) => {
    await expectRejected({ ...alert, [field]: value });
  });

  it("accepts a 512-character name and a 4096-character message", async () => {
    expect((await create({ ...alert, name: "n".repeat(512), message: "m".repeat(4096) })).status).toBe(200);
  });
});

it("rejects a tile alert without dashboardId, and one with a malformed dashboardId", async () => {
  const { dashboardId: _left, ...withoutDashboard } = tileAlert;
  await expectRejected(withoutDashboard);
  await expectRejected({ ...tileAlert, dashboardId: "65F1C2D3E4B5A69788796A10" });
});

it("rejects a tile alert with an empty tileId", async () => {
  await expectRejected({ ...tileAlert, tileId: "" });
});

it("rejects a tile alert that also names a saved search, and accepts one that sends it as null", async () => {
  await expectRejected({ ...tileAlert, savedSearchId: searchAlert.savedSearchId });
  expect((await create({ ...tileAlert, savedSearchId: null })).status).toBe(200);
});

it("rejects a search alert that also names a dashboard or a tile, and accepts them as null", async () => {
  await expectRejected({ ...searchAlert, dashboardId: tileAlert.dashboardId });
  await expectRejected({ ...searchAlert, tileId: "error-rate" });
  expect((await create({ ...searchAlert, dashboardId: null, tileId: null })).status).toBe(200);
});

it("rejects a getAlert id that is not 24 lowercase hex characters", async () => {
  const answer = await send("alerts", "GET", `${alertsPath}/not-an-id`);
  expect(answer.status).toBe(400);
});
