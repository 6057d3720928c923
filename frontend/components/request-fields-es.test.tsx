// The request forms' shared fields (ServiceRequestFields with RepeatFields and TaskListFields)
// in Spanish, as the Spanish /request-service and /edit-service-request pages show them; and the
// same fields still in English for an English reader.
import { screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { ServiceRequestFields } from "./ServiceRequestFields";
import { serviceRequestEditSchema, type ServiceRequestValues, type Variant } from "../lib/schemas/service-request";
import { activateForTest, renderWithI18n } from "../lib/test-i18n";

const VALUES: ServiceRequestValues = {
  categoryId: "1",
  title: "",
  description: "",
  urgency: "normal",
  preferredDate: "",
  preferredTime: "",
  street: "",
  unit: "",
  town: "",
  state: "",
  zipCode: "",
  specialRequirements: "",
  tasks: ["Water the plants"],
  estimatedDuration: "60",
  maxBudget: "",
  repeat: "weekly",
  repeatEnds: "count",
  repeatCount: "4",
  repeatUntil: "",
};

function renderFields(variant: Variant) {
  return renderWithI18n(
    <ServiceRequestFields
      variant={variant}
      values={VALUES}
      errors={{}}
      set={() => undefined}
      change={() => undefined}
      categories={[{ id: 1, name: "Companionship", features: ["Go for a walk"] }]}
      limits={{}}
      today="2026-11-24"
      latestDate="2027-11-24"
      shortNotice={{ cancelCutoff: "2026-11-26T09:00", cancelWindowHours: 48, windowStarts: {} }}
    />,
  );
}

describe("the request's fields in Spanish", () => {
  it("labels every field of the create form in Spanish", async () => {
    await activateForTest("es");
    renderFields("create");
    expect(screen.getByRole("group", { name: "¿Para cuándo necesita ayuda?" })).toBeTruthy();
    expect(screen.getByLabelText(/Tipo de servicio/)).toBeTruthy();
    expect(screen.getByLabelText(/Calle y número/)).toBeTruthy();
    expect(screen.getByLabelText(/Número de visitas/)).toBeTruthy();
    expect(screen.getByText("De 2 a 26 visitas.")).toBeTruthy();
    expect(screen.getByText("Elija la fecha de la primera visita para ver las fechas.")).toBeTruthy();
    expect(screen.getByRole("button", { name: /^Quitar/ }).textContent).toBe("Quitar Water the plants");
    expect(screen.getByRole("button", { name: /Go for a walk/ }).textContent).toBe("+ Añadir Go for a walk");
    expect(screen.getByRole("button", { name: "Añadir tarea" })).toBeTruthy();
    expect(screen.getByLabelText(/Presupuesto máximo en dólares/)).toBeTruthy();
    expect(document.body.textContent).not.toMatch(/Preferred|Street|Repeat|Special requirements/);
  });

  it("gives the edit form its own Spanish words", async () => {
    await activateForTest("es");
    renderFields("edit");
    expect(screen.getByText("Opcional: déjelo vacío si cualquier día le conviene.")).toBeTruthy();
    expect(screen.getByLabelText(/Presupuesto máximo \(\$, opcional\)/)).toBeTruthy();
    expect(screen.getByRole("option", { name: "Elija una hora" })).toBeTruthy();
  });

  it("says the form's own messages in Spanish", async () => {
    await activateForTest("es");
    const schema = serviceRequestEditSchema({ today: "2026-11-24", latestDate: "2027-11-24" });
    const result = schema.safeParse({ ...VALUES, repeat: "", title: "Walk", description: "A walk in the park" });
    const messages = result.success ? [] : result.error.issues.map((i) => i.message);
    expect(messages).toContain("Por favor, escriba la calle y el número.");
    expect(messages).toContain("Por favor, escriba la ciudad.");
  });

  it("stays English for an English reader", () => {
    renderFields("create");
    expect(screen.getByRole("group", { name: "How soon do you need help?" })).toBeTruthy();
    expect(screen.getByText("From 2 to 26 visits.")).toBeTruthy();
    expect(screen.getByRole("button", { name: /^Remove/ }).textContent).toBe("Remove Water the plants");
  });
});
