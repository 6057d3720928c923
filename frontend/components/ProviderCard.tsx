// A provider's card on /providers: who she is (her name links to her profile page), her rating,
// how quickly she answers and how many of her last visits she completed (TrackRecord), when she is
// next free, how far she is from the person cared for ("3.2 miles away", when the page asks near
// someone), her services and
// rate, the languages she speaks ("Speaks English, Spanish", in the reader's language, from the
// server), and a request sent to her directly.
import { t } from "@lingui/core/macro";
import { intlLocale } from "../lib/i18n";
import { Avatar } from "./Avatar";
import { providerProfileLink } from "./BookingPerson";
import { StarRating } from "./StarRating";
import { TrackRecord } from "./TrackRecord";
import { formatMoney, milesAway, parseDateOnly, personName } from "../lib/format";
import type { BrowseProvider as Provider, NextFreeWindow } from "../lib/types";

const MAX_CHIPS = 3;

/** A part of the day, as the "Next free" line says it ("morning"). */
function visitWindowWord(window: string): string {
  const words: Record<string, string> = { morning: t`morning`, afternoon: t`afternoon`, evening: t`evening` };
  return words[window] ?? window;
}

/** "Next free: Tuesday, November 24, morning", or that there is none in the next two weeks. */
function nextFreeText(next: NextFreeWindow | null | undefined): string {
  const day = next ? parseDateOnly(next.date) : null;
  if (!next || !day) return t`No free time in the next 2 weeks`;
  const date = day.toLocaleDateString(intlLocale(), { weekday: "long", month: "long", day: "numeric" });
  const window = visitWindowWord(next.timeWindow);
  return t`Next free: ${date}, ${window}`;
}

export function ProviderCard({ provider, serviceName }: { provider: Provider; serviceName: (id: string) => string }) {
  const name = personName(provider.user) || t`Kindly provider`;
  const chips = provider.specialties.slice(0, MAX_CHIPS);
  const more = provider.specialties.length - chips.length;
  const first = provider.specialties[0];
  const headingId = `provider-${provider.id}-name`;
  return (
    <article className="card provider-card" aria-labelledby={headingId} data-testid="provider-card">
      <div className="provider-card-head">
        <Avatar firstName={provider.user.firstName} imageUrl={provider.user.profileImageUrl} />
        <div>
          <h3 id={headingId} className="provider-name" tabIndex={-1}>
            <a href={providerProfileLink(provider.id)}>{name}</a>
          </h3>
          {first && <p className="provider-specialty muted">{serviceName(first)}</p>}
        </div>
        {provider.verificationStatus === "verified" && <span className="badge badge-success">{t`Verified`}</span>}
      </div>
      <StarRating rating={provider.rating} reviews={provider.totalReviews} />
      {provider.distanceMiles != null && (
        <p className="provider-distance" data-testid="distance">
          {milesAway(provider.distanceMiles)}
        </p>
      )}
      <TrackRecord
        answerMinutes={provider.answerMinutes}
        completion={provider.completion}
        newHelperShown={provider.totalReviews === 0}
      />
      <p className="provider-next-free" data-testid="next-free">
        {nextFreeText(provider.nextFreeWindow)}
      </p>
      {provider.speaks && (
        <p className="provider-languages" data-testid="speaks">
          {provider.speaks}
        </p>
      )}
      {provider.bio && <p className="provider-bio">{provider.bio}</p>}
      {provider.serviceArea && (
        <p className="provider-area">
          <span className="label">{t`Service area:`}</span> {provider.serviceArea}
        </p>
      )}
      {chips.length > 0 && (
        <ul className="tag-list" aria-label={t`Services offered`}>
          {chips.map((s) => (
            <li key={s} className="tag">
              {serviceName(s)}
            </li>
          ))}
          {more > 0 && <li className="tag tag-more">{t`+${more} more`}</li>}
        </ul>
      )}
      <div className="provider-card-foot">
        <p className="provider-rate">
          <strong>{formatMoney(provider.hourlyRate ?? 30)}</strong>
          <span className="muted">{t`/hour`}</span>
        </p>
        {/* A request sent to this provider directly, their service chosen. */}
        <a
          className="button button-primary"
          href={`/request-service?provider=${provider.id}`}
          aria-label={t`Request this helper: ${name}`}
        >
          {t`Request this helper`}
        </a>
      </div>
    </article>
  );
}
