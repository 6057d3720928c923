import { fireEvent, render, screen, waitFor } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { TextareaField } from "../components/Field";
import { useSchemaForm } from "./forms";
import { adminCancelSchema, type CancelReasonValues } from "./schemas/booking";

const NO_REASON: CancelReasonValues = { reason: "" };

function Reason({ subject, onValid }: { subject: number; onValid: (reason: string) => void }) {
  const { handleSubmit, values, set, error, submitting } = useSchemaForm<CancelReasonValues>({
    schema: adminCancelSchema,
    defaultValues: NO_REASON,
    onChange: "none",
    resetOn: subject,
  });
  return (
    <form onSubmit={handleSubmit(({ reason }) => onValid(reason))} noValidate>
      <TextareaField
        id="reason"
        label="Cancellation reason"
        value={values.reason}
        error={error("reason")}
        onChange={(e) => set("reason", e.currentTarget.value)}
      />
      <button type="submit" disabled={submitting}>
        Send
      </button>
    </form>
  );
}

// The dialog case of the one form hook: checked on submit only, and set back to its defaults when
// the dialog turns to another subject.
describe("useSchemaForm in a dialog", () => {
  it("checks on submit, keeps the message until the next one, and sends the values", async () => {
    const onValid = vi.fn();
    render(<Reason subject={1} onValid={onValid} />);
    fireEvent.click(screen.getByRole("button", { name: "Send" }));
    expect(await screen.findByText("A cancellation reason is required.")).toBeTruthy();
    fireEvent.input(screen.getByLabelText(/Cancellation reason/), { target: { value: "Provider is ill" } });
    expect(screen.getByText("A cancellation reason is required.")).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Send" }));
    await waitFor(() => expect(onValid).toHaveBeenCalledWith("Provider is ill"));
    expect(screen.queryByText("A cancellation reason is required.")).toBeNull();
  });

  it("starts again from the defaults for another subject", async () => {
    const { rerender } = render(<Reason subject={1} onValid={vi.fn()} />);
    const field = () => screen.getByLabelText<HTMLTextAreaElement>(/Cancellation reason/);
    fireEvent.input(field(), { target: { value: "Typed for booking 1" } });
    expect(field().value).toBe("Typed for booking 1");
    rerender(<Reason subject={2} onValid={vi.fn()} />);
    await waitFor(() => expect(field().value).toBe(""));
  });
});
