// Requests "from" a given client address, for per-address limits in in-process route calls. Both
// the proxy header and the socket-address header our own server sets are filled, so the tests
// hold whichever of the two the client-address function reads.
export function fromAddress(address: string): Record<string, string> {
  return { "x-forwarded-for": address, "x-leadmarket-socket-address": address };
}
