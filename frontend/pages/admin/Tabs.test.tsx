// /admin's own tabs behave as the WAI-ARIA tabs pattern (and as the Radix Tabs they replace did).
import { fireEvent, render, screen } from "@testing-library/react";
import { useState } from "react";
import { describe, expect, it } from "vitest";
import { TabList, TabPanel, type TabsState, useTabsPrefix } from "./Tabs";

type Name = "one" | "two" | "three";

function Example() {
  const [value, setValue] = useState<Name>("one");
  const state: TabsState<Name> = { prefix: useTabsPrefix(), value, onChange: setValue };
  return (
    <>
      <TabList
        label="Sections"
        state={state}
        tabs={[
          { value: "one", label: "One" },
          { value: "two", label: "Two" },
          { value: "three", label: "Three" },
        ]}
      />
      <TabPanel value="one" state={state}>
        First panel
      </TabPanel>
      <TabPanel value="two" state={state}>
        Second panel
      </TabPanel>
      <TabPanel value="three" state={state}>
        Third panel
      </TabPanel>
    </>
  );
}

const tab = (name: string) => screen.getByRole("tab", { name });

describe("the admin's tabs", () => {
  it("opens a tab on a click, its panel alone shown and the others on the page, hidden", () => {
    render(<Example />);
    expect(screen.getByRole("tablist", { name: "Sections" })).toBeTruthy();
    expect(tab("One").getAttribute("aria-selected")).toBe("true");
    expect(tab("One").getAttribute("data-state")).toBe("active");
    expect(screen.getByRole("tabpanel", { name: "One" }).textContent).toBe("First panel");
    fireEvent.click(tab("Two"));
    expect(tab("Two").getAttribute("aria-selected")).toBe("true");
    expect(tab("One").getAttribute("aria-selected")).toBe("false");
    expect(screen.getByRole("tabpanel", { name: "Two" }).textContent).toBe("Second panel");
    // Every tab's aria-controls names a panel that is there.
    for (const name of ["One", "Two", "Three"]) {
      expect(document.getElementById(tab(name).getAttribute("aria-controls") ?? "")).toBeTruthy();
    }
    expect(screen.queryByText("First panel")).toBeNull();
  });

  it("keeps the open tab alone in the Tab order, and moves with the arrows (wrapping), Home and End", () => {
    render(<Example />);
    expect([tab("One").tabIndex, tab("Two").tabIndex, tab("Three").tabIndex]).toEqual([0, -1, -1]);
    tab("One").focus();
    fireEvent.keyDown(tab("One"), { key: "ArrowRight" });
    expect(document.activeElement).toBe(tab("Two"));
    expect(tab("Two").getAttribute("aria-selected")).toBe("true");
    expect([tab("One").tabIndex, tab("Two").tabIndex]).toEqual([-1, 0]);
    fireEvent.keyDown(tab("Two"), { key: "End" });
    expect(document.activeElement).toBe(tab("Three"));
    fireEvent.keyDown(tab("Three"), { key: "ArrowRight" });
    expect(document.activeElement).toBe(tab("One"));
    fireEvent.keyDown(tab("One"), { key: "ArrowLeft" });
    expect(document.activeElement).toBe(tab("Three"));
    fireEvent.keyDown(tab("Three"), { key: "Home" });
    expect(tab("One").getAttribute("aria-selected")).toBe("true");
  });
});
