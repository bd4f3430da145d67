// How the browser reads our JSON errors: the precise reason for a refusal, nothing for a failure.
import { describe, expect, it } from "vitest";
import { HttpError } from "@/lib/client/fetcher";

const body = (value: unknown) => JSON.stringify(value);

describe("HttpError", () => {
  it("prefers the per-field reasons over the generic message", () => {
    const error = new HttpError(
      400,
      body({
        success: false,
        message: "Invalid input",
        errors: {
          files: "photo.png: Only PDF, Word, CSV or Excel files are accepted",
          email: "Enter a valid email address",
        },
      }),
    );
    expect(error.isClientError).toBe(true);
    expect(error.serverMessage).toBe("Invalid input");
    expect(error.serverReason).toBe(
      "photo.png: Only PDF, Word, CSV or Excel files are accepted; Enter a valid email address",
    );
  });

  it("falls back to the message, and to nothing for a body that is not ours", () => {
    expect(new HttpError(429, body({ success: false, message: "Too many requests" })).serverReason).toBe(
      "Too many requests",
    );
    const proxy = new HttpError(502, "<html>Bad Gateway</html>");
    expect(proxy.serverReason).toBeUndefined();
    expect(proxy.isClientError).toBe(false);
  });
});
