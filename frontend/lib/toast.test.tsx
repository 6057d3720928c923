import { act, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { toast, Toaster } from "./toast";

afterEach(() => {
  vi.useRealTimers();
});

function queue(toasts: unknown) {
  const el = document.createElement("script");
  el.id = "toaster-props";
  el.type = "application/json";
  el.textContent = JSON.stringify(toasts);
  document.body.appendChild(el);
}

describe("Toaster", () => {
  it("shows a toast any island sends, with its title, description and look", () => {
    render(<Toaster />);
    act(() => toast({ title: "Saved", description: "Your request was updated." }));

    const shown = screen.getByTestId("toast");
    expect(shown.textContent).toContain("Saved");
    expect(shown.textContent).toContain("Your request was updated.");
    expect(shown.dataset.variant).toBe("default");
  });

  it("shows one toast at a time: a new one replaces the old", () => {
    render(<Toaster />);
    act(() => toast({ title: "First" }));
    act(() => toast({ title: "Second", variant: "destructive" }));

    expect(screen.getAllByTestId("toast")).toHaveLength(1);
    expect(screen.getByTestId("toast").textContent).toContain("Second");
    expect(screen.getByTestId("toast").dataset.variant).toBe("destructive");
  });

  it("closes with its Dismiss button", () => {
    render(<Toaster />);
    act(() => toast({ title: "Saved" }));
    fireEvent.click(screen.getByRole("button", { name: "Dismiss notification" }));
    expect(screen.queryByText("Saved")).toBeNull();
  });

  it("goes away by itself after 5 seconds, or its own duration", () => {
    vi.useFakeTimers();
    render(<Toaster />);
    act(() => toast({ title: "Default" }));
    act(() => {
      vi.advanceTimersByTime(4900);
    });
    expect(screen.queryByText("Default")).not.toBeNull();
    act(() => {
      vi.advanceTimersByTime(200);
    });
    expect(screen.queryByText("Default")).toBeNull();

    act(() => toast({ title: "Long", duration: 10_000 }));
    act(() => {
      vi.advanceTimersByTime(6000);
    });
    expect(screen.queryByText("Long")).not.toBeNull();
  });

  it("shows the newest message the server queued with a redirect", () => {
    queue([{ title: "Old" }, { title: "Welcome back", description: "You are signed in." }]);
    render(<Toaster />);
    expect(screen.getByTestId("toast").textContent).toContain("Welcome back");
    expect(screen.queryByText("Old")).toBeNull();
  });

  it("ignores a broken queue", () => {
    queue("{not json");
    document.getElementById("toaster-props")!.textContent = "{not json";
    render(<Toaster />);
    expect(screen.queryByTestId("toast")).toBeNull();
  });
});
