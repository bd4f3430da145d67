/**
 * A set of emails kept as 63-bit hashes in one open-addressing table (8 bytes a slot, at most half
 * full): a million emails cost about 16 MB, where a Set of the strings would cost ten times that.
 * Two different emails may share a hash, so "already there" means "maybe": the caller checks those
 * exactly. "Not there" is certain.
 */
export class EmailHashes {
  // Slot i holds its two halves at 2i and 2i + 1; an odd second half marks it used.
  private slots = new Uint32Array(2 << 16);
  private mask = (1 << 16) - 1;
  private size = 0;

  /** Adds an email; false when its hash was there already. */
  add(email: string): boolean {
    // FNV-1a and a Murmur-style multiply over the UTF-16 code units, the first one finalised so
    // its low bits (the slot) spread well.
    let a = 0x811c9dc5;
    let b = 0x9747b28c;
    for (let i = 0; i < email.length; i++) {
      const code = email.charCodeAt(i);
      a = Math.imul(a ^ code, 0x01000193);
      b = Math.imul(b ^ code, 0x5bd1e995);
      b ^= b >>> 15;
    }
    return this.addHash(a, b);
  }

  /** Adds an email spelled in ASCII by `bytes` from `start` to `end`: the same hash as add()'s. */
  addAscii(bytes: Uint8Array, start: number, end: number): boolean {
    let a = 0x811c9dc5;
    let b = 0x9747b28c;
    for (let i = start; i < end; i++) {
      const code = bytes[i];
      a = Math.imul(a ^ code, 0x01000193);
      b = Math.imul(b ^ code, 0x5bd1e995);
      b ^= b >>> 15;
    }
    return this.addHash(a, b);
  }

  private addHash(a: number, b: number): boolean {
    a ^= a >>> 16;
    a = Math.imul(a, 0x85ebca6b);
    a ^= a >>> 13;
    a = Math.imul(a, 0xc2b2ae35);
    a = (a ^ (a >>> 16)) >>> 0;
    b = (b | 1) >>> 0;
    if (!this.insert(a, b)) return false;
    this.size += 1;
    if (this.size * 2 > this.mask) this.grow();
    return true;
  }

  private insert(a: number, b: number): boolean {
    const { slots, mask } = this;
    for (let slot = a & mask; ; slot = (slot + 1) & mask) {
      const second = slots[2 * slot + 1];
      if (second === 0) {
        slots[2 * slot] = a;
        slots[2 * slot + 1] = b;
        return true;
      }
      if (second === b && slots[2 * slot] === a) return false;
    }
  }

  private grow(): void {
    const old = this.slots;
    this.slots = new Uint32Array(old.length * 2);
    this.mask = this.mask * 2 + 1;
    for (let at = 0; at < old.length; at += 2) {
      if (old[at + 1] !== 0) this.insert(old[at], old[at + 1]);
    }
  }
}
