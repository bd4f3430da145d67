import { describe, expect, it } from "vitest";
import { isDisposableDomain, isFreeMailDomain, isRoleAccount } from "@/lib/verification/lists";

describe("verification lists", () => {
  it("knows disposable domains and their subdomains, not ordinary ones", () => {
    expect(isDisposableDomain("mailinator.com")).toBe(true);
    expect(isDisposableDomain("inbox.mailinator.com")).toBe(true);
    expect(isDisposableDomain("gmail.com")).toBe(false);
    expect(isDisposableDomain("example.com")).toBe(false);
    expect(isDisposableDomain("com")).toBe(false);
  });

  it("flags free mailbox providers", () => {
    expect(isFreeMailDomain("gmail.com")).toBe(true);
    expect(isFreeMailDomain("outlook.com")).toBe(true);
    expect(isFreeMailDomain("yahoo.com")).toBe(true);
    expect(isFreeMailDomain("acme-industries.com")).toBe(false);
  });

  it("flags role accounts, case and sub-address aside", () => {
    expect(isRoleAccount("info")).toBe(true);
    expect(isRoleAccount("Sales")).toBe(true);
    expect(isRoleAccount("support+eu")).toBe(true);
    expect(isRoleAccount("jane.doe")).toBe(false);
    expect(isRoleAccount("informatics")).toBe(false);
  });
});
