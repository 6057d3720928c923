import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import { useState } from "react";
import { describe, expect, it, vi } from "vitest";
import { refundSentence } from "./CancelBookingDialog";
import { Dialog, DialogClose } from "./Dialog";
import { EmptyState } from "./EmptyState";
import { countAnnouncement, InputField, SelectField, TextareaField } from "./Field";
import { bookingStatusNote, requestStatusNote, StatusBadge } from "./StatusBadge";

describe("Dialog", () => {
  function Harness({ onOpenChange = () => undefined }: { onOpenChange?: (open: boolean) => void }) {
    const [open, setOpen] = useState(false);
    return (
      <>
        <button type="button" onClick={() => setOpen(true)}>
          Delete Request
        </button>
        <Dialog
          open={open}
          onOpenChange={(next) => {
            onOpenChange(next);
            setOpen(next);
          }}
          title="Delete this request?"
          description="This cannot be undone."
          footer={<DialogClose>Keep Request</DialogClose>}
        >
          <p>Body text</p>
        </Dialog>
      </>
    );
  }

  it("opens as a modal dialog named by its title and described by its text", () => {
    render(<Harness />);
    expect(screen.queryByRole("dialog")).toBeNull();
    fireEvent.click(screen.getByRole("button", { name: "Delete Request" }));

    const dialog = screen.getByRole("dialog", { name: "Delete this request?" });
    const describedBy = dialog.getAttribute("aria-describedby") ?? "";
    expect(document.getElementById(describedBy)?.textContent).toBe("This cannot be undone.");
    expect(dialog.textContent).toContain("Body text");
  });

  it("closes with Escape, its Close button or a footer button, and gives focus back", async () => {
    const onOpenChange = vi.fn();
    render(<Harness onOpenChange={onOpenChange} />);
    const opener = screen.getByRole("button", { name: "Delete Request" });

    for (const close of [
      () => fireEvent.keyDown(screen.getByRole("dialog"), { key: "Escape" }),
      () => fireEvent.click(screen.getByRole("button", { name: "Close" })),
      () => fireEvent.click(screen.getByRole("button", { name: "Keep Request" })),
    ]) {
      opener.focus();
      fireEvent.click(opener);
      expect(screen.getByRole("dialog")).toBeTruthy();
      close();
      expect(screen.queryByRole("dialog")).toBeNull();
      await waitFor(() => expect(document.activeElement).toBe(opener));
    }
    expect(onOpenChange.mock.calls.filter(([open]) => open === false)).toHaveLength(3);
  });
});

describe("Field", () => {
  it("labels its control and links hint and error to it", () => {
    render(<InputField id="title" label="Title" hint="A few words" error="Title is required." required />);

    const input = screen.getByLabelText(/Title/);
    expect(input.id).toBe("title");
    expect(input.getAttribute("aria-invalid")).toBe("true");
    expect(input.getAttribute("aria-required")).toBe("true");
    expect(input.getAttribute("aria-describedby")).toBe("title-hint title-error");
    expect(screen.getByRole("alert").textContent).toBe("Title is required.");
  });

  it("keeps an empty alert region in the page while there is no error", () => {
    render(<InputField id="title" label="Title" />);
    const input = screen.getByLabelText("Title");
    expect(input.getAttribute("aria-invalid")).toBeNull();
    expect(input.getAttribute("aria-describedby")).toBeNull();
    expect(screen.getByRole("alert").textContent).toBe("");
  });

  it("counts a long text's characters against its limit", () => {
    render(
      <TextareaField id="notes" label="Notes" maxLength={5000} value={"x".repeat(120)} onChange={() => undefined} />,
    );
    expect(screen.getByTestId("notes-count").textContent).toBe("120 / 5,000 characters");
    expect(screen.getByLabelText("Notes").getAttribute("aria-describedby")).toBe("notes-count");
    expect(screen.getByTestId("notes-count-live").textContent).toBe("");
  });

  it("speaks up only as the limit nears", () => {
    expect(countAnnouncement(100, 5000)).toBe("");
    expect(countAnnouncement(4600, 5000)).toBe("At most 500 characters left.");
    expect(countAnnouncement(4950, 5000)).toBe("At most 100 characters left.");
    expect(countAnnouncement(5000, 5000)).toBe("You have reached the limit of 5,000 characters.");
  });

  it("offers a select's options after its placeholder", () => {
    render(
      <SelectField
        id="urgency"
        label="Urgency"
        placeholder="Choose one"
        options={[
          { value: "low", label: "Low" },
          { value: "high", label: "High" },
        ]}
      />,
    );
    const options = screen.getAllByRole("option").map((o) => [o.getAttribute("value"), o.textContent]);
    expect(options).toEqual([
      ["", "Choose one"],
      ["low", "Low"],
      ["high", "High"],
    ]);
  });
});

