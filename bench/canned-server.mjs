// A loopback server with canned answers for the benchmark, run as a child process so its work does not
// share the measured event loop. GET answers the settings envelope; PUT echoes the body inside one.
// Any other path or a request without authorization is an error, so a contender that builds the
// wrong request fails the benchmark instead of being timed.
import { createServer } from "node:http";
import { requestId, settings, settingsPath } from "./fixtures.mjs";

const jsonHeaders = { "content-type": "application/json", "x-request-id": requestId };
const settingsEnvelope = Buffer.from(JSON.stringify({ status: 200, requestId, result: settings }));
const envelopeStart = Buffer.from(`{"status":200,"requestId":"${requestId}","result":`);
const envelopeEnd = Buffer.from("}");

function answer(response, status, ...chunks) {
  const length = chunks.reduce((total, chunk) => total + chunk.length, 0);
  response.writeHead(status, { ...jsonHeaders, "content-length": length });
  for (const chunk of chunks) response.write(chunk);
  response.end();
}

const server = createServer((request, response) => {
  if (request.url !== settingsPath || !request.headers.authorization) {
    request.resume();
    return answer(response, request.headers.authorization ? 404 : 401, Buffer.from('{"status":404,"error":"not found"}'));
  }
  if (request.method === "GET") return answer(response, 200, settingsEnvelope);
  const body = [];
  request.on("data", (chunk) => body.push(chunk));
  request.on("end", () => answer(response, 200, envelopeStart, ...body, envelopeEnd));
});
// Keep-alive for the whole run: a reconnect inside a timed block would be noise, not SDK cost.
server.keepAliveTimeout = 120_000;
server.listen(0, "127.0.0.1", () => process.send({ port: server.address().port }));
// The parent owns this process: when it goes, so does the server.
process.on("disconnect", () => process.exit(0));
