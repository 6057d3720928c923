// One provider's application on /admin: contact, specialties, area, rate, bio and experience, with
// Approve / Reject while it waits for a decision (Approve again after a rejection).
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
  const name = personName(provider.user) || "Provider";
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
          <dt>Phone</dt>
          <dd>
            {provider.phone ? (
              <a href={`tel:${provider.phone.replace(/[^\d+]/g, "")}`}>{provider.phone}</a>
            ) : (
              "No phone given"
            )}
          </dd>
        </div>
        <div className="detail">
          <dt>Specialties</dt>
          <dd>{provider.specialties.length ? provider.specialties.map(specialtyName).join(", ") : "No specialties"}</dd>
        </div>
        <div className="detail">
          <dt>Service area</dt>
          <dd>{provider.serviceArea || "No area specified"}</dd>
        </div>
        <div className="detail">
          <dt>Hourly rate</dt>
          <dd>{provider.hourlyRate !== null ? `${formatMoney(provider.hourlyRate)} per hour` : "Not set"}</dd>
        </div>
      </dl>
      <dl className="admin-provider-texts">
        <div>
          <dt>Bio</dt>
          <dd className="prewrap">{provider.bio || "No bio"}</dd>
        </div>
        <div data-testid="admin-provider-experience">
          <dt>Experience</dt>
          <dd className="prewrap">{provider.experience || "No experience described"}</dd>
        </div>
      </dl>
      {(status === "pending" || status === "rejected") && (
        <div className="actions">
          <button type="button" className="button button-primary" disabled={busy} onClick={() => onStatus("verified")}>
            Approve<span className="visually-hidden"> {name}</span>
          </button>
          {status === "pending" && (
            <button type="button" className="button button-danger" disabled={busy} onClick={() => onStatus("rejected")}>
              Reject<span className="visually-hidden"> {name}</span>
            </button>
          )}
        </div>
      )}
    </li>
  );
}
