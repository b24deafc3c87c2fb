// The `unit` project's setup file: a unit test opens no socket and starts no process, so that `npm run test:unit`
// answers in seconds and never waits on a server. A test that tries fails at once, naming what it tried, and belongs
// in another project of vitest.config.ts.
import childProcess from "node:child_process";
import { syncBuiltinESMExports } from "node:module";
import net from "node:net";

function refuse(what: string): never {
  throw new Error(`a unit test must not ${what}: list this file in another project of vitest.config.ts`);
}

for (const name of ["spawn", "spawnSync", "fork", "exec", "execSync", "execFile", "execFileSync"] as const) {
  Object.defineProperty(childProcess, name, { value: () => refuse(`start a process (child_process.${name})`), configurable: true, writable: true });
}
net.Server.prototype.listen = () => refuse("listen on a socket (a server belongs in the integration project)");
net.Socket.prototype.connect = () => refuse("connect a socket (fetch, http or a server's client)");
// `import { spawn } from "node:child_process"` reads the module's ESM bindings, which follow the CommonJS object only
// once synced.
syncBuiltinESMExports();
