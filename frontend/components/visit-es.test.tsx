// The dashboard's shared visit and booking components in Spanish: the cancel dialog, a direct
// request's lines, the visit's progress and its report, as a Spanish family or helper reads them.
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { CancelBookingDialog, refundSentence } from "./CancelBookingDialog";
import { AwayWarning, SentToHelper } from "./DirectRequest";
import { ReportDetails, VisitProgress, visitTimeline, WELLBEING, type VisitReport } from "./VisitControls";
import { activateForTest, renderWithI18n } from "../lib/test-i18n";
import type { Booking, ServiceRequest } from "../lib/types";

const booking = {
  id: 7,
  status: "completed",
  paymentStatus: "paid",
  scheduledDate: "2026-01-15",
  scheduledTime: "afternoon",
  visitStart: "2026-01-15T18:00:00Z",
  checkInBy: "2026-01-15T22:00:00Z",
  checkedInAt: "2026-01-15T19:58:00Z",
  checkedOutAt: "2026-01-15T21:02:00Z",
  hasReport: true,
  visitState: "done",
  cancelRefund: "45.00",
  recipient: { id: 1, firstName: "Clara", lastName: "", timeZone: "America/Chicago" },
  serviceRequest: { title: "Wellness check" },
  visitRecord: { checkInVerified: true, checkOutVerified: false, checkOutReason: "", tasksDone: 2, tasksTotal: 3 },
} as unknown as Booking;

describe("the visit's components in Spanish", () => {
  it("asks before cancelling a booking, in Spanish", async () => {
    await activateForTest("es");
    renderWithI18n(
      <CancelBookingDialog
        booking={booking}
        reasonLabel="Motivo"
        onClose={() => undefined}
        onConfirm={async () => {}}
      />,
    );
    expect(screen.getByRole("heading", { name: "Cancelar la reserva" })).toBeTruthy();
    expect(screen.getByRole("button", { name: "Mantener la reserva" })).toBeTruthy();
    expect(screen.getByTestId("cancel-refund").textContent).toBe("Se le devolverán $45.00 a su tarjeta.");
    expect(screen.getByTestId("cancellation-policy-link").textContent).toMatch(/^Nuestr/);
  });

  it("tells the circle what became of a direct request, in Spanish", async () => {
    await activateForTest("es");
    const request = {
      id: 3,
      title: "Tablet lessons",
      status: "open",
      circleRole: "organizer",
      requestedProvider: { id: 3, firstName: "Vera", lastName: "Lang" },
      directUntil: null,
      onlyRequestedProvider: false,
      declinedAt: "2027-03-01T13:00:00Z",
      declineReason: "Away that week.",
    } as unknown as ServiceRequest;
    renderWithI18n(
      <>
        <SentToHelper request={request} />
        <AwayWarning name="Vera" dates={["2027-03-08"]} away={[{ firstDay: "2027-03-08", lastDay: "2027-03-08" }]} />
      </>,
    );
    expect(screen.getByTestId("sent-to-helper").textContent).toBe(
      "Vera dijo que no: Away that week. Abierta a todos los ayudantes.",
    );
    expect(screen.getByTestId("asked-away").textContent).toContain("Vera no puede hacer esta visita");
  });

  it("tells the family how the visit went and reads the report, in Spanish", async () => {
    await activateForTest("es");
    const [checkedIn, tasks, checkedOut] = visitTimeline(booking);
    expect(checkedIn).toMatch(/^Llegada registrada: .* \(en la casa de Clara\)$/);
    expect(tasks).toBe("2 de 3 tareas hechas");
    expect(checkedOut).toMatch(/^Salida registrada: .* \(fuera de la casa\)$/);
    expect(WELLBEING.map((w) => w.label)).toContain("Bien");

    const client = new QueryClient();
    const report: VisitReport = {
      bookingId: 7,
      familyTasks: [
        { task: "Fill the pill box", done: true, reason: "" },
        { task: "Water the plants", done: false, reason: "No watering can" },
      ],
      tasksDone: [],
      notes: "",
      wellbeing: 4,
      wellbeingLabel: "Bien",
      forFamily: "",
      followUpSuggested: true,
      createdAt: "2026-01-15T22:59:00Z",
      updatedAt: "2026-01-16T14:05:00Z",
      edits: [{ editedAt: "2026-01-16T14:05:00Z", before: {} }],
    };
    client.setQueryData(["/api/bookings/7/report"], report);
    renderWithI18n(
      <QueryClientProvider client={client}>
        <VisitProgress booking={booking} />
        <ReportDetails booking={booking} />
      </QueryClientProvider>,
    );
    expect(screen.getByText("El informe de la visita está listo")).toBeTruthy();
    expect(screen.getByText("4 de 5: Bien")).toBeTruthy();
    expect(screen.getByText("No hecho: Water the plants (No watering can)")).toBeTruthy();
    expect(screen.getByText("El ayudante sugiere otra visita.")).toBeTruthy();
    expect(screen.getByText(/^Corregido por el ayudante una vez, la última el /)).toBeTruthy();
  });

  it("keeps the English for an English reader", () => {
    expect(refundSentence({ cancelRefund: 45 })).toBe("You will get $45.00 back to your card.");
    expect(visitTimeline(booking)[0]).toMatch(/^Checked in at .* \(at Clara's home\)$/);
    expect(visitTimeline(booking)[1]).toBe("2 of 3 tasks done");
    expect(visitTimeline(booking)[2]).toMatch(/^Checked out at .* \(not at the home\)$/);
  });
});
