// "Your Requests" / "Available Requests", or why a helper's account sees none yet.
import { SUPPORT_LINK } from "../../components/BookingPerson";
import { EmptyState } from "../../components/EmptyState";
import type { ServiceRequest } from "../../lib/types";
import { type RequestActions, RequestItem } from "./RequestItem";
import { LIST_LIMIT, type ProviderStatus, type View } from "./common";

/** In place of open requests for a provider account that is not verified: open requests
 * (a senior's address, their needs) are shown to verified providers only. */
function ProviderGate({ status }: { status: Exclude<ProviderStatus, "verified"> }) {
  const content: Record<
    typeof status,
    { title: string; text: string; action: { href: string; label: string } | null }
  > = {
    none: {
      title: "Only verified providers see open requests",
      text:
        "To keep clients' homes and details safe, requests are shown to providers we have checked. " +
        "Apply to become a provider: we review applications in 2-3 business days.",
      action: { href: "/provider-signup", label: "Apply to become a provider" },
    },
    pending: {
      title: "Your application is being reviewed",
      text:
        "Thank you for applying. We review applications in 2-3 business days and will let you know. " +
        "Once you are verified, open requests from clients appear here.",
      action: null,
    },
    rejected: {
      title: "Your application was not approved",
      text:
        "Open requests are shown to verified providers only. If you would like to know more about the decision, " +
        "our support team is happy to help.",
      action: { href: SUPPORT_LINK, label: "Contact support" },
    },
    inactive: {
      title: "Your provider profile is not active",
      text: "Open requests are shown to active, verified providers. Our support team can help you turn your profile back on.",
      action: { href: SUPPORT_LINK, label: "Contact support" },
    },
  };
  const { title, text, action } = content[status];
  return (
    <div className="provider-gate" data-testid="provider-gate" data-status={status}>
      <h3>{title}</h3>
      <p>{text}</p>
      {action && (
        <div className="actions">
          <a className="button button-primary" href={action.href}>
            {action.label}
          </a>
        </div>
      )}
    </div>
  );
}

export function RequestsCard({
  role,
  providerStatus,
  requests,
  failed,
  actions,
}: {
  role: View;
  providerStatus: ProviderStatus;
  requests: ServiceRequest[];
  failed: string;
  actions: RequestActions;
}) {
  const provider = role === "provider";
  return (
    <section className="card dashboard-card" aria-labelledby="requests-heading" data-testid="requests-card">
      <h2 id="requests-heading">{provider ? "Available Requests" : "Your Requests"}</h2>
      {provider && providerStatus !== "verified" ? (
        <ProviderGate status={providerStatus} />
      ) : failed ? (
        <p role="alert" className="field-error">
          We couldn't load requests: {failed}
        </p>
      ) : requests.length === 0 ? (
        provider ? (
          <EmptyState title="No new requests available" />
        ) : (
          <EmptyState
            title="No service requests yet"
            action={
              <a className="button button-primary" href="/request-service">
                Create Your First Request
              </a>
            }
          />
        )
      ) : (
        <ul className="item-list">
          {requests.slice(0, LIST_LIMIT).map((r) => (
            <RequestItem key={r.id} request={r} role={role} actions={actions} />
          ))}
        </ul>
      )}
    </section>
  );
}
