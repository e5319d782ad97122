// Live previews are answered out of order; only the answer to the newest request may be shown.

export class LatestOnly {
  private issued = 0;
  private applied = 0;

  /** A number for the next request; later requests get larger numbers. */
  next(): number {
    this.issued += 1;
    return this.issued;
  }

  /** True when the answer to request `seq` is newer than every answer shown so far (and marks it shown). */
  accept(seq: number): boolean {
    if (seq <= this.applied) return false;
    this.applied = seq;
    return true;
  }

  /** True while a request newer than the last shown answer is still out. */
  get pending(): boolean {
    return this.issued > this.applied;
  }
}
