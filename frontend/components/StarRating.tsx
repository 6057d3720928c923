// A read-only star rating: five stars drawn for sighted users, the number read out. A helper with
// no reviews yet is "New helper" rather than five grey stars and "0.0", which read as a bad helper.
import { plural, t } from "@lingui/core/macro";
import { intlLocale } from "../lib/i18n";
import "../styles/people.css";

export function StarRating({ rating, reviews }: { rating: number | string; reviews?: number }) {
  const reviewCount =
    reviews !== undefined ? (
      <span className="review-count">{plural(reviews, { one: "(# review)", other: "(# reviews)" })}</span>
    ) : null;
  if (reviews === 0) {
    return (
      <span className="star-rating" data-testid="star-rating">
        <span className="badge badge-info new-helper" data-testid="new-helper">
          {t`New helper`}
        </span>
        {reviewCount}
      </span>
    );
  }
  const value = Math.max(0, Math.min(5, Number(rating) || 0));
  const full = Math.round(value);
  const score = value.toLocaleString(intlLocale(), { minimumFractionDigits: 1, maximumFractionDigits: 1 });
  const label = t`Rated ${score} out of 5`;
  return (
    <span className="star-rating" data-testid="star-rating">
      <span className="stars" role="img" aria-label={label}>
        {"★".repeat(full)}
        <span className="stars-empty">{"★".repeat(5 - full)}</span>
      </span>
      <span className="rating-value" aria-hidden="true">
        {value.toFixed(1)}
      </span>
      {reviewCount}
    </span>
  );
}
