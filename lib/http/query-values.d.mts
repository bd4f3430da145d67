export function joinedValues(values: readonly string[]): string;
export function queryRecord(searchParams: URLSearchParams): Record<string, string>;
export function commaList(text: string): string[];
