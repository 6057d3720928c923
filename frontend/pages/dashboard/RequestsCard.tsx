// "Your Requests" / "Available Requests", or why a helper's account sees none yet.
import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
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
      title: t`Only verified providers see open requests`,
      text: t`To keep clients' homes and details safe, requests are shown to providers we have checked. Apply to become a provider: we review applications in 2-3 business days.`,
      action: { href: "/provider-signup", label: t`Apply to become a provider` },
    },
    pending: {
      title: t`Your application is being reviewed`,
      text: t`Thank you for applying. We review applications in 2-3 business days and will let you know. Once you are verified, open requests from clients appear here.`,
      action: null,
    },
    rejected: {
      title: t`Your application was not approved`,
      text: t`Open requests are shown to verified providers only. If you would like to know more about the decision, our support team is happy to help.`,
      action: { href: SUPPORT_LINK, label: t`Contact support` },
    },
    inactive: {
      title: t`Your provider profile is not active`,
      text: t`Open requests are shown to active, verified providers. Our support team can help you turn your profile back on.`,
      action: { href: SUPPORT_LINK, label: t`Contact support` },
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
      <h2 id="requests-heading">{provider ? t`Available Requests` : t`Your Requests`}</h2>
      {provider && providerStatus !== "verified" ? (
        <ProviderGate status={providerStatus} />
      ) : failed ? (
        <p role="alert" className="field-error">
          <Trans>We couldn't load requests: {failed}</Trans>
        </p>
      ) : requests.length === 0 ? (
        provider ? (
          <EmptyState title={t`No new requests available`} />
        ) : (
          <EmptyState
            title={t`No service requests yet`}
            action={
              <a className="button button-primary" href="/request-service">
                <Trans>Create Your First Request</Trans>
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
