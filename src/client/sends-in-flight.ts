// A key's sends in flight in the memory store (memory-store.ts), each named by its ticket's count and take time.
// Kept in typed arrays that only grow: with an answer every few microseconds, an array emptied by its last answer
// gives its storage back and the next take allocates it again, and a Map makes its table anew as it shrinks and
// grows.
import { maxInFlightMs } from "./rate-limit.js";

/** The sends in flight, in the order they were taken. */
export class SendsInFlight {
  #counts: Float64Array = new Float64Array(16);
  /** When each was taken, in whole microseconds. */
  #takenUs: Float64Array = new Float64Array(16);
  #size = 0;

  get size(): number {
    return this.#size;
  }

  /** The send counted `count`, taken at `takenUs`, is in flight. */
  add(count: number, takenUs: number): void {
    if (this.#size === this.#counts.length) {
      this.#counts = grown(this.#counts);
      this.#takenUs = grown(this.#takenUs);
    }
    this.#counts[this.#size] = count;
    this.#takenUs[this.#size++] = takenUs;
  }

  /** Takes out the send counted `count` and taken at `takenUs`; false when no such send is in flight. */
  remove(count: number, takenUs: number): boolean {
    // Answers mostly come in the order of their takes: the first is the likeliest.
    for (let index = 0; index < this.#size; index++) {
      if (this.#counts[index] === count && this.#takenUs[index] === takenUs) {
        this.#cut(index, 1);
        return true;
      }
    }
    return false;
  }

  /**
   * The latest the send `index`-th in the order of takes counts until without an answer: `maxInFlightMs` after its
   * take, then as if answered at that time.
   */
  untilAt(index: number): number {
    return (this.#takenUs[index] as number) / 1000 + maxInFlightMs;
  }

  /** How many of the first taken count until at or before `since` without an answer. */
  countingUntil(since: number): number {
    let count = 0;
    while (count < this.#size && this.untilAt(count) <= since) count++;
    return count;
  }

  /** Forgets the `count` first taken. */
  forgetFirst(count: number): void {
    if (count > 0) this.#cut(0, count);
  }

  /** Until when each counts at the latest without an answer, in the order they were taken. */
  untils(): number[] {
    return Array.from({ length: this.#size }, (_, index) => this.untilAt(index));
  }

  #cut(from: number, count: number): void {
    this.#counts.copyWithin(from, from + count, this.#size);
    this.#takenUs.copyWithin(from, from + count, this.#size);
    this.#size -= count;
  }
}

function grown(values: Float64Array): Float64Array {
  const larger = new Float64Array(values.length * 2);
  larger.set(values);
  return larger;
}
