/**
 * A set of emails kept as 31-bit hashes in one open-addressing table (4 bytes a slot, at most half
 * full): a million emails cost about 8 MB, where a Set of the strings would cost twenty times that.
 * Two different emails may share a hash (a new email among a million matches one with odds of about
 * 1 in 2,000), so "already there" means "maybe": the caller checks those exactly. "Not there" is
 * certain.
 */
export class EmailHashes {
  // A used slot holds its email's hash, made odd; 0 marks a free one.
  private slots: Uint32Array;
  private mask: number;
  private size = 0;

  /** `expected`: about how many emails it will hold, so that it need not grow on the way there. */
  constructor(expected = 0) {
    let length = 1 << 16;
    while (length < expected * 2) length *= 2;
    this.slots = new Uint32Array(length);
    this.mask = length - 1;
  }

  /** Adds an email; false when its hash was there already. */
  add(email: string): boolean {
    // FNV-1a over the UTF-16 code units.
    let hash = 0x811c9dc5;
    for (let i = 0; i < email.length; i++) hash = Math.imul(hash ^ email.charCodeAt(i), 0x01000193);
    return this.addHash(hash);
  }

  /** Adds an email spelled in ASCII by `bytes` from `start` to `end`: the same hash as add()'s. */
  addAscii(bytes: Uint8Array, start: number, end: number): boolean {
    let hash = 0x811c9dc5;
    for (let i = start; i < end; i++) hash = Math.imul(hash ^ bytes[i], 0x01000193);
    return this.addHash(hash);
  }

  private addHash(hash: number): boolean {
    // Murmur3's finaliser: every bit of the slot and of the value kept depends on every character.
    hash ^= hash >>> 16;
    hash = Math.imul(hash, 0x85ebca6b);
    hash ^= hash >>> 13;
    hash = Math.imul(hash, 0xc2b2ae35);
    hash ^= hash >>> 16;
    if (!this.insert((hash | 1) >>> 0)) return false;
    this.size += 1;
    if (this.size * 2 > this.mask) this.grow();
    return true;
  }

  private insert(held: number): boolean {
    const { slots, mask } = this;
    for (let slot = (held >>> 1) & mask; ; slot = (slot + 1) & mask) {
      const there = slots[slot];
      if (there === 0) {
        slots[slot] = held;
        return true;
      }
      if (there === held) return false;
    }
  }

  private grow(): void {
    const old = this.slots;
    this.slots = new Uint32Array(old.length * 2);
    this.mask = this.slots.length - 1;
    for (const held of old) if (held !== 0) this.insert(held);
  }
}
