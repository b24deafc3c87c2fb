import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  // The examples import the package by name, as users do; here those names are the sources themselves.
  resolve: {
    alias: [
      { find: /^ingestion-api$/, replacement: fileURLToPath(new URL("src/index.ts", import.meta.url)) },
      { find: /^ingestion-api\/sandbox$/, replacement: fileURLToPath(new URL("src/sandbox/in-process.ts", import.meta.url)) },
      { find: /^ingestion-api\/redis$/, replacement: fileURLToPath(new URL("src/redis.ts", import.meta.url)) },
    ],
  },
  test: {
    include: ["test/**/*.test.ts"],
    // Starts the Prism mock servers once for the whole run; see the module for details.
    globalSetup: ["test/prism-servers.ts"],
    // Requests go to local Prism processes that can be slow on a busy 2-core machine.
    testTimeout: 20_000,
  },
});
