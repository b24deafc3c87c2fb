// The branches of a request union, as the generated types keep them: every branch in an editor's completion, and
// a field of another branch refused with a message that says whose it is (scripts/lib/types.mjs applies these).
import ts from "typescript";
import { resolveRef } from "../../src/contract/openapi.js";

const factory = ts.factory;

// Closed request branches that stay completable, with errors that name the branch. TypeScript narrows a union's
// contextual type by each optional field the object literal does not have yet, when that field is a discriminant
// (its types differ across branches and one of them is made only of unit types, like `null` or a closed enum). A
// field of another branch typed `null` is such a discriminant, so completion at `type: "` would shrink to one
// branch. `null | OnlyNull<"belongs to type: KAFKA_MULTI_VPC">` (an object type no value has) is not made of unit
// types: the field stops being a discriminant, a value for it still fails and `null` still passes, and the
// compiler's message for a value names the type: "Type 'string' is not assignable to type 'OnlyNull<"belongs to
// type: KAFKA_MULTI_VPC">'", the same in TypeScript 5 and 7.
const noValueKey = factory.createComputedPropertyName(factory.createIdentifier("noValue"));
const noValueSymbol = factory.createVariableStatement(
  [factory.createModifier(ts.SyntaxKind.DeclareKeyword)],
  factory.createVariableDeclarationList(
    [
      factory.createVariableDeclaration(
        "noValue",
        undefined,
        factory.createTypeOperatorNode(ts.SyntaxKind.UniqueKeyword, factory.createKeywordTypeNode(ts.SyntaxKind.SymbolKeyword)),
      ),
    ],
    ts.NodeFlags.Const,
  ),
);
const never = () => factory.createKeywordTypeNode(ts.SyntaxKind.NeverKeyword);
const readonly = () => [factory.createModifier(ts.SyntaxKind.ReadonlyKeyword)];
// `BelongsTo & never`: still never, but the parameter is read, so a project with noUnusedParameters compiles the file.
const onlyNullInterface = ts.addSyntheticLeadingComment(
  factory.createInterfaceDeclaration(
    [factory.createModifier(ts.SyntaxKind.ExportKeyword)],
    "OnlyNull",
    [factory.createTypeParameterDeclaration(undefined, "BelongsTo", factory.createKeywordTypeNode(ts.SyntaxKind.StringKeyword))],
    undefined,
    [
      factory.createPropertySignature(
        readonly(),
        noValueKey,
        undefined,
        factory.createIntersectionTypeNode([factory.createTypeReferenceNode("BelongsTo"), never()]),
      ),
    ],
  ),
  ts.SyntaxKind.MultiLineCommentTrivia,
  "* A field of another branch of a request union (`BelongsTo` says which): only `null` is accepted, or leave the field out. No value has this type; it keeps every branch in an editor's completion. ",
  true,
);
const oneOfAlias = ts.addSyntheticLeadingComment(
  factory.createTypeAliasDeclaration(
    [factory.createModifier(ts.SyntaxKind.ExportKeyword)],
    "OneOf",
    [factory.createTypeParameterDeclaration(undefined, "Values")],
    factory.createUnionTypeNode([
      factory.createTypeReferenceNode("Values"),
      factory.createParenthesizedType(
        factory.createIntersectionTypeNode([
          factory.createTypeReferenceNode("Values"),
          factory.createTypeLiteralNode([factory.createPropertySignature(readonly(), noValueKey, undefined, never())]),
        ]),
      ),
    ]),
  ),
  ts.SyntaxKind.MultiLineCommentTrivia,
  "* One of `Values`. The second member, which no value has, keeps every branch of a request union in an editor's completion. ",
  true,
);
export const brandDeclarations = [noValueSymbol, onlyNullInterface, oneOfAlias];

/**
 * A field that another branch owns (`x-belongs-to`) becomes `null | OnlyNull<"belongs to …">`; when the owner types
 * it as a closed enum (`x-closed-values`), `null | (T & OnlyNull<"belongs to …">)`, the same values: the enum keeps
 * a value's literal type, so the message is about this field of this branch instead of one listing every branch's.
 */
