// A .zip whose bytes depend on nothing but the files given, as a wheel must be to be built reproducibly: entries in
// the order given, each dated 1980-01-01 00:00 (the format's first day), deflated by node:zlib, with no extra
// fields, comments or owners. Regular files only, as a wheel holds.
import { crc32, deflateRawSync } from "node:zlib";

// DOS date and time of 1980-01-01 00:00:00: day 1, month 1, year 0 (1980).
const dosTime = 0;
const dosDate = (1 << 5) | 1;
const deflated = 8;
// "Made by" Unix (3) and spec 2.0 (20), so the external attributes carry Unix permissions.
const madeBy = (3 << 8) | 20;
const needed = 20;
// Bit 11: names are UTF-8.
const utf8Names = 1 << 11;

/**
 * The fields a file's local header and its central directory entry share, in the same order in both: version
 * needed, flags, method, time, date, CRC-32, both sizes, the name's length, and no extra field.
 */
function sharedFields(buffer, at, { name, packed, data, checksum }) {
  buffer.writeUInt16LE(needed, at);
  buffer.writeUInt16LE(utf8Names, at + 2);
  buffer.writeUInt16LE(deflated, at + 4);
  buffer.writeUInt16LE(dosTime, at + 6);
  buffer.writeUInt16LE(dosDate, at + 8);
  buffer.writeUInt32LE(checksum, at + 10);
  buffer.writeUInt32LE(packed.length, at + 14);
  buffer.writeUInt32LE(data.length, at + 18);
  buffer.writeUInt16LE(name.length, at + 22);
  buffer.writeUInt16LE(0, at + 24);
}

/** `files`: `[{ path, data: Buffer, mode? }]`; the zip's bytes. */
export function zip(files) {
  // What a zip without its 64-bit extension holds (a wheel of the contract is a few hundred kB).
  const total = files.reduce((sum, { data }) => sum + data.length, 0);
  if (total > 0xffffffff || files.length > 0xffff) throw new Error("zip: more than a zip without its 64-bit extension holds");
  const local = [];
  const central = [];
  let offset = 0;
  for (const { path, data, mode = 0o644 } of files) {
    const entry = { name: Buffer.from(path, "utf8"), packed: deflateRawSync(data, { level: 9 }), data, checksum: crc32(data) };
    const head = Buffer.alloc(30);
    head.writeUInt32LE(0x04034b50, 0);
    sharedFields(head, 4, entry);
    local.push(head, entry.name, entry.packed);
    const listed = Buffer.alloc(46);
    listed.writeUInt32LE(0x02014b50, 0);
    listed.writeUInt16LE(madeBy, 4);
    sharedFields(listed, 6, entry);
    // Comment length, disk number and internal attributes: none, all 0 (bytes 32 to 37).
    listed.writeUInt32LE(((0o100000 | mode) << 16) >>> 0, 38);
    listed.writeUInt32LE(offset, 42);
    central.push(listed, entry.name);
    offset += head.length + entry.name.length + entry.packed.length;
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(files.length, 8);
  end.writeUInt16LE(files.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...local, directory, end]);
}
