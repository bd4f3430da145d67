export function limitBucket(address: string): string;
export function clientBucket(
  socketAddress: string | null | undefined,
  forwardedFor: string | null | undefined,
  trustedHops: number,
): string;
