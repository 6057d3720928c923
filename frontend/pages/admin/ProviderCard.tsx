// One provider's application on /admin: contact, specialties, area, rate, bio and experience, with
// Approve / Reject while it waits for a decision (Approve again after a rejection).
import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { StatusBadge } from "../../components/StatusBadge";
import { formatMoney, personName, specialtyName } from "../../lib/format";
import type { Provider } from "../../lib/types";
import type { Verdict } from "./common";

export function ProviderCard({
  provider,
  onStatus,
  busy,
}: {
  provider: Provider;
  onStatus: (status: Verdict) => void;
  busy: boolean;
}) {
  const name = personName(provider.user) || t`Provider`;
  const rate = formatMoney(provider.hourlyRate);
  const status = provider.verificationStatus;
  return (
    <li className="card admin-provider" data-testid="admin-provider">
      <div className="card-head">
        <div>
          <h4 className="admin-provider-name">{name}</h4>
          <p className="muted break">{provider.user?.email}</p>
        </div>
        <StatusBadge status={provider.verificationStatus} />
      </div>
      <dl className="details">
        <div className="detail">
          <dt>
            <Trans>Phone</Trans>
          </dt>
          <dd>
            {provider.phone ? (
              <a href={`tel:${provider.phone.replace(/[^\d+]/g, "")}`}>{provider.phone}</a>
            ) : (
              t`No phone given`
            )}
          </dd>
        </div>
        <div className="detail">
          <dt>
            <Trans>Specialties</Trans>
          </dt>
          <dd>
            {provider.specialties.length ? provider.specialties.map(specialtyName).join(", ") : t`No specialties`}
          </dd>
        </div>
        <div className="detail">
          <dt>
            <Trans>Service area</Trans>
          </dt>
          <dd>{provider.serviceArea || t`No area specified`}</dd>
        </div>
        <div className="detail">
          <dt>
            <Trans>Hourly rate</Trans>
          </dt>
          <dd>{provider.hourlyRate !== null ? t`${rate} per hour` : t`Not set`}</dd>
        </div>
      </dl>
      <dl className="admin-provider-texts">
        <div>
          <dt>
            <Trans>Bio</Trans>
          </dt>
          <dd className="prewrap">{provider.bio || t`No bio`}</dd>
        </div>
        <div data-testid="admin-provider-experience">
          <dt>
            <Trans>Experience</Trans>
          </dt>
          <dd className="prewrap">{provider.experience || t`No experience described`}</dd>
        </div>
      </dl>
      {(status === "pending" || status === "rejected") && (
        <div className="actions">
          <button type="button" className="button button-primary" disabled={busy} onClick={() => onStatus("verified")}>
            <Trans>
              Approve<span className="visually-hidden"> {name}</span>
            </Trans>
          </button>
          {status === "pending" && (
            <button type="button" className="button button-danger" disabled={busy} onClick={() => onStatus("rejected")}>
              <Trans>
                Reject<span className="visually-hidden"> {name}</span>
              </Trans>
            </button>
          )}
        </div>
      )}
    </li>
  );
}
