// How the Redis store's scripts reach Redis, through stand-in clients shaped as ioredis and node-redis are: as text
// the first time a client runs each, by SHA-1 after, as text again after NOSCRIPT, and a Redis too old for them recognised on its first answer, which the
// store then stops asking, saying so once. The real redis-server's side (a flush and a restart mid-run, the bytes
// per call) is in redis-store.test.ts.
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createRedisRateLimitStore } from "../../src/redis.js";
import { minimumRedisVersion, RedisTooOldError, runScript } from "../../src/shared-store/redis-commands.js";

const script = "return redis.call('TIME')";
const sha = createHash("sha1").update(script).digest("hex");

/** A client shaped as ioredis is (it has defineCommand), answering each command as `answer` says; records them. */
function ioredisLike(answer: (command: string, first: string) => unknown) {
  const sent: string[][] = [];
  const reply = async (command: string, first: string, rest: unknown[]) => {
    sent.push([command, first, ...rest.map(String)]);
    const value = answer(command, first);
    if (value instanceof Error) throw value;
    return value;
  };
  return {
    sent,
    defineCommand() {},
    evalsha: (first: string, ...rest: unknown[]) => reply("evalsha", first, rest),
    eval: (first: string, ...rest: unknown[]) => reply("eval", first, rest),
  };
}

/** A client shaped as node-redis is (evalSha and eval take an object). */
function nodeRedisLike(answer: (command: string, first: string) => unknown) {
  const sent: { command: string; first: string; options: unknown }[] = [];
  const reply = async (command: string, first: string, options: unknown) => {
    sent.push({ command, first, options });
    const value = answer(command, first);
    if (value instanceof Error) throw value;
    return value;
  };
  return {
    sent,
    evalSha: (first: string, options: unknown) => reply("evalSha", first, options),
    eval: (first: string, options: unknown) => reply("eval", first, options),
  };
}

const noScript = new Error("NOSCRIPT No matching script. Please use EVAL.");
// What Redis 4.0 answers a script that writes after reading TIME.
const tooOld = new Error(
  "ERR Error running script (call to f_1a2b): @user_script:3: @user_script: 3: Write commands not allowed after non deterministic commands. Call redis.replicate_commands() at the start of your script in order to switch to single commands replication mode.",
);

describe("a script", () => {
  it("is sent as text the first time a client runs it, then by its SHA-1 alone: ioredis's positional arguments", async () => {
    const client = ioredisLike(() => "answer");
    await expect(runScript(client, script, ["k1", "k2"], ["a"])).resolves.toBe("answer");
    await expect(runScript(client, script, ["k1", "k2"], ["b"])).resolves.toBe("answer");
    expect(client.sent).toEqual([
      ["eval", script, "2", "k1", "k2", "a"],
      ["evalsha", sha, "2", "k1", "k2", "b"],
    ]);
  });

  it("is sent as text the first time a client runs it, then by its SHA-1 alone: node-redis's keys and arguments", async () => {
    const client = nodeRedisLike(() => "answer");
    await runScript(client, script, ["k1"], ["a", "b"]);
    await expect(runScript(client, script, ["k1"], ["a", "b"])).resolves.toBe("answer");
    expect(client.sent).toEqual([
      { command: "eval", first: script, options: { keys: ["k1"], arguments: ["a", "b"] } },
      { command: "evalSha", first: sha, options: { keys: ["k1"], arguments: ["a", "b"] } },
    ]);
  });

  it("is sent as text again once Redis answers NOSCRIPT (a restart, SCRIPT FLUSH), with the same keys and arguments", async () => {
    let flushed = false;
    const ioredis = ioredisLike((command) => (command === "evalsha" && flushed ? noScript : "loaded"));
    await runScript(ioredis, script, ["k"], ["a"]);
    flushed = true;
    await expect(runScript(ioredis, script, ["k"], ["a"])).resolves.toBe("loaded");
    expect(ioredis.sent).toEqual([
      ["eval", script, "1", "k", "a"],
      ["evalsha", sha, "1", "k", "a"],
      ["eval", script, "1", "k", "a"],
    ]);
    const nodeRedis = nodeRedisLike((command) => (command === "evalSha" ? noScript : "loaded"));
    await runScript(nodeRedis, script, ["k"], ["a"]);
    await expect(runScript(nodeRedis, script, ["k"], ["a"])).resolves.toBe("loaded");
    expect(nodeRedis.sent.map(({ command, first }) => [command, first])).toEqual([
      ["eval", script],
      ["evalSha", sha],
      ["eval", script],
    ]);
  });

  it("fails as the client does for any other error, sending nothing more", async () => {
    const refused = new Error("connect ECONNREFUSED 127.0.0.1:6379");
    const client = ioredisLike(() => refused);
    await expect(runScript(client, script, [], [])).rejects.toBe(refused);
    expect(client.sent).toHaveLength(1);
    // By its SHA-1 too: only NOSCRIPT sends the text again.
    let lost = false;
    const loaded = ioredisLike((command) => (command === "evalsha" && lost ? refused : "loaded"));
    await runScript(loaded, script, [], []);
    lost = true;
    await expect(runScript(loaded, script, [], [])).rejects.toBe(refused);
    expect(loaded.sent.map(([command]) => command)).toEqual(["eval", "evalsha"]);
  });

  it("fails with a RedisTooOldError naming the version needed when Redis cannot run it", async () => {
    for (const client of [ioredisLike(() => tooOld), nodeRedisLike(() => tooOld)]) {
      const error = (await runScript(client, script, [], []).catch((failure: unknown) => failure)) as RedisTooOldError;
      expect(error).toBeInstanceOf(RedisTooOldError);
      expect(error.message).toBe(`this Redis cannot run the store's scripts (Redis ${minimumRedisVersion} or later is needed): ${tooOld.message}`);
      // Named by its class in logs and by code that reads `name`, and the version written out, not only the constant.
      expect(error.name).toBe("RedisTooOldError");
      expect(error.message).toContain("(Redis 5.0 or later is needed)");
    }
    // A Redis without scripting at all (before 2.6).
    const ancient = await runScript(
      ioredisLike(() => new Error("ERR unknown command 'eval'")),
      script,
      [],
      [],
    ).catch((failure) => failure);
    expect(ancient).toBeInstanceOf(RedisTooOldError);
  });
});

describe("the store on a Redis too old for its scripts", () => {
  it("counts in memory from the first answer, says so in one line, and asks Redis nothing more", async () => {
    const client = ioredisLike(() => tooOld);
    const warned: string[] = [];
    const store = createRedisRateLimitStore({ client, logger: { warn: (line) => warned.push(line) } });
    const limit = { requests: 2, intervalMs: 1_000 };
    const turns = [];
    for (let call = 0; call < 3; call++) turns.push(await store.take("credential", limit));
    expect(turns.map((turn) => typeof turn)).toEqual(["string", "string", "object"]);
    expect(client.sent).toHaveLength(1);
    expect(warned).toEqual([
      `ingestion-api: the Redis rate-limit store (ingestion-api) cannot be used: this Redis cannot run the store's scripts (Redis ${minimumRedisVersion} or later is needed): ${tooOld.message}; counting each credential's sends in this process from now on`,
    ]);
  });
});
