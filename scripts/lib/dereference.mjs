// The dereferenced variant of a bundle: every local `$ref` replaced by a copy of what it names, for the tools that
// cannot follow references (some generators, API gateways' importers, hand-written readers). Same document
// otherwise; components stay, so a reader that wants a schema by name still finds it. Generated, never edited.

/** A copy of `document` with no `$ref`; fails on a reference cycle, which no copy can inline. */
export function dereferenced(document) {
  const resolve = (pointer) =>
    pointer
      .replace(/^#\//, "")
      .split("/")
      .reduce((node, part) => node?.[part.replaceAll("~1", "/").replaceAll("~0", "~")], document);
  const inline = (node, trail) => {
    if (node === null || typeof node !== "object") return node;
    if (Array.isArray(node)) return node.map((item) => inline(item, trail));
    if (typeof node.$ref === "string") {
      const { $ref, ...siblings } = node;
      if (!$ref.startsWith("#/")) throw new Error(`dereference: ${$ref} is not a local reference`);
      if (trail.includes($ref)) throw new Error(`dereference: ${[...trail, $ref].join(" -> ")} is a cycle`);
      const target = resolve($ref);
      if (target === undefined) throw new Error(`dereference: ${$ref} names nothing`);
      const copy = inline(target, [...trail, $ref]);
      // A reference's own description or summary (3.1) wins over its target's, as the specification says; any
      // other keyword beside a $ref applies as well as the target's, which only an allOf says.
      const annotating = Object.keys(siblings).every((key) => key === "description" || key === "summary");
      return annotating ? { ...copy, ...siblings } : { allOf: [copy], ...inline(siblings, trail) };
    }
    return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, inline(value, trail)]));
  };
  return inline(document, []);
}
