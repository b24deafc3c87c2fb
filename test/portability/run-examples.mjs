// Runs the compiled examples (test/support/compiled-examples.ts) against the mocks with the SDK module given,
// however the runtime loaded it: ESM import, CommonJS require, a browser's import map. Resolves to the lines
// each example printed, by name; an example that throws rejects the whole run with its name.
export async function runExamples(sdk, { managementUrl, alertsUrl, organizationId }, examples) {
  globalThis.ingestionApiUnderTest = sdk;
  // The examples configure their clients from the environment, as the README shows; a browser has none.
  globalThis.process ??= { env: {} };
  Object.assign(globalThis.process.env, {
    INGESTION_API_URL: managementUrl,
    INGESTION_API_KEY_SECRET: "portability-key-secret",
    INGESTION_ORGANIZATION_ID: organizationId,
    INGESTION_ALERTS_URL: alertsUrl,
  });
  const printed = {};
  const log = console.log;
  for (const { name, url } of examples) {
    // A key and a token of each example's own, as separate users would have: the examples run one after another in
    // one process, where one credential would share one rate-limit queue and the 11th management call would wait
    // for the next 10-second window.
    Object.assign(globalThis.process.env, { INGESTION_API_KEY_ID: `portability-key-${name}`, INGESTION_ALERTS_TOKEN: `portability-token-${name}` });
    const lines = [];
    console.log = (...args) => lines.push(args.join(" "));
    try {
      await import(url);
    } catch (error) {
      throw new Error(`examples/${name}.ts failed: ${error}`);
    } finally {
      console.log = log;
    }
    printed[name] = lines;
  }
  return printed;
}
