// /providers/{id}: what a family sees of a helper before she comes. Her photo (or initial) and
// name, what she checked and when (VettingBadges: a check without a date says it is not done
// yet), services, the area she names (never where she lives), rate, rating, completed visits, how
// quickly she answers and how many of her last visits she completed (TrackRecord), and her newest
// public reviews. The page's props are GET /api/providers/{id}/profile's answer.
import { plural, t } from "@lingui/core/macro";
import { Avatar } from "../components/Avatar";
import { StarRating } from "../components/StarRating";
import { TrackRecord } from "../components/TrackRecord";
import { VettingBadges } from "../components/VettingBadges";
import { formatDate, formatMoney, personName, specialtyName } from "../lib/format";
import { mountIsland } from "../lib/mount";
import type { ProviderProfile } from "../lib/types";
import "../styles/people.css";

interface Props {
  profile: ProviderProfile;
}

function ProviderProfilePage({ profile }: Props) {
  const name = personName(profile.user) || t`Kindly helper`;
  const firstName = profile.user.firstName || name;
  const shown = profile.verificationStatus === "verified" && profile.isActive;
  const visits = profile.visitsCompleted;
  const rate = profile.hourlyRate != null ? formatMoney(profile.hourlyRate) : "";
  return (
    <article className="provider-profile" aria-labelledby="provider-profile-name" data-testid="provider-profile">
      <header className="provider-profile-head">
        <Avatar firstName={profile.user.firstName} imageUrl={profile.user.profileImageUrl || undefined} size="lg" />
        <div>
          <h1 id="provider-profile-name">{name}</h1>
          <StarRating rating={profile.rating} reviews={profile.totalReviews} />
          <p data-testid="visits-completed">
            {profile.visitsCompleted === 0
              ? t`New to Kindly: no completed visits yet`
              : plural(visits, { one: "# visit completed", other: "# visits completed" })}
          </p>
          <TrackRecord
            answerMinutes={profile.answerMinutes}
            completion={profile.completion}
            newHelperShown={profile.totalReviews === 0 || profile.visitsCompleted === 0}
          />
        </div>
      </header>
      {!shown && (
        <p className="notice" role="status" data-testid="profile-not-public">
          {t`Families cannot see this profile yet: it is shown once the helper is verified and active.`}
        </p>
      )}

      <section className="card" aria-labelledby="provider-checks-heading">
        <h2 id="provider-checks-heading">{t`What Kindly checked`}</h2>
        <VettingBadges
          identityVerifiedAt={profile.identityVerifiedAt}
          backgroundCheckedAt={profile.backgroundCheckedAt}
        />
      </section>

      <section className="card" aria-labelledby="provider-about-heading">
        <h2 id="provider-about-heading">{t`About ${firstName}`}</h2>
        <dl className="provider-facts">
          <div>
            <dt>{t`Services`}</dt>
            <dd data-testid="services">
              {profile.specialties.length > 0 ? profile.specialties.map(specialtyName).join(", ") : t`Not listed yet`}
            </dd>
          </div>
          <div>
            <dt>{t`Area`}</dt>
            <dd data-testid="service-area">{profile.serviceArea || t`Not listed yet`}</dd>
          </div>
          <div>
            <dt>{t`Languages`}</dt>
            <dd data-testid="speaks">{profile.speaks || t`Not listed yet`}</dd>
          </div>
          <div>
            <dt>{t`Rate`}</dt>
            <dd data-testid="rate">{rate ? t`${rate} per hour` : t`Not listed yet`}</dd>
          </div>
        </dl>
        {profile.bio && <p className="provider-bio">{profile.bio}</p>}
        {profile.experience && (
          <>
            <h3>{t`Experience`}</h3>
            <p>{profile.experience}</p>
          </>
        )}
        {shown && (
          <p>
            <a className="button button-primary" href={`/request-service?provider=${profile.id}`}>
              {t`Request ${firstName}`}
            </a>
          </p>
        )}
      </section>

      <section className="card" aria-labelledby="provider-reviews-heading">
        <h2 id="provider-reviews-heading">{t`Reviews`}</h2>
        {profile.reviews.length === 0 ? (
          <p className="muted">{t`No reviews yet.`}</p>
        ) : (
          <ul className="review-list" data-testid="reviews">
            {profile.reviews.map((review) => (
              <li key={review.id} className="review">
                <StarRating rating={review.rating} />
                {review.comment && <p>{review.comment}</p>}
                <p className="muted">
                  {[personName(review.reviewer), review.serviceName, formatDate(review.createdAt)]
                    .filter(Boolean)
                    .join(" · ")}
                </p>
              </li>
            ))}
          </ul>
        )}
      </section>
    </article>
  );
}

mountIsland(ProviderProfilePage, "provider-profile");
