// Identifiers and timestamps of created resources, in the contract's formats. Web Crypto, so the sandbox's engine
// runs wherever the in-process double does (Node, browsers, jsdom), with no `node:` import.

const hex = (bytes: number): string => [...crypto.getRandomValues(new Uint8Array(bytes))].map((byte) => byte.toString(16).padStart(2, "0")).join("");

/** A UUIDv4, as every management id and request id is. */
export const newUuid = (): string => crypto.randomUUID();

/** 24 lowercase hexadecimal characters, as alert ids are (database object ids). */
export const newObjectId = (): string => hex(12);

/** A cloud provider's endpoint id, as the example's `vpce-` plus 17 hexadecimal characters. */
export const newEndpointId = (): string => `vpce-${hex(9).slice(0, 17)}`;

/** RFC 3339 with milliseconds (`2025-01-01T10:20:30.000Z`), as the alerts' `createdAt` and `updatedAt` are. */
export const now = (): string => new Date().toISOString();
