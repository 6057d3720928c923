// Who the other party of a booking is: a client sees the helper who is coming (photo
// or initial, name linked to her profile page, rating, what Kindly checked and when, a Message
// link); a provider sees the client they visit.
import { t } from "@lingui/core/macro";
import { personName } from "../lib/format";
import type { Booking, PersonSummary } from "../lib/types";
import { Avatar } from "./Avatar";
import { StarRating } from "./StarRating";
import { VettingBadges } from "./VettingBadges";
import "../styles/people.css";

/** The messages page with a booking's conversation open: the one of its care recipient and
 * provider (messages.tsx reads ?booking=), so a family with two people cared for by one helper
 * lands in the right one. */
export function bookingMessageLink(bookingId: number): string {
  return `/messages?booking=${bookingId}`;
}

/** A helper's profile page: what Kindly checked about her and when, her reviews. */
export function providerProfileLink(providerId: number): string {
  return `/providers/${providerId}`;
}

/** The messages page with the support conversation open. */
export const SUPPORT_LINK = "/messages?with=support";
/** The cancellation policy page (linked from every cancel dialog and the cards). */
export const CANCELLATION_POLICY = "/cancellation-policy";

function Person({
  label,
  person,
  href,
  rating,
  profileHref,
  vetting,
  testId,
}: {
  label: string;
  person: PersonSummary;
  href: string;
  rating?: { value: number | string; reviews: number };
  profileHref?: string;
  vetting?: { identityVerifiedAt?: string | null; backgroundCheckedAt?: string | null };
  testId: string;
}) {
  const name = personName({ firstName: person.firstName, lastName: person.lastName }) || "Kindly member";
  return (
    <div className="booking-person" data-testid={testId}>
      <Avatar
        firstName={person.firstName}
        imageUrl={("profileImageUrl" in person && person.profileImageUrl) || undefined}
        size="md"
      />
      <div className="booking-person-text">
        <span className="booking-person-label">{label}</span>
        <span className="booking-person-name" data-testid={`${testId}-name`}>
          {profileHref ? <a href={profileHref}>{name}</a> : name}
        </span>
        {rating && <StarRating rating={rating.value} reviews={rating.reviews} />}
        {vetting && <VettingBadges {...vetting} testId={`${testId}-vetting`} />}
      </div>
      <a className="button button-secondary booking-person-action" href={href}>
        {t`Message`}
        <span className="visually-hidden"> {name}</span>
      </a>
    </div>
  );
}

/** The helper for the client (and staff), the client for the provider. Nothing when unknown. */
export function BookingPerson({ booking, perspective }: { booking: Booking; perspective: "client" | "provider" }) {
  if (perspective === "provider") {
    if (!booking.client) return null;
    return (
      <Person
        label={t`Your client`}
        person={booking.client}
        href={bookingMessageLink(booking.id)}
        testId="booking-client"
      />
    );
  }
  const provider = booking.provider;
  if (!provider?.user) return null;
  return (
    <Person
      label={t`Your helper`}
      person={provider.user}
      href={bookingMessageLink(booking.id)}
      rating={{ value: provider.rating ?? 0, reviews: provider.totalReviews ?? 0 }}
      profileHref={providerProfileLink(provider.id)}
      vetting={{ identityVerifiedAt: provider.identityVerifiedAt, backgroundCheckedAt: provider.backgroundCheckedAt }}
      testId="booking-helper"
    />
  );
}
