import { act, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import * as z from "zod/mini";
import { InputField } from "../components/Field";
import { ApiError } from "./api";
import { useSchemaForm, type SubmitOptions } from "./forms";
import { serviceRequestEditFields, type ServiceRequestValues } from "./schemas/service-request";
import { Toaster } from "./toast";

type Values = Pick<ServiceRequestValues, "title" | "description" | "estimatedDuration" | "maxBudget">;
type Name = keyof Values;

// The edit page's rules for four of its fields, shown in this order.
const FIELDS: Name[] = ["title", "description", "estimatedDuration", "maxBudget"];
const SCHEMA = z.pick(serviceRequestEditFields({ today: "2026-11-23", latestDate: "2027-11-23" }), {
  title: true,
  description: true,
  estimatedDuration: true,
  maxBudget: true,
});
const EMPTY: Values = { title: "", description: "", estimatedDuration: "60", maxBudget: "" };

function TestForm({
  send,
  onInvalid,
  onChange,
  initial = EMPTY,
}: {
  send: SubmitOptions<Values>["send"];
  onInvalid?: SubmitOptions<Values>["onInvalid"];
  onChange?: "validate" | "after-submit" | "clear";
  initial?: Values;
}) {
  const { values, errors, set, submit, pending } = useSchemaForm({
    schema: SCHEMA,
    defaultValues: initial,
    fields: FIELDS,
    fieldId: (name) => `test-${name}`,
    onChange,
  });
  const onSubmit = submit({
    send,
    success: { title: "Saved", description: "Your request was updated." },
    failure: (error) => `Failed: ${error instanceof Error ? error.message : "?"}`,
    redirectTo: "/",
    // Not within a test's time: the page would leave.
    redirectMs: 600_000,
    onInvalid,
  });
  return (
    <>
      <form onSubmit={onSubmit} noValidate>
        {FIELDS.map((name) => (
          <InputField
            key={name}
            id={`test-${name}`}
            label={name}
            value={values[name]}
            onChange={(e) => set(name, e.target.value)}
            error={errors[name]}
          />
        ))}
        <button type="submit" disabled={pending}>
          {pending ? "Saving..." : "Save"}
        </button>
      </form>
      <Toaster />
    </>
  );
}

const field = (name: Name) => screen.getByLabelText(name);
const message = (name: Name) => screen.getByTestId(`test-${name}-error`);
const type = (name: Name, value: string) => fireEvent.input(field(name), { target: { value } });
const save = () => fireEvent.click(screen.getByRole("button", { name: /Save/ }));

describe("useSchemaForm", () => {
  it("shows a field's message as it changes, and takes it away once the field is right", async () => {
    render(<TestForm send={vi.fn()} />);
    type("estimatedDuration", "0");
    await waitFor(() => expect(message("estimatedDuration").textContent).toBe("Duration must be at least 1 minute"));
    expect(field("estimatedDuration").getAttribute("aria-invalid")).toBe("true");
    // Only the field that changed speaks up: the empty title says nothing yet.
    expect(message("title").textContent).toBe("");

    type("estimatedDuration", "20");
    await waitFor(() => expect(message("estimatedDuration").textContent).toBe(""));
    expect(field("estimatedDuration").getAttribute("aria-invalid")).toBeNull();
  });

  it("checks every field on submit, focuses the first wrong one and sends nothing", async () => {
    const send = vi.fn();
    const onInvalid = vi.fn();
    render(<TestForm send={send} onInvalid={onInvalid} />);
    type("maxBudget", "-5");
    save();

    await waitFor(() => expect(message("title").textContent).toBe("Title is required"));
    expect(message("description").textContent).toBe("Description must be at least 10 characters");
    expect(message("maxBudget").textContent).toBe("Budget cannot be negative.");
    expect(message("estimatedDuration").textContent).toBe("");
    expect(document.activeElement).toBe(field("title"));
    expect(onInvalid).toHaveBeenCalledWith({
      title: "Title is required",
      description: "Description must be at least 10 characters",
      maxBudget: "Budget cannot be negative.",
    });
    expect(send).not.toHaveBeenCalled();
  });

  it("focuses the first wrong field in the form's order, not the first one typed in", async () => {
    render(<TestForm send={vi.fn()} initial={{ ...EMPTY, title: "Tablet help", description: "Set up video calls" }} />);
    type("maxBudget", "100000");
    type("estimatedDuration", "");
    save();
    await waitFor(() => expect(document.activeElement).toBe(field("estimatedDuration")));
    expect(message("maxBudget").textContent).toBe("Budget can be at most $99,999.");
  });

  it("sends the values once they are right, stays pending and says so", async () => {
    let finish: (value: unknown) => void = () => undefined;
    const send = vi.fn(() => new Promise((resolve) => (finish = resolve)));
    render(<TestForm send={send} />);
    type("title", "Tablet help");
    type("description", "Set up video calls please");
    save();

    await waitFor(() => expect(send).toHaveBeenCalledTimes(1));
    expect(send).toHaveBeenCalledWith({ ...EMPTY, title: "Tablet help", description: "Set up video calls please" });
    expect(screen.getByRole("button", { name: "Saving..." })).toHaveProperty("disabled", true);
    await act(() => {
      finish({});
      return Promise.resolve();
    });
    await waitFor(() => expect(screen.getByTestId("toast").textContent).toContain("Saved"));
    // Done: the button stays pending until the page leaves.
    expect(screen.getByRole("button", { name: "Saving..." })).toHaveProperty("disabled", true);
  });

  it("shows the server's 400 field errors on their fields and the failure toast", async () => {
    const refusal = new ApiError(
      400,
      "400: Please check the form.",
      {
        message: "Please check the form.",
        errors: { title: ["Title can be at most 20 characters."], recipientId: ["Not a field of this form."] },
      },
      true,
    );
    render(<TestForm send={() => Promise.reject(refusal)} />);
    type("title", "A title that the server finds too long");
    type("description", "Set up video calls please");
    save();

    await waitFor(() => expect(message("title").textContent).toBe("Title can be at most 20 characters."));
    expect(field("title").getAttribute("aria-invalid")).toBe("true");
    expect(screen.getByTestId("toast").textContent).toContain("Failed: 400: Please check the form.");
    expect(screen.queryByText("Not a field of this form.")).toBeNull();
    expect(screen.getByRole("button", { name: "Save" })).toHaveProperty("disabled", false);

    // The user's correction is checked again by the form's own rules.
    type("title", "Tablet help");
    await waitFor(() => expect(message("title").textContent).toBe(""));
  });

  it("says a lost session and sends the user to sign in", async () => {
    const lost = new ApiError(401, "401: Unauthorized", { message: "Unauthorized" }, true);
    render(
      <TestForm
        send={() => Promise.reject(lost)}
        initial={{ ...EMPTY, title: "Tablet", description: "Video calls set up" }}
      />,
    );
    save();
    await waitFor(() => expect(screen.getByTestId("toast").textContent).toContain("You are logged out."));
  });

  it("with onChange 'clear', a change only takes the field's message away", async () => {
    render(<TestForm send={vi.fn()} onChange="clear" />);
    save();
    await waitFor(() => expect(message("title").textContent).toBe("Title is required"));
    type("title", " ");
    await waitFor(() => expect(message("title").textContent).toBe(""));
    type("estimatedDuration", "0");
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(message("estimatedDuration").textContent).toBe("");
    save();
    await waitFor(() => expect(message("title").textContent).toBe("Title is required"));
    expect(message("estimatedDuration").textContent).toBe("Duration must be at least 1 minute");
  });

  it("with onChange 'after-submit', a change says nothing until the first submit, then is checked", async () => {
    render(<TestForm send={vi.fn()} onChange="after-submit" />);
    type("estimatedDuration", "0");
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(message("estimatedDuration").textContent).toBe("");
    save();
    await waitFor(() => expect(message("estimatedDuration").textContent).toBe("Duration must be at least 1 minute"));
    type("estimatedDuration", "5");
    await waitFor(() => expect(message("estimatedDuration").textContent).toBe(""));
    type("estimatedDuration", "");
    await waitFor(() => expect(message("estimatedDuration").textContent).toBe("Duration must be at least 1 minute"));
  });
});
