// What every SDK method returns: awaited, the resource; withResponse(), the resource with its Response and request
// id; a failure rejects whichever of them the caller uses, once, and never reaches the process unhandled.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiPromise } from "../../src/client/api-promise.js";

const response = new Response("{}");
const succeeded = () => new ApiPromise(Promise.resolve({ data: { id: 1 }, response, requestId: "r-1" }));
const failure = new Error("refused");
const failed = () => new ApiPromise<{ id: number }>(Promise.resolve({ failure }));

const unhandled: unknown[] = [];
const record = (reason: unknown) => unhandled.push(reason);
beforeAll(() => {
  process.on("unhandledRejection", record);
});
afterAll(async () => {
  await new Promise((resolve) => setTimeout(resolve, 50));
  process.off("unhandledRejection", record);
  expect(unhandled).toEqual([]);
});

describe("a call that succeeded", () => {
  it("awaits to its resource", async () => {
    expect(await succeeded()).toEqual({ id: 1 });
  });

  it("gives the resource with its Response and request id", async () => {
    expect(await succeeded().withResponse()).toEqual({ data: { id: 1 }, response, requestId: "r-1" });
  });

  it("chains then, catch and finally as a promise does", async () => {
    const call = succeeded();
    expect(await call.then((data) => data.id + 1)).toBe(2);
    expect(await call.catch(() => "not called")).toEqual({ id: 1 });
    let ran = false;
    expect(
      await call.finally(() => {
        ran = true;
      }),
    ).toEqual({ id: 1 });
    expect(ran).toBe(true);
  });

  it("reads its outcome once, however often it is awaited", async () => {
    let reads = 0;
    const outcome = { data: 1, response, requestId: undefined };
    const call = new ApiPromise(
      Promise.resolve().then(() => {
        reads++;
        return outcome;
      }),
    );
    expect([await call, await call, await call.then((x) => x)]).toEqual([1, 1, 1]);
    expect(reads).toBe(1);
  });

  it("calls itself an ApiPromise", () => {
    expect(Object.prototype.toString.call(succeeded())).toBe("[object ApiPromise]");
  });
});

describe("a call that failed", () => {
  it("rejects an await with the failure itself", async () => {
    await expect(failed()).rejects.toBe(failure);
  });

  it("rejects withResponse() with the failure, and leaves no other rejection unhandled", async () => {
    await expect(failed().withResponse()).rejects.toBe(failure);
  });

  it("reaches then's second argument, catch, and finally's rejection", async () => {
    expect(
      await failed().then(
        () => "resolved",
        (reason) => reason,
      ),
    ).toBe(failure);
    expect(await failed().catch((reason) => reason)).toBe(failure);
    let ran = false;
    await expect(
      failed().finally(() => {
        ran = true;
      }),
    ).rejects.toBe(failure);
    expect(ran).toBe(true);
  });

  it("passes over handlers that are no functions, as a promise does", async () => {
    await expect(failed().then(null, {} as never)).rejects.toBe(failure);
    expect(await succeeded().then({} as never)).toEqual({ id: 1 });
    await expect(failed().finally({} as never)).rejects.toBe(failure);
  });

  it("runs its handlers in the order they were given, whichever method gave them, as a promise does", async () => {
    const order: string[] = [];
    const call = failed();
    const settled = [call.finally(() => order.push("finally")), call.then(undefined, () => order.push("then")), call.catch(() => order.push("catch"))];
    await Promise.allSettled(settled);
    expect(order).toEqual(["finally", "then", "catch"]);
  });

  it("waits for finally's callback, and rejects with what it throws", async () => {
    const thrown = new Error("in finally");
    await expect(
      succeeded().finally(() => {
        throw thrown;
      }),
    ).rejects.toBe(thrown);
    let later = false;
    const waited = succeeded().finally(
      () =>
        new Promise<void>((resolve) =>
          setTimeout(() => {
            later = true;
            resolve();
          }, 10),
        ) as never,
    );
    expect(await waited).toEqual({ id: 1 });
    expect(later).toBe(true);
  });

  it("is not an unhandled rejection when nobody awaits it", async () => {
    failed();
    ApiPromise.failed(new Error("before it started"));
    await new Promise((resolve) => setTimeout(resolve, 10));
  });

  it("ApiPromise.failed rejects with what it was given", async () => {
    const reason = new Error("bad arguments");
    await expect(ApiPromise.failed(reason)).rejects.toBe(reason);
    await expect(ApiPromise.failed(reason).withResponse()).rejects.toBe(reason);
  });
});
