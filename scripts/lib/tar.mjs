// A .tar.gz whose bytes depend on nothing but the files given: a POSIX ustar archive written here rather than by
// the system's tar (GNU and BSD tar write different headers, and record owners, dates and the order the disk
// lists files in), gzipped by node:zlib. Regular files only: tar makes the folders they sit in as it unpacks.
import { gzipSync } from "node:zlib";

const block = 512;
// The archive ends with at least two zero blocks, up to a whole record (20 blocks, what POSIX tar reads and writes).
const record = 20 * block;

/** A ustar numeric field: zero-padded octal, then a NUL. */
const octal = (value, width) => `${value.toString(8).padStart(width - 1, "0")}\0`;

/**
 * The ustar name and prefix fields of a path: the name holds 100 bytes, and a longer path is cut at a slash into
 * a prefix of up to 155 bytes and a name (tar joins them back with that slash).
 */
function nameFields(path) {
  if (Buffer.byteLength(path) <= 100) return { prefix: "", name: path };
  for (let slash = path.indexOf("/"); slash !== -1; slash = path.indexOf("/", slash + 1)) {
    const prefix = path.slice(0, slash);
    const name = path.slice(slash + 1);
    if (Buffer.byteLength(prefix) <= 155 && Buffer.byteLength(name) <= 100) return { prefix, name };
  }
  throw new Error(`tar: ${path} does not fit a ustar header (a name of up to 100 bytes after a folder path of up to 155)`);
}

/** The 512-byte header of a regular file: owned by 0:0 with no user or group names, dated 1970-01-01. */
function header(path, size, mode) {
  // 11 octal digits: the most a ustar size field holds (8 GiB).
  if (size > 0o77777777777) throw new Error(`tar: ${path} is ${size} bytes, more than a ustar header can record`);
  const { prefix, name } = nameFields(path);
  const bytes = Buffer.alloc(block);
  const fields = [
    [0, name],
    [100, octal(mode, 8)],
    [108, octal(0, 8)], // uid
    [116, octal(0, 8)], // gid
    [124, octal(size, 12)],
    [136, octal(0, 12)], // mtime: fixed, so a checkout's file dates never reach the archive
    [148, " ".repeat(8)], // the checksum is computed with its own field as spaces
    [156, "0"], // a regular file
    [257, "ustar\0"],
    [263, "00"],
    [345, prefix],
  ];
  for (const [offset, text] of fields) bytes.write(text, offset, "utf8");
  const checksum = bytes.reduce((sum, byte) => sum + byte, 0);
  bytes.write(`${checksum.toString(8).padStart(6, "0")}\0 `, 148, "latin1");
  return bytes;
}

/**
 * The gzipped ustar archive of `files` ({ path, data, mode }), in path order whatever the order given.
 * `mode` is the permission bits (0o644 or 0o755).
 */
export function tarGzip(files) {
  const sorted = [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const duplicate = sorted.find((file, index) => index > 0 && sorted[index - 1].path === file.path);
  if (duplicate) throw new Error(`tar: ${duplicate.path} is given twice`);
  const parts = sorted.flatMap(({ path, data, mode }) => [header(path, data.length, mode), data, Buffer.alloc((block - (data.length % block)) % block)]);
  const body = Buffer.concat(parts);
  const length = Math.ceil((body.length + 2 * block) / record) * record;
  const gzip = gzipSync(Buffer.concat([body, Buffer.alloc(length - body.length)]), { level: 9 });
  // The gzip header's date (bytes 4-7) is 0, since zlib is given none; its OS byte (9) is the platform Node was
  // built for (3 on Linux, 19 on macOS, 10 on Windows), pinned here to Unix so it does not vary with the machine.
  gzip[9] = 3;
  return gzip;
}
