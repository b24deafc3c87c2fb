// The Lua scripts of the Redis rate-limit store (redis-store.ts runs them, by their SHA-1): a take, a 429, an answer
// and a release, each one atomic round trip. They do what the memory store (src/client/memory-store.ts) does, rule
// for rule, on Redis's own clock (TIME). Reading TIME before writing needs Redis 5 or later (scripts are replicated
// by their effects there; older ones refuse the first write after it).
import { unlimitedWindowMs } from "../client/memory-store.js";
import { maxInFlightMs } from "../client/rate-limit.js";

// What every script starts with. KEYS[1] is the log (a sorted set of sends, each scored with when it counts until
// while in flight, its take and maxInFlightMs, then with when its answer came), KEYS[2] the pause, KEYS[3] what
// the 429s taught (a hash: requests, intervalMs, growsAt, stepWindows, limitedAt and limitedAtUs). ARGV[1] and ARGV[2] are the client's limit
// (0 and 0 without one). `budget()` is the limit a send leaves under now, and whether it is lowered.
const prelude = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local limitRequests = tonumber(ARGV[1])
local limitInterval = tonumber(ARGV[2])
local function margin(interval) return math.max(50, math.ceil(interval / 100)) end
local function budget()
  local learned = redis.call('HMGET', KEYS[3], 'requests', 'intervalMs', 'growsAt', 'stepWindows')
  local requests = tonumber(learned[1])
  if not requests then
    if limitRequests > 0 then return limitRequests, limitInterval, false end
    return nil
  end
  local interval = tonumber(learned[2])
  local growsAt = tonumber(learned[3])
  local stepMs = interval * tonumber(learned[4])
  local steps = math.max(0, math.floor((now - growsAt) / stepMs))
  if steps > 100 then steps = -1 end
  for _ = 1, steps do
    requests = requests + math.max(1, math.ceil(requests / 10))
    if limitRequests > 0 and requests >= limitRequests then steps = -1 break end
  end
  if steps < 0 then
    redis.call('HDEL', KEYS[3], 'requests', 'intervalMs', 'growsAt', 'stepWindows')
    if limitRequests > 0 then return limitRequests, limitInterval, false end
    return nil
  end
  if steps > 0 then redis.call('HSET', KEYS[3], 'requests', requests, 'growsAt', growsAt + steps * stepMs) end
  if limitRequests > 0 then return math.min(limitRequests, requests), math.max(limitInterval, interval), true end
  return requests, interval, true
end
`;

// KEYS[4] holds the stores that took a send of the credential in the last minute, by ARGV[3], each store's id: how
// many share it. A send taken is a member named by the time in microseconds, the store's id and ARGV[4], its count
// in the store: its ticket. Without a budget, a send is logged for what the next 429 teaches: the latest 10,000, for an hour at
// most. Answers {0, sharers, ticket} when the send is taken, else {1, sharers, ms} while paused, {2, sharers, ms,
// requests, intervalMs} while a lowered budget is full, and {3, sharers, ms} while the client's own limit is (a
// margin when the send to wait for is still in flight: its answer says how long).
export const takeScript = `${prelude}
redis.call('ZADD', KEYS[4], now, ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[4], '-inf', now - 60000)
redis.call('PEXPIRE', KEYS[4], 60000)
local sharers = redis.call('ZCARD', KEYS[4])
local paused = redis.call('PTTL', KEYS[2])
if paused > 0 then return {1, sharers, paused} end
local requests, interval, lowered = budget()
local member = t[1] .. string.format('%06d', tonumber(t[2])) .. ':' .. ARGV[3] .. ':' .. ARGV[4]
local inFlight = now + ${maxInFlightMs}
if not requests then
  redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - ${unlimitedWindowMs})
  redis.call('ZADD', KEYS[1], inFlight, member)
  redis.call('ZREMRANGEBYRANK', KEYS[1], 0, -10001)
  redis.call('PEXPIRE', KEYS[1], 3600000)
  return {0, sharers, member}