describe("StatusBadge", () => {
  it("shows the status as a word, its tone as a class, and an optional note", () => {
    render(<StatusBadge status="cancelled" note="Cancelled. This visit will not take place." />);
    const badge = screen.getByTestId("status-badge");
    expect(badge.textContent).toBe("Cancelled");
    expect(badge.className).toContain("badge-danger");
    expect(screen.getByTestId("status-note").textContent).toBe("Cancelled. This visit will not take place.");
  });

  it("shows unknown statuses plainly and takes a label", () => {
    render(<StatusBadge status="mystery" label="Something else" />);
    expect(screen.getByTestId("status-badge").className).toContain("badge-neutral");
    expect(screen.getByTestId("status-badge").textContent).toBe("Something else");
    expect(screen.queryByTestId("status-note")).toBeNull();
  });

  it("says what a booking's state means for each person", () => {
    expect(bookingStatusNote({ status: "scheduled", paymentStatus: "pending" }, "client")).toBe(
      "Waiting for your payment",
    );
    expect(bookingStatusNote({ status: "scheduled", paymentStatus: "pending" }, "provider")).toBe(
      "Waiting for the client's payment",
    );
    expect(bookingStatusNote({ status: "cancelled", paymentStatus: "refunded" }, "client")).toBe(
      "Cancelled. Your payment was refunded.",
    );
    expect(bookingStatusNote({ status: "confirmed" }, "provider")).toBe("Paid and confirmed: please visit as planned");
    // A plain member of the care circle does not pay: an organizer does.
    expect(bookingStatusNote({ status: "scheduled", paymentStatus: "pending" }, "member")).toBe(
      "Waiting for an organizer of the circle to pay",
    );
    expect(bookingStatusNote({ status: "scheduled", paymentStatus: "failed" }, "member")).toBe(
      "The payment did not go through yet. An organizer of the circle can try again.",
    );
    expect(bookingStatusNote({ status: "confirmed" }, "member")).toBe("Paid and confirmed");
    expect(bookingStatusNote({ status: "cancelled", paymentStatus: "refunded" }, "member")).toBe(
      "Cancelled. The payment was refunded.",
    );
    expect(requestStatusNote("open", "client")).toBe("Waiting for a helper to accept");
    expect(requestStatusNote("unknown", "client")).toBe("");
  });
});

describe("EmptyState", () => {
  it("gives a heading at the level asked, its text and one action", () => {
    render(
      <EmptyState title="No bookings yet" headingLevel={2} action={<a href="/providers">Browse providers</a>}>
        Book a helper to see it here.
      </EmptyState>,
    );
    expect(screen.getByRole("heading", { level: 2, name: "No bookings yet" })).toBeTruthy();
    expect(screen.getByTestId("empty-state").textContent).toContain("Book a helper to see it here.");
    expect(screen.getByRole("link", { name: "Browse providers" }).getAttribute("href")).toBe("/providers");
  });
});

describe("refundSentence", () => {
  it("says what comes back to the card, from the server's cancelRefund", () => {
    expect(refundSentence({ cancelRefund: 30 })).toBe("You will get $30.00 back to your card.");
    expect(refundSentence({ cancelRefund: 30 }, "the client")).toBe("The client will get $30.00 back to their card.");
    expect(refundSentence({ cancelRefund: 0 })).toBe(
      "Nothing was charged for this visit, so there is nothing to refund.",
    );
  });
});