export function fieldOfAnotherBranch(property, schemaObject) {
  const belongsTo = schemaObject?.["x-belongs-to"];
  if (belongsTo === undefined) return undefined;
  const onlyNull = factory.createTypeReferenceNode("OnlyNull", [factory.createLiteralTypeNode(factory.createStringLiteral(`belongs to ${belongsTo}`))]);
  const value = schemaObject["x-closed-values"] ? factory.createParenthesizedType(factory.createIntersectionTypeNode([property.type, onlyNull])) : onlyNull;
  const type = factory.createUnionTypeNode([factory.createLiteralTypeNode(factory.createNull()), value]);
  return factory.updatePropertySignature(property, property.modifiers, property.name, property.questionToken, type);
}

/**
 * The owner's field of a closed enum that another branch marks as not its own (`kafkaAuthentication`): the enum
 * alone is made of unit types, so a missing field would still rule the owner out. `OneOf<T>` admits the same
 * values, narrows to `T`, and is no discriminant.
 */
export function ownedClosedValue(property, schemaObject) {
  if (!schemaObject?.["x-owned-closed-value"]) return undefined;
  const type = factory.createTypeReferenceNode("OneOf", [property.type]);
  return factory.updatePropertySignature(property, property.modifiers, property.name, property.questionToken, type);
}

/** A schema that admits only `null`: the marker of a field that belongs to another branch. */
const isNullOnly = (bundle, schema) => resolveRef(bundle, schema)?.type === "null";
/** A schema whose every value is a unit type (a closed enum, a const, a boolean): a discriminant to TypeScript. */
function isAllUnit(bundle, schema) {
  const resolved = resolveRef(bundle, schema);
  if (!resolved) return false;
  if (resolved.const !== undefined || resolved.type === "boolean") return true;
  if (Array.isArray(resolved.enum)) return true;
  const branches = resolved.anyOf ?? resolved.oneOf;
  return Array.isArray(branches) && branches.every((branch) => isAllUnit(bundle, branch));
}

/**
 * In each `oneOf` of closed branches, a field that one branch admits only as `null` and another owns gets
 * `x-belongs-to` (its owners, as `type: KAFKA_MULTI_VPC`) and a description naming them. When the owners type it
 * as a closed enum, it takes their schema (fieldOfAnotherBranch() admits none of its values) and `x-closed-values`,
 * and each owner's field gets `x-owned-closed-value`.
 */
export function markFieldsOfOtherBranches(bundle) {
  const changes = [];
  for (const schema of Object.values(bundle.components?.schemas ?? {})) {
    const branches = (schema.oneOf ?? []).map((branch) => resolveRef(bundle, branch)).filter(Boolean);
    if (branches.length < 2) continue;
    const key = schema.discriminator?.propertyName;
    const label = (branch) => {
      const value = key === undefined ? undefined : resolveRef(bundle, branch.properties?.[key])?.const;
      return value === undefined ? branch.title : `${key}: ${value}`;
    };
    for (const branch of branches)
      for (const [name, property] of Object.entries(branch.properties ?? {})) {
        if (!isNullOnly(bundle, property)) continue;
        const owners = branches.filter((other) => other.properties?.[name] !== undefined && !isNullOnly(bundle, other.properties[name]));
        if (owners.length === 0) continue;
        changes.push({ branch, name, owned: owners.map((owner) => owner.properties[name]), belongsTo: owners.map(label).join(" or ") });
      }
  }
  const closedOwners = new Set();
  for (const { branch, name, owned, belongsTo } of changes) {
    const marks = { "x-belongs-to": belongsTo, description: `Belongs to \`${belongsTo}\`: only \`null\` (or leaving the field out) is accepted here.` };
    if (!owned.every((property) => isAllUnit(bundle, property))) branch.properties[name] = { ...branch.properties[name], ...marks };
    else {
      branch.properties[name] = { ...(owned.length === 1 ? owned[0] : { anyOf: owned }), ...marks, "x-closed-values": true };
      for (const property of owned) closedOwners.add(property);
    }
  }
  for (const property of closedOwners) property["x-owned-closed-value"] = true;
}
