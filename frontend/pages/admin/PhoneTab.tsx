// /admin's Phone tab: the messages callers left for staff on Kindly's phone menu (option 0), newest
// first: who (a caller known by her PIN), when, how long, Twilio's transcription and the recording.
import { useQuery } from "@tanstack/react-query";
import { EmptyState } from "../../components/EmptyState";
import { LoadingText } from "../../components/Skeleton";
import { formatDateTime } from "../../lib/format";
import { apiQuery } from "../../lib/query";
import type { Voicemail } from "../../lib/types";

export function PhoneTab() {
  const { data, isError } = useQuery(apiQuery<Voicemail[]>("/api/admin/voicemails"));
  if (!data) {
    return isError ? <p role="alert">The phone messages could not be loaded. Please try again.</p> : <LoadingText />;
  }
  if (data.length === 0) {
    return <EmptyState title="No phone messages">Messages callers leave for Kindly on the phone show here.</EmptyState>;
  }
  return (
    <ul className="grid plain-list" data-testid="voicemails">
      {data.map((message) => (
        <li key={message.id} className="card">
          <h3 className="h3">{message.recipientName ?? "A caller Kindly does not know"}</h3>
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
