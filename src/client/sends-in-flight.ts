// A key's sends in flight in the memory store (memory-store.ts): each named by the count in its ticket, with the
// latest it counts until without an answer. Kept in typed arrays that only grow: with an answer every few
// microseconds, an array emptied by its last answer gives its storage back and the next take allocates it again,
// and a Map makes its table anew as it shrinks and grows.

/** The sends in flight, in the order they were taken. */
export class SendsInFlight {
  #counts: Float64Array = new Float64Array(16);
  #until: Float64Array = new Float64Array(16);
  #size = 0;

  get size(): number {
    return this.#size;
  }

  /** A send counted `count` is in flight, and counts until `until` at the latest. */
  add(count: number, until: number): void {
    if (this.#size === this.#counts.length) {
      this.#counts = grown(this.#counts);
      this.#until = grown(this.#until);
    }
    this.#counts[this.#size] = count;
    this.#until[this.#size++] = until;
  }

  /** Takes out the send counted `count`; false when it is not in flight. */
  remove(count: number): boolean {
    // Answers mostly come in the order of their takes: the first is the likeliest.
    for (let index = 0; index < this.#size; index++) {
      if (this.#counts[index] === count) {
        this.#cut(index, 1);
        return true;
      }
    }
    return false;
  }

  /** How many of the first taken count until at or before `since`. */
  countingUntil(since: number): number {
    let count = 0;
    while (count < this.#size && (this.#until[count] as number) <= since) count++;
    return count;
  }

  /** Forgets the `count` first taken. */
  forgetFirst(count: number): void {
    this.#cut(0, count);
  }

  /** Until when each counts at the latest, in the order they were taken. */
  untils(): number[] {
    return Array.from(this.#until.subarray(0, this.#size));
  }

  #cut(from: number, count: number): void {
    this.#counts.copyWithin(from, from + count, this.#size);
    this.#until.copyWithin(from, from + count, this.#size);
    this.#size -= count;
  }
}

function grown(values: Float64Array): Float64Array {
  const larger = new Float64Array(values.length * 2);
  larger.set(values);
  return larger;
}
