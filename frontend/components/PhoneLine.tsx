// "Call" and "Text" on a booking, for its helper and its care circle: both go through a Kindly
// number bound to the pair (phoneline on the server), so nobody's own number is shared. Hidden
// while Twilio is not set up; otherwise it says why it cannot connect (no number of yours, ended).
import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { errorMessage } from "../lib/api";
import { formatDateTime } from "../lib/format";
import { apiQuery, useApiWrite } from "../lib/query";
import type { PhoneLine as Line } from "../lib/types";

/** "+15005550101" as people read a US number: (500) 555-0101; others as they are. */
export function phoneDisplay(number: string): string {
  const us = /^\+1(\d{3})(\d{3})(\d{4})$/.exec(number);
  return us ? `(${us[1]}) ${us[2]}-${us[3]}` : number;
}

export function PhoneLine({ bookingId }: { bookingId: number }) {
  const path = `/api/bookings/${bookingId}/phone-line`;
  const client = useQueryClient();
  const { data } = useQuery(apiQuery<Line>(path));
  const { post, isPending } = useApiWrite();
  const [error, setError] = useState("");
  if (!data) return null;
  const confirmed = data.confirmedByPhone && (
    <p className="badge badge-success" data-testid="confirmed-by-phone">
      {t`Confirmed by phone`}
    </p>
  );
  // Without Twilio's masked lines (make run) a visit confirmed on the phone menu still says so.
  if (!data.setUp) return confirmed || null;

  async function getNumber() {
    setError("");
    try {
      const line = await post<Line>(path);
      client.setQueryData([path], line);
    } catch (err) {
      setError(errorMessage(err));
    }
  }

  const reaches = data.reaches;
  const until = data.endsAt ? formatDateTime(data.endsAt) : "";
  const shownNumber = data.number ? phoneDisplay(data.number) : "";
  return (
    <section className="card" aria-labelledby={`phone-line-${bookingId}`} data-testid="phone-line">
      <h2 id={`phone-line-${bookingId}`} className="h3">
        {data.available ? t`Call or text ${reaches}` : t`Call or text through Kindly`}
      </h2>
      {confirmed}
      <p>{data.message}</p>
      {data.available && data.number && (
        <>
          <p className="phone-line-number" data-testid="phone-line-number">
            <Trans>
              Kindly number: <strong>{shownNumber}</strong>
            </Trans>
          </p>
          <div className="actions">
            <a className="button button-primary" href={`tel:${data.number}`}>
              {t`Call ${reaches}`}
            </a>
            <a className="button button-secondary" href={`sms:${data.number}`}>
              {t`Text ${reaches}`}
            </a>
          </div>
          {until && <p className="muted">{t`This line works until ${until}.`}</p>}
        </>
      )}
      {data.available && !data.number && (
        <div className="actions">
          <button type="button" className="button button-primary" onClick={() => void getNumber()} disabled={isPending}>
            {isPending ? t`Getting the number...` : t`Get the number to call ${reaches}`}
          </button>
        </div>
      )}
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}
