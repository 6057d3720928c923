// The dashboard in Spanish: its tiles, cards and empty states say the page's language.
import { screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { activateForTest, renderWithI18n } from "../../lib/test-i18n";
import { BookingsCard } from "./BookingsCard";
import { RequestsCard } from "./RequestsCard";
import { Tiles } from "./Tiles";

// "role" is these components' own prop (the dashboard's side), not an ARIA role.
const family = { role: "client" } as const;
const helper = { role: "provider" } as const;

const noActions = {
  onCancel: () => undefined,
  onCancelRest: () => undefined,
  onReview: () => undefined,
  onProviderCancel: () => undefined,
  onChanged: () => undefined,
  reviewed: new Set<number>(),
};

describe("the dashboard in Spanish", () => {
  it("says a family's tiles, cards and empty states in Spanish", async () => {
    await activateForTest("es");
    renderWithI18n(
      <>
        <Tiles {...family} tiles={{ today: 0, completed: 0 }} unread={0} />
        <RequestsCard
          {...family}
          providerStatus="none"
          requests={[]}
          failed=""
          actions={{ onAccept: () => undefined, onDecline: () => undefined, onPass: () => undefined, busy: null }}
        />
        <BookingsCard {...family} bookings={[]} failed="" actions={noActions} />
      </>,
    );
    expect(screen.getByRole("heading", { name: "Sus solicitudes" })).toBeTruthy();
    expect(screen.getByRole("heading", { name: "Sus reservas" })).toBeTruthy();
    expect(screen.getByRole("link", { name: "Cree su primera solicitud" })).toBeTruthy();
    expect(screen.getByRole("link", { name: /Pedir ayuda/ })).toBeTruthy();
    expect(screen.queryByText("Your Requests")).toBeNull();
  });

  it("tells a helper who is not verified why she sees no requests, in Spanish", async () => {
    await activateForTest("es");
    renderWithI18n(
      <RequestsCard
        {...helper}
        providerStatus="pending"
        requests={[]}
        failed=""
        actions={{ onAccept: () => undefined, onDecline: () => undefined, onPass: () => undefined, busy: null }}
      />,
    );
    expect(screen.getByRole("heading", { name: "Solicitudes disponibles" })).toBeTruthy();
    expect(screen.getByRole("heading", { name: "Estamos revisando su solicitud" })).toBeTruthy();
  });
});
