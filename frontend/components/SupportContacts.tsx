// Kindly's support contacts as the server's settings say them (core.support): the same
// words as the pages' footer and the emails. Nothing is shown that the settings do not say.
import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";

export interface SupportContactsInfo {
  email: string;
  phone: string;
  phoneHref: string;
  availability: string;
  alwaysOpen: boolean;
  conversation: string;
}

/** "When we answer" and the other ways to reach support (email, phone), when there are any. */
export function SupportContacts({ contacts }: { contacts: SupportContactsInfo }) {
  const { email, phone, phoneHref, availability } = contacts;
  if (!availability && !email && !phone) return null;
  return (
    <div className="support-contacts">
      {availability && <p data-testid="support-hours">{t`Hours: ${availability}`}</p>}
      {(email || phone) && (
        <p data-testid="support-other-ways">
          {email && phone ? (
            <Trans>
              You can also reach us by email at <a href={`mailto:${email}`}>{email}</a> or by phone at{" "}
              <a href={phoneHref}>{phone}</a>.
            </Trans>
          ) : email ? (
            <Trans>
              You can also reach us by email at <a href={`mailto:${email}`}>{email}</a>.
            </Trans>
          ) : (
            <Trans>
              You can also reach us by phone at <a href={phoneHref}>{phone}</a>.
            </Trans>
          )}
        </p>
      )}
    </div>
  );
}
