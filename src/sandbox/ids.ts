// Identifiers and timestamps of created resources, in the contract's formats.
import { randomBytes, randomUUID } from "node:crypto";

/** A UUIDv4, as every management id and request id is. */
export const newUuid = (): string => randomUUID();

/** 24 lowercase hexadecimal characters, as alert ids are (database object ids). */
export const newObjectId = (): string => randomBytes(12).toString("hex");

/** A cloud provider's endpoint id, as the example's `vpce-` plus 17 hexadecimal characters. */
export const newEndpointId = (): string => `vpce-${randomBytes(9).toString("hex").slice(0, 17)}`;

/** RFC 3339 with milliseconds (`2025-01-01T10:20:30.000Z`), as the alerts' `createdAt` and `updatedAt` are. */
export const now = (): string => new Date().toISOString();
