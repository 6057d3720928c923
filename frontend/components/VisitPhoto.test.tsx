import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { RULES } from "../lib/rules.generated";
import type { Booking } from "../lib/types";
import { photoProblem, PhotoField, VisitPhotoButton } from "./VisitPhoto";

function booking(hasPhoto: boolean): Booking {
  return {
    id: 9,
    serviceRequest: { title: "Tuesday help" },
    provider: { user: { firstName: "Vera" } },
    visitRecord: { hasPhoto },
  } as unknown as Booking;
}

afterEach(() => vi.restoreAllMocks());

describe("the visit's photo", () => {
  it("turns down a file over the server's limit before sending it", () => {
    const big = { size: RULES.visitPhoto.PHOTO_MAX_BYTES + 1 } as File;
    const fine = { size: 1000 } as File;
    expect(photoProblem(big)).toBe("This photo is too large. Choose one of at most 8 MB.");
    expect(photoProblem(fine)).toBeNull();
    expect(photoProblem(null)).toBeNull();
  });

  it("labels the field and says the problem beside it", () => {
    const big = new File(["x"], "big.jpg", { type: "image/jpeg" });
    Object.defineProperty(big, "size", { value: RULES.visitPhoto.PHOTO_MAX_BYTES + 1 });
    render(<PhotoField id="p" file={big} onChange={() => {}} />);
    const input = screen.getByLabelText("Add a photo for the family (optional)");
    expect(input.getAttribute("accept")).toBe("image/jpeg,image/png,image/webp");
    expect(input.getAttribute("aria-invalid")).toBe("true");
    expect(screen.getByRole("alert").textContent).toBe(RULES.visitPhoto.PHOTO_TOO_LARGE);
  });

  it("offers nothing on a visit without a photo", () => {
    render(<VisitPhotoButton booking={booking(false)} />);
    expect(screen.queryByTestId("visit-photo-open")).toBeNull();
  });

  it("shows the photo through the signed link the server gives", async () => {
    const fetchMock = vi.spyOn(globalThis, "fetch").mockResolvedValue(
      new Response(JSON.stringify({ url: "/visit-photos/abc:1:sig", expiresAt: "2026-11-26T10:00:00Z" }), {
        status: 200,
        headers: { "Content-Type": "application/json" },
      }),
    );
    render(<VisitPhotoButton booking={booking(true)} />);
    fireEvent.click(screen.getByTestId("visit-photo-open"));
    await waitFor(() => expect(screen.getByRole("img").getAttribute("src")).toBe("/visit-photos/abc:1:sig"));
    expect(fetchMock.mock.calls[0]?.[0]).toBe("/api/bookings/9/photo");
    expect(screen.getByRole("img").getAttribute("alt")).toBe("What Vera shared from the visit");
  });
});
