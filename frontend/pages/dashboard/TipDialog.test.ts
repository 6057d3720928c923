import { describe, expect, it } from "vitest";
import type { Booking } from "../../lib/types";
import { TIP_WINDOW_MS, tipWindowOpen } from "./TipDialog";

const OUT = "2026-11-20T10:00:00Z";
const visit = (over: Partial<Booking>): Booking =>
  ({ status: "completed", paymentStatus: "paid", checkedOutAt: OUT, ...over }) as Booking;

describe("tipWindowOpen (mirrors payments.tips.check_tippable)", () => {
  const out = Date.parse(OUT);
  it("is open for 72 hours after the check-out, and not a moment longer", () => {
    expect(tipWindowOpen(visit({}), out + 1000)).toBe(true);
    expect(tipWindowOpen(visit({}), out + TIP_WINDOW_MS)).toBe(true);
    expect(tipWindowOpen(visit({}), out + TIP_WINDOW_MS + 1)).toBe(false);
  });
  it("needs a completed, paid visit with a check-out", () => {
    expect(tipWindowOpen(visit({ status: "confirmed" }), out)).toBe(false);
    expect(tipWindowOpen(visit({ paymentStatus: "refunded" }), out)).toBe(false);
    expect(tipWindowOpen(visit({ checkedOutAt: null }), out)).toBe(false);
  });
});
