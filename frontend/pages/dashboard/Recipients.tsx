// Whom the care is for: "For Harold Smith" on an item, and the switcher between the people in the
// viewer's care circles.
import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { fullName, type Recipient } from "./common";

/** "For Harold Smith": whom a booking or a request is for (a client's lists only). */
export function ForWhom({ recipient }: { recipient: Recipient | null | undefined }) {
  const name = fullName(recipient);
  return name ? (
    <p className="list-item-for" data-testid="item-recipient">
      <Trans>For {name}</Trans>
    </p>
  ) : null;
}

/** All / each recipient: links (a full page load, so it works without scripts and the address can
 * be shared), the current one marked for assistive technology. */
export function RecipientSwitcher({
  recipients,
  current,
  keepView,
}: {
  recipients: Recipient[];
  current: number | null;
  /** The client view of someone who is also a helper stays the client view. */
  keepView: boolean;
}) {
  const href = (id: number | null) => {
    const query = new URLSearchParams(keepView ? { view: "client" } : {});
    if (id !== null) query.set("recipient", String(id));
    const text = query.toString();
    return text ? `/dashboard?${text}` : "/dashboard";
  };
  if (recipients.length < 2) return null;
  const items: { id: number | null; label: string }[] = [
    { id: null, label: t`Everyone` },
    ...recipients.map((r) => ({ id: r.id, label: fullName(r) })),
  ];
  return (
    <nav className="recipient-switcher" aria-label={t`Whose care to show`} data-testid="recipient-switcher">
      <p className="recipient-switcher-label">
        <Trans>Show the care of:</Trans>
      </p>
      <ul className="recipient-switcher-list">
        {items.map((item) => (
          <li key={item.id ?? "all"}>
            <a
              className={`button ${item.id === current ? "button-primary" : "button-secondary"}`}
              href={href(item.id)}
              aria-current={item.id === current ? "page" : undefined}
            >
              {item.label}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
