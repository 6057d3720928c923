// /admin's Phone tab: the messages callers left for staff on Kindly's phone menu (option 0), newest
// first: who (a caller known by her PIN), when, how long, Twilio's transcription and the recording;
// then every call and text through a booking's Kindly line, paged: when, which way, how long, which
// booking. Never a phone number, never what was said or written.
import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { EmptyState } from "../../components/EmptyState";
import { Pager } from "../../components/Pager";
import { LoadingText } from "../../components/Skeleton";
import { formatDateTime } from "../../lib/format";
import { apiQuery } from "../../lib/query";
import type { StaffPhoneRecord, Voicemail } from "../../lib/types";
import { usePagedList } from "../../lib/usePagedList";
import { ListState, TableRegion } from "./ListParts";
import { ROWS_PER_PAGE } from "./common";

export const PHONE_RECORDS = "/api/admin/phone-records";

/** Which way a call or text went, in words ("Helper to family"); an unknown one as sent. */
function directionText(direction: string): string {
  const words: Record<string, string> = {
    helper_to_family: t`Helper to family`,
    family_to_helper: t`Family to helper`,
  };
  return words[direction] ?? direction;
}

/** A call's length in words ("4 min 05 s"); a text has none; a call not answered says so. */
export function callLength(record: Pick<StaffPhoneRecord, "kind" | "seconds">): string {
  if (record.kind === "text") return t`Text`;
  if (record.seconds === null || record.seconds === undefined) return t`Not connected`;
  const minutes = Math.floor(record.seconds / 60);
  const seconds = record.seconds % 60;
  const padded = String(seconds).padStart(2, "0");
  return minutes > 0 ? t`${minutes} min ${padded} s` : t`${seconds} s`;
}

function Voicemails() {
  const { data, isError } = useQuery(apiQuery<Voicemail[]>("/api/admin/voicemails"));
  if (!data) {
    return isError ? (
      <p role="alert">
        <Trans>The phone messages could not be loaded. Please try again.</Trans>
      </p>
    ) : (
      <LoadingText />
    );
  }
  if (data.length === 0) {
    return (
      <EmptyState title={t`No phone messages`} headingLevel={4}>
        <Trans>Messages callers leave for Kindly on the phone show here.</Trans>
      </EmptyState>
    );
  }
  return (
    <ul className="grid plain-list" data-testid="voicemails">
      {data.map((message) => {
        const at = formatDateTime(message.createdAt);
        const seconds = message.seconds;
        return (
          <li key={message.id} className="card">
            <h4 className="h3">{message.recipientName ?? t`A caller Kindly does not know`}</h4>
            <p className="muted">
              <Trans>
                {at}, {seconds} seconds
              </Trans>
            </p>
            <p className="prewrap">{message.transcription || t`No transcription yet.`}</p>
            <a className="button button-secondary" href={message.recordingUrl} rel="noreferrer" target="_blank">
              <Trans>Listen on Twilio</Trans>
            </a>
          </li>
        );
      })}
    </ul>
  );
}

function CallRecords() {
  const { list, offset, setOffset, pageSize } = usePagedList<StaffPhoneRecord>(PHONE_RECORDS, {}, ROWS_PER_PAGE);
  return (
    <>
      <ListState
        list={list}
        empty={
          <EmptyState title={t`No calls or texts yet`} headingLevel={4}>
            <Trans>Calls and texts between helpers and families through a visit&apos;s Kindly number show here.</Trans>
          </EmptyState>
        }
      >
        {(items) => (
          <TableRegion label={t`Calls and texts`}>
            <table className="data-table" data-testid="phone-records">
              <thead>
                <tr>
                  <th scope="col">
                    <Trans>When</Trans>
                  </th>
                  <th scope="col">
                    <Trans>Direction</Trans>
                  </th>
                  <th scope="col">
                    <Trans>Length</Trans>
                  </th>
                  <th scope="col">
                    <Trans>Booking</Trans>
                  </th>
                </tr>
              </thead>
              <tbody>
                {items.map((r) => (
                  <tr key={r.id} data-testid="phone-record">
                    <td>{formatDateTime(r.at)}</td>
                    <td>{directionText(r.direction)}</td>
                    <td>{callLength(r)}</td>
                    <td>
                      #{r.bookingId}: {r.bookingTitle}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableRegion>
        )}
      </ListState>
      {list.total !== null && (
        <Pager
          label={t`Calls and texts`}
          total={list.total}
          offset={offset}
          pageSize={pageSize}
          busy={list.state === "loading"}
          onPage={setOffset}
          testId="phone-records-pager"
        />
      )}
    </>
  );
}

export function PhoneTab() {
  return (
    <>
      <section aria-labelledby="phone-messages-heading">
        <h3 id="phone-messages-heading">
          <Trans>Messages for staff</Trans>
        </h3>
        <Voicemails />
      </section>
      <section aria-labelledby="phone-records-heading">
        <h3 id="phone-records-heading">
          <Trans>Calls and texts</Trans>
        </h3>
        <p className="muted">
          <Trans>
            Between helpers and families through a visit&apos;s Kindly number. Numbers and what was said are never kept.
          </Trans>
        </p>
        <CallRecords />
      </section>
    </>
  );
}