end
local window = interval + margin(interval)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local taken = redis.call('ZCARD', KEYS[1])
if taken < requests then
  redis.call('ZADD', KEYS[1], inFlight, member)
  if redis.call('PTTL', KEYS[1]) < ${maxInFlightMs} + window then redis.call('PEXPIRE', KEYS[1], ${maxInFlightMs} + window) end
  return {0, sharers, member}
end
local leaving = tonumber(redis.call('ZRANGE', KEYS[1], taken - requests, taken - requests, 'WITHSCORES')[2])
local waitMs = leaving + window - now
if leaving > now then waitMs = margin(interval) end
if lowered then return {2, sharers, waitMs, requests, interval} end
return {3, sharers, waitMs}`;

// A 429: ARGV[3] the pause, ARGV[4] the send's ticket, which starts with when it was taken, in microseconds, so a
// send taken in the millisecond of the last 429 but before it is told apart (another store's ticket, or none,
// counts as taken now).
export const limitedScript = `${prelude}
local waitMs = tonumber(ARGV[3])
local nowUs = tonumber(t[1]) * 1000000 + tonumber(t[2])
local takenAtUs = tonumber(string.match(ARGV[4], '^(%d+):[^:]+:%d+$')) or nowUs
if waitMs > 0 and redis.call('PTTL', KEYS[2]) < waitMs then redis.call('SET', KEYS[2], '1', 'PX', waitMs) end
local limitedAt = tonumber(redis.call('HGET', KEYS[3], 'limitedAt')) or 0
local limitedAtUs = tonumber(redis.call('HGET', KEYS[3], 'limitedAtUs')) or 0
local learned = tonumber(redis.call('HGET', KEYS[3], 'requests'))
if learned and takenAtUs < limitedAtUs then
  redis.call('HSET', KEYS[3], 'requests', math.max(1, learned - 1))
  return 0
end
redis.call('HSET', KEYS[3], 'limitedAt', now, 'limitedAtUs', nowUs)
redis.call('PEXPIRE', KEYS[3], 3600000 + waitMs)
local current, interval = budget()
local since = limitedAt
if current then since = now - interval - margin(interval) end
local count = redis.call('ZCOUNT', KEYS[1], '(' .. since, '+inf')
if count < 2 then return 0 end
if not current then
  local first = redis.call('ZRANGEBYSCORE', KEYS[1], '(' .. since, '+inf', 'WITHSCORES', 'LIMIT', 0, 1)
  interval = math.max(waitMs, now + waitMs - tonumber(first[2]))
  current = math.huge
end
local stepWindows = 1
if redis.call('HEXISTS', KEYS[3], 'requests') == 1 then stepWindows = math.min(16, 2 * tonumber(redis.call('HGET', KEYS[3], 'stepWindows'))) end
redis.call('HSET', KEYS[3], 'requests', math.min(current, count - 1), 'intervalMs', interval, 'growsAt', now + waitMs, 'stepWindows', stepWindows)
redis.call('PEXPIRE', KEYS[3], math.max(3600000, waitMs + 101 * interval * stepWindows))
return 0`;

// An answer: ARGV[3] the send's ticket. The send counts from now (unless it is gone: released, or in flight so long
// it left the log); the log is kept for a window from now at least.
export const answeredScript = `${prelude}
if not redis.call('ZSCORE', KEYS[1], ARGV[3]) then return 0 end
redis.call('ZADD', KEYS[1], now, ARGV[3])
local requests, interval = budget()
if not requests then return 1 end
local window = interval + margin(interval)
if redis.call('PTTL', KEYS[1]) < window then redis.call('PEXPIRE', KEYS[1], window) end
return 1`;

// A send that was never made: ARGV[1] its ticket, which no longer counts.
export const releaseScript = "return redis.call('ZREM', KEYS[1], ARGV[1])";
