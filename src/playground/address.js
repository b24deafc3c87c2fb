// The playground's address of an operation, `playground.html#<operationId>`, or of one of its named examples,
// `#<operationId>/<example key>` (the key under `examples` in the bundle). The references, the landing page and the
// playground itself build it here. Plain JavaScript, so the docs build's scripts import it as it is.

/**
 * The fragment, without its `#`.
 * @param {string} operationId
 * @param {string} [exampleKey]
 */
export const playgroundFragment = (operationId, exampleKey) =>
  (exampleKey === undefined ? [operationId] : [operationId, exampleKey]).map(encodeURIComponent).join("/");

/**
 * The address relative to the other pages of the docs.
 * @param {string} operationId
 * @param {string} [exampleKey]
 */
export const playgroundAddress = (operationId, exampleKey) => `playground.html#${playgroundFragment(operationId, exampleKey)}`;
