// SHA-256 (FIPS 180-4), synchronous and the same in every runtime: what names a credential to rate-limit stores
// without holding it. Node's `crypto.createHash` is not in a browser, and Web Crypto's digest is asynchronous and
// missing on insecure origins; a client is made synchronously, and every process must derive the same name so a
// shared store still shares. Run once per client, never per call.

const roundConstants = new Uint32Array(64);
const initialHash = new Uint32Array(8);
{
  // The first 32 bits of the fractional parts of the cube roots (round constants) and square roots (initial hash)
  // of the first 64 primes, computed rather than written out.
  const primes: number[] = [];
  for (let candidate = 2; primes.length < 64; candidate++) if (primes.every((prime) => candidate % prime !== 0)) primes.push(candidate);
  const fraction = (value: number) => ((value - Math.floor(value)) * 2 ** 32) >>> 0;
  primes.forEach((prime, index) => {
    roundConstants[index] = fraction(prime ** (1 / 3));
    if (index < 8) initialHash[index] = fraction(Math.sqrt(prime));
  });
}

const rotate = (word: number, bits: number) => (word >>> bits) | (word << (32 - bits));

/** The SHA-256 of a string's UTF-8 bytes, as 64 lowercase hexadecimal characters. */
export function sha256(text: string): string {
  const bytes = new TextEncoder().encode(text);
  // The message, a 1 bit, zeros, and its length in bits as 64 bits: a whole number of 64-byte blocks.
  const blocks = new Uint8Array(Math.ceil((bytes.length + 9) / 64) * 64);
  blocks.set(bytes);
  blocks[bytes.length] = 0x80;
  const view = new DataView(blocks.buffer);
  view.setUint32(blocks.length - 8, Math.floor(bytes.length / 2 ** 29));
  view.setUint32(blocks.length - 4, bytes.length * 8);
  const hash = initialHash.slice();
  const words = new Uint32Array(64);
  for (let offset = 0; offset < blocks.length; offset += 64) {
    for (let i = 0; i < 16; i++) words[i] = view.getUint32(offset + i * 4);
    for (let i = 16; i < 64; i++) {
      const [w15, w2] = [words[i - 15] as number, words[i - 2] as number];
      const s0 = rotate(w15, 7) ^ rotate(w15, 18) ^ (w15 >>> 3);
      const s1 = rotate(w2, 17) ^ rotate(w2, 19) ^ (w2 >>> 10);
      words[i] = (words[i - 16] as number) + s0 + (words[i - 7] as number) + s1;
    }
    let [a, b, c, d, e, f, g, h] = hash as unknown as [number, number, number, number, number, number, number, number];
    for (let i = 0; i < 64; i++) {
      const t1 = h + (rotate(e, 6) ^ rotate(e, 11) ^ rotate(e, 25)) + ((e & f) ^ (~e & g)) + (roundConstants[i] as number) + (words[i] as number);
      const t2 = (rotate(a, 2) ^ rotate(a, 13) ^ rotate(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
      [h, g, f, e, d, c, b, a] = [g, f, e, (d + t1) >>> 0, c, b, a, (t1 + t2) >>> 0];
    }
    [a, b, c, d, e, f, g, h].forEach((word, index) => {
      hash[index] = (hash[index] as number) + word;
    });
  }
  return [...hash].map((word) => word.toString(16).padStart(8, "0")).join("");
}
