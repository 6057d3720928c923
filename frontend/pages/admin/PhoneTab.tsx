// /admin's Phone tab: the messages callers left for staff on Kindly's phone menu (option 0), newest
// first: who (a caller known by her PIN), when, how long, Twilio's transcription and the recording;
// then every call and text through a booking's Kindly line, paged: when, which way, how long, which
// booking. Never a phone number, never what was said or written.
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

const DIRECTIONS: Record<string, string> = {
  helper_to_family: "Helper to family",
  family_to_helper: "Family to helper",
};

/** A call's length in words ("4 min 05 s"); a text has none; a call not answered says so. */
export function callLength(record: Pick<StaffPhoneRecord, "kind" | "seconds">): string {
  if (record.kind === "text") return "Text";
  if (record.seconds === null || record.seconds === undefined) return "Not connected";
  const minutes = Math.floor(record.seconds / 60);
  const seconds = record.seconds % 60;
  return minutes > 0 ? `${minutes} min ${String(seconds).padStart(2, "0")} s` : `${seconds} s`;
}

function Voicemails() {
  const { data, isError } = useQuery(apiQuery<Voicemail[]>("/api/admin/voicemails"));
  if (!data) {
    return isError ? <p role="alert">The phone messages could not be loaded. Please try again.</p> : <LoadingText />;
  }
  if (data.length === 0) {
    return (
      <EmptyState title="No phone messages" headingLevel={4}>
        Messages callers leave for Kindly on the phone show here.
      </EmptyState>
    );
  }
  return (
    <ul className="grid plain-list" data-testid="voicemails">
      {data.map((message) => (
        <li key={message.id} className="card">
          <h4 className="h3">{message.recipientName ?? "A caller Kindly does not know"}</h4>
          <p className="muted">
            {formatDateTime(message.createdAt)}, {message.seconds} seconds
          </p>
          <p className="prewrap">{message.transcription || "No transcription yet."}</p>
          <a className="button button-secondary" href={message.recordingUrl} rel="noreferrer" target="_blank">
            Listen on Twilio
          </a>
        </li>
      ))}
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
          <EmptyState title="No calls or texts yet" headingLevel={4}>
            Calls and texts between helpers and families through a visit&apos;s Kindly number show here.
          </EmptyState>
        }
      >
        {(items) => (
          <TableRegion label="Calls and texts">
            <table className="data-table" data-testid="phone-records">
              <thead>
                <tr>
                  <th scope="col">When</th>
                  <th scope="col">Direction</th>
                  <th scope="col">Length</th>
                  <th scope="col">Booking</th>
                </tr>
              </thead>
              <tbody>
                {items.map((r) => (
                  <tr key={r.id} data-testid="phone-record">
                    <td>{formatDateTime(r.at)}</td>
                    <td>{DIRECTIONS[r.direction] ?? r.direction}</td>
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
          label="Calls and texts"
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
        <h3 id="phone-messages-heading">Messages for staff</h3>
        <Voicemails />
      </section>
      <section aria-labelledby="phone-records-heading">
        <h3 id="phone-records-heading">Calls and texts</h3>
        <p className="muted">
          Between helpers and families through a visit&apos;s Kindly number. Numbers and what was said are never kept.
        </p>
        <CallRecords />
      </section>
    </>
  );
}
