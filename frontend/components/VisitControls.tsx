// The visit itself: the provider's large "Check in" / "Check out" buttons on the day of
// a visit, the visit report written at check-out (or corrected within 24 hours), and what the
// family sees as it happens ("Checked in at 9:04", "Visit report ready"). Reads and writes go
// through TanStack Query (lib/query), which also handles a lost session.
import { useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { ApiError, errorMessage, isUnauthorizedError } from "../lib/api";
import { formatClock, formatVisitMoment, timeWindowLabel } from "../lib/format";
import { apiQuery, useApiWrite } from "../lib/query";
import { useSchemaForm } from "../lib/forms";
import { TEXT_MAX, visitReportPayload, visitReportSchema, type VisitReportValues } from "../lib/schemas/booking";
import { toast } from "../lib/toast";
import type { Booking } from "../lib/types";
import { Dialog, DialogClose } from "./Dialog";
import { CheckboxOption, FieldSet, RadioOption, TextareaField } from "./Field";

export const WELLBEING: { value: number; label: string }[] = [
  { value: 1, label: "Not well at all" },
  { value: 2, label: "A little low" },
  { value: 3, label: "Okay" },
  { value: 4, label: "Good" },
  { value: 5, label: "In great spirits" },
];

const CHECK_IN_FROM_MS = 30 * 60 * 1000;
const REPORT_EDIT_MS = 24 * 60 * 60 * 1000;

export interface VisitReport {
  bookingId: number;
  tasksDone: string[];
  notes: string;
  wellbeing: number;
  wellbeingLabel: string;
  forFamily: string;
  followUpSuggested: boolean;
  createdAt: string;
  updatedAt: string;
  edits: { editedAt: string; before: Record<string, unknown> }[];
}

interface Category {
  id: number;
  features: string[];
}

/** The report of a visit, as the API answers it (the family's view and the provider's correction). */
function reportQuery(bookingId: number) {
  return apiQuery<VisitReport>(`/api/bookings/${bookingId}/report`);
}

/** A lost session is lib/query's (toast, then sign in again); anything else is a toast here. */
function failed(error: unknown, fallback: string): void {
  if (isUnauthorizedError(error)) return;
  const text = error instanceof ApiError && error.serverMessage ? error.serverMessage : errorMessage(error) || fallback;
  toast({ title: "Error", description: text, variant: "destructive" });
}

/** Where the browser is, when the provider agreed to share it (null if it cannot tell within 10 s). */
function currentPosition(): Promise<{ latitude: number; longitude: number } | null> {
  if (!("geolocation" in navigator)) return Promise.resolve(null);
  return new Promise((resolve) => {
    navigator.geolocation.getCurrentPosition(
      (p) => resolve({ latitude: p.coords.latitude, longitude: p.coords.longitude }),
      () => resolve(null),
      { timeout: 10_000, maximumAge: 60_000 },
    );
  });
}

/** The clock of the person cared for: every time of her visit is read on it. */
export function zoneOf(booking: { recipient?: { timeZone?: string } | null }): string | undefined {
  return booking.recipient?.timeZone || undefined;
}

/** The helper hears first: the latest start that still fits the window the family was told
 * (booking.checkInBy), said on her card before anyone is alerted; "" once checked in. */
export function checkInByNote(
  booking: Pick<Booking, "status" | "checkedInAt" | "checkInBy" | "scheduledTime"> & {
    recipient?: { timeZone?: string } | null;
  },
): string {
  if (booking.status !== "confirmed" || booking.checkedInAt || !booking.checkInBy) return "";
  const by = formatClock(booking.checkInBy, zoneOf(booking));
  return `Please check in by ${by} at the latest, so the visit fits the time the family was told (${timeWindowLabel(booking.scheduledTime)}). After that they are told you are late.`;
}

/** Is the visit on the provider's list for today (from 30 minutes before its start to its check-out)? */
export function checkInOpen(booking: Booking, now = Date.now()): boolean {
  return (
    booking.status === "confirmed" && !booking.checkedInAt && now >= Date.parse(booking.visitStart) - CHECK_IN_FROM_MS
  );
}

function reportEditable(booking: Booking, now = Date.now()): boolean {
  return (
    booking.status === "completed" && !!booking.checkedOutAt && now - Date.parse(booking.checkedOutAt) <= REPORT_EDIT_MS
  );
}

/** The provider's buttons for one visit; nothing when there is nothing to do yet. */
export function ProviderVisitActions({ booking, onChanged }: { booking: Booking; onChanged: () => void }) {
  const [shareLocation, setShareLocation] = useState(false);
  const [busy, setBusy] = useState(false);
  const [reporting, setReporting] = useState<"check-out" | "edit" | null>(null);
  const [nobodyHome, setNobodyHome] = useState(false);
  const { post } = useApiWrite();
  const title = booking.serviceRequest.title;
  // Shown again when check-in opens (30 minutes before the start), without a reload.
  const [, setOpened] = useState(0);
  useEffect(() => {
    const opensIn = Date.parse(booking.visitStart) - CHECK_IN_FROM_MS - Date.now();
    if (opensIn <= 0 || opensIn > 12 * 60 * 60 * 1000) return;
    const timer = window.setTimeout(() => setOpened((n) => n + 1), opensIn + 500);
    return () => window.clearTimeout(timer);
  }, [booking.visitStart]);

  const checkIn = async () => {
    setBusy(true);
    try {
      const position = shareLocation ? await currentPosition() : null;
      if (shareLocation && !position) {
        toast({
          title: "Location not shared",
          description: "We could not read your location; checking in without it.",
        });
      }
      await post(`/api/bookings/${booking.id}/check-in`, position ?? {});
      toast({ title: "Checked in", description: `The family knows you have arrived for "${title}".` });
      onChanged();
    } catch (error) {
      failed(error, "Could not check in. Please try again.");
    } finally {
      setBusy(false);
    }
  };

  if (checkInOpen(booking)) {
    return (
      <div className="visit-actions" data-testid="visit-actions">
        {checkInByNote(booking) && (
          <p className="visit-progress" data-testid="check-in-by">
            {checkInByNote(booking)}
          </p>
        )}
        <CheckboxOption
          id={`share-location-${booking.id}`}
          checked={shareLocation}
          onChange={(e) => setShareLocation(e.currentTarget.checked)}
          label="Share my location for this check-in"
          description="Only an approximate place (about 100 m) is kept, for 90 days."
        />
        <button type="button" className="button button-primary button-large" disabled={busy} onClick={checkIn}>
          {busy ? "Checking in..." : "Check in"}
          <span className="visually-hidden"> for {title}</span>
        </button>
      </div>
    );
  }
  const start = Date.parse(booking.visitStart);
  if (
    booking.status === "confirmed" &&
    !booking.checkedInAt &&
    new Date(start).toDateString() === new Date().toDateString()
  ) {
    // Today, not open yet: say when it opens (the button appears then).
    return (
      <p className="visit-progress" data-testid="check-in-opens">
        Check-in opens at {formatClock(new Date(start - CHECK_IN_FROM_MS).toISOString(), zoneOf(booking))}.
      </p>
    );
  }
  if (booking.status === "confirmed" && booking.checkedInAt) {
    return (
      <div className="visit-actions" data-testid="visit-actions">
        <p className="visit-progress">
          Checked in at {formatVisitMoment(booking.checkedInAt, booking.scheduledDate, undefined, zoneOf(booking))}
        </p>
        <button type="button" className="button button-primary button-large" onClick={() => setReporting("check-out")}>
          Check out<span className="visually-hidden"> of {title}</span>
        </button>
        <button type="button" className="button button-secondary" onClick={() => setNobodyHome(true)}>
          Nobody is home<span className="visually-hidden"> for {title}</span>
        </button>
        <NobodyHomeDialog booking={booking} open={nobodyHome} onClose={() => setNobodyHome(false)} onDone={onChanged} />
        <VisitReportDialog
          booking={booking}
          mode={reporting}
          shareLocation={shareLocation}
          onClose={() => setReporting(null)}
          onDone={onChanged}
        />
      </div>
    );
  }
  if (reportEditable(booking)) {
    return (
      <div className="visit-actions" data-testid="visit-actions">
        <button type="button" className="button button-secondary" onClick={() => setReporting("edit")}>
          {booking.hasReport ? "Correct the visit report" : "Write the visit report"}
          <span className="visually-hidden"> of {title}</span>
        </button>
        <VisitReportDialog booking={booking} mode={reporting} onClose={() => setReporting(null)} onDone={onChanged} />
      </div>
    );
  }
  return null;
}

/** The helper checked in and nobody opens the door: the visit is cancelled and she is paid the
 * late fee (the cancellation policy; the amount is the server's, told after the report). */
export function NobodyHomeDialog({
  booking,
  open,
  onClose,
  onDone,
}: {
  booking: Booking;
  open: boolean;
  onClose: () => void;
  onDone: () => void;
}) {
  const [share, setShare] = useState(false);
  const [busy, setBusy] = useState(false);
  const { post } = useApiWrite();
  const report = async () => {
    setBusy(true);
    try {
      const position = share ? await currentPosition() : null;
      await post(`/api/bookings/${booking.id}/nobody-home`, position ?? {});
      toast({
        title: "Reported: nobody home",
        description: "The visit is cancelled and the family is told. You will be paid the late fee.",
      });
      onClose();
      onDone();
    } catch (error) {
      failed(error, "Could not send the report. Please try again.");
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => !next && onClose()}
      title="Nobody is home?"
      description="Only report this after you have knocked, rung and waited. The visit will be cancelled."
      testId="nobody-home-dialog"
      footer={
        <>
          <DialogClose>Keep the visit</DialogClose>
          <button type="button" className="button button-danger" disabled={busy} onClick={report}>
            {busy ? "Sending..." : "Report nobody home"}
          </button>
        </>
      }
    >
      <p>
        We keep the time of this report. The family is told at once and you are paid a late fee, as{" "}
        <a href="/cancellation-policy" target="_blank" rel="noopener">
          our cancellation policy<span className="visually-hidden"> (opens in a new tab)</span>
        </a>{" "}
        says.
      </p>
      <CheckboxOption
        id={`nobody-home-location-${booking.id}`}
        checked={share}
        onChange={(e) => setShare(e.currentTarget.checked)}
        label="Share my location with this report"
        description="Only an approximate place (about 100 m) is kept, for 90 days."
      />
    </Dialog>
  );
}

const EMPTY: VisitReportValues = { tasksDone: [], notes: "", wellbeing: null, forFamily: "", followUpSuggested: false };
const REPORT_FIELDS = ["tasksDone", "notes", "wellbeing", "forFamily", "followUpSuggested"] as const;

/** The report form: at check-out (POST check-out with it) or to write/correct it later (PUT). */
export function VisitReportDialog({
  booking,
  mode,
  shareLocation = false,
  onClose,
  onDone,
}: {
  booking: Booking;
  mode: "check-out" | "edit" | null;
  shareLocation?: boolean;
  onClose: () => void;
  onDone: () => void;
}) {
  const {
    form,
    values: draft,
    set,
    error,
    submitting: busy,
  } = useSchemaForm<VisitReportValues>({ schema: visitReportSchema, defaultValues: EMPTY, onChange: "none" });
  const categoryId = booking.serviceRequest.categoryId;
  const editing = mode === "edit" && booking.hasReport;
  // The checklist is the service's features (none if they cannot be read); a correction starts from the report.
  const categories = useQuery({ ...apiQuery<Category[]>("/api/service-categories"), enabled: mode !== null });
  const checklist = categories.data?.find((c) => c.id === categoryId)?.features ?? [];
  const saved = useQuery({ ...reportQuery(booking.id), enabled: editing });
  // A saved or corrected report is read again where it is shown.
  const { post, put } = useApiWrite([reportQuery(booking.id).queryKey]);

  const { reset, clearErrors } = form;
  useEffect(() => {
    if (mode === null) return;
    if (editing) clearErrors();
    else reset(EMPTY);
  }, [mode, editing, reset, clearErrors]);
  useEffect(() => {
    if (mode !== null && editing && saved.data) reset(visitReportPayload(saved.data));
  }, [mode, editing, saved.data, reset]);

  const submit = form.handleSubmit(async (checked) => {
    try {
      const report = visitReportPayload(checked);
      if (mode === "check-out") {
        const position = shareLocation ? await currentPosition() : null;
        await post(`/api/bookings/${booking.id}/check-out`, { report, ...(position ?? {}) });
        toast({ title: "Checked out", description: "Thank you. The family can now read your visit report." });
      } else {
        await put(`/api/bookings/${booking.id}/report`, report);
        toast({ title: "Report saved", description: "The family can read it on the booking." });
      }
      onClose();
      onDone();
    } catch (error) {
      if (error instanceof ApiError && error.status === 400) {
        // Check-out nests the report ("report.wellbeing"); the rules of its content answer by field name.
        for (const [key, messages] of Object.entries(error.fieldErrors)) {
          const name = REPORT_FIELDS.find((field) => field === key.replace(/^report\./, ""));
          if (name && messages[0]) form.setError(name, { type: "server", message: messages[0] });
        }
      }
      failed(error, "Could not save the report. Please try again.");
    }
  });

  const id = `report-${booking.id}`;
  return (
    <Dialog
      open={mode !== null}
      onOpenChange={(open) => !open && onClose()}
      title={mode === "check-out" ? "Check out and report" : "Visit report"}
      description={`How did the visit for "${booking.serviceRequest.title}" go? The family reads this.`}
      testId="visit-report-dialog"
      footer={
        <>
          <DialogClose>Not now</DialogClose>
          <button type="button" className="button button-primary" disabled={busy} onClick={submit}>
            {busy ? "Saving..." : mode === "check-out" ? "Check out" : "Save report"}
          </button>
        </>
      }
    >
      {checklist.length > 0 && (
        <FieldSet id={`${id}-tasks`} legend="What was done" error={error("tasksDone")}>
          {checklist.map((item, i) => (
            <CheckboxOption
              key={item}
              id={`${id}-task-${i}`}
              label={item}
              checked={draft.tasksDone.includes(item)}
              onChange={(e) =>
                set(
                  "tasksDone",
                  e.currentTarget.checked ? [...draft.tasksDone, item] : draft.tasksDone.filter((t) => t !== item),
                )
              }
            />
          ))}
        </FieldSet>
      )}
      <TextareaField
        id={`${id}-notes`}
        label={checklist.length > 0 ? "Anything else you did" : "What was done"}
        value={draft.notes}
        maxLength={TEXT_MAX}
        error={error("notes")}
        onChange={(e) => set("notes", e.currentTarget.value)}
      />
      <FieldSet id={`${id}-wellbeing`} legend="How did they seem?" required error={error("wellbeing")}>
        {WELLBEING.map((w) => (
          <RadioOption
            key={w.value}
            id={`${id}-wellbeing-${w.value}`}
            name={`${id}-wellbeing`}
            label={`${w.value}: ${w.label}`}
            checked={draft.wellbeing === w.value}
            onChange={() => set("wellbeing", w.value)}
          />
        ))}
      </FieldSet>
      <TextareaField
        id={`${id}-family`}
        label="Anything the family should know"
        value={draft.forFamily}
        maxLength={TEXT_MAX}
        error={error("forFamily")}
        onChange={(e) => set("forFamily", e.currentTarget.value)}
      />
      <CheckboxOption
        id={`${id}-follow-up`}
        label="I suggest a follow-up visit"
        checked={draft.followUpSuggested}
        onChange={(e) => set("followUpSuggested", e.currentTarget.checked)}
      />
    </Dialog>
  );
}

/** The report of a visit as the family reads it (loaded when shown); when it was written and last
 * corrected on the clock of the person cared for, like every time of the visit. */
export function ReportDetails({
  booking,
}: {
  booking: Pick<Booking, "id" | "scheduledDate"> & { recipient?: { timeZone?: string } | null };
}) {
  const { data: report, isError } = useQuery(reportQuery(booking.id));
  const moment = (value: string) => formatVisitMoment(value, booking.scheduledDate, undefined, zoneOf(booking));
  if (isError) return <p role="alert">The visit report could not be loaded. Please try again.</p>;
  if (report === undefined) return <p>Loading the visit report...</p>;
  return (
    <dl className="visit-report" data-testid="visit-report-details">
      <dt>Written at</dt>
      <dd>{moment(report.createdAt)}</dd>
      <dt>How they seemed</dt>
      <dd>
        {report.wellbeing} of 5: {report.wellbeingLabel}
      </dd>
      {report.tasksDone.length > 0 && (
        <>
          <dt>What was done</dt>
          <dd>
            <ul>
              {report.tasksDone.map((t) => (
                <li key={t}>{t}</li>
              ))}
            </ul>
          </dd>
        </>
      )}
      {report.notes && (
        <>
          <dt>Notes</dt>
          <dd>{report.notes}</dd>
        </>
      )}
      {report.forFamily && (
        <>
          <dt>For the family</dt>
          <dd>{report.forFamily}</dd>
        </>
      )}
      <dt>Follow-up</dt>
      <dd>{report.followUpSuggested ? "The helper suggests a follow-up visit." : "None suggested."}</dd>
      {report.edits.length > 0 && (
        <>
          <dt>Corrections</dt>
          <dd>
            Corrected by the helper {report.edits.length === 1 ? "once" : `${report.edits.length} times`}, last at{" "}
            {moment(report.updatedAt)}.
          </dd>
        </>
      )}
    </dl>
  );
}

/** Is the review offered yet? Once the visit report is in, or when none came within 24 hours of the
 * check-out (or the visit was closed before check-outs were recorded). */
export function reviewReady(booking: Booking, now = Date.now()): boolean {
  if (booking.hasReport || !booking.checkedOutAt) return true;
  return now - Date.parse(booking.checkedOutAt) > REPORT_EDIT_MS;
}

/** What the family sees of a visit as it happens, with the report once it is in. */
export function VisitProgress({ booking, now }: { booking: Booking; now?: number }) {
  const [open, setOpen] = useState(false);
  const [shownAt] = useState(() => Date.now());
  const at = now ?? shownAt;
  const lines: string[] = [];
  // Inside the window the family was told, a helper not there yet is on time: say until when.
  if (
    booking.visitState === "upcoming" &&
    booking.status === "confirmed" &&
    !booking.checkedInAt &&
    booking.checkInBy &&
    at >= Date.parse(booking.visitStart)
  )
    lines.push(`The helper may arrive any time until ${formatClock(booking.checkInBy, zoneOf(booking))}`);
  if (booking.visitState === "late") lines.push("Late: the helper has not checked in yet");
  if (booking.visitState === "missed") lines.push("The helper did not check in");
  if (booking.checkedInAt)
    lines.push(
      `Checked in at ${formatVisitMoment(booking.checkedInAt, booking.scheduledDate, undefined, zoneOf(booking))}`,
    );
  if (booking.checkedOutAt)
    lines.push(
      `Checked out at ${formatVisitMoment(booking.checkedOutAt, booking.scheduledDate, undefined, zoneOf(booking))}`,
    );
  if (lines.length === 0 && !booking.hasReport) return null;
  return (
    <div className="visit-progress" data-testid="visit-progress" aria-live="polite">
      {lines.map((line) => (
        <p key={line}>{line}</p>
      ))}
      {booking.hasReport && (
        <>
          <p>
            <strong>Visit report ready</strong>
          </p>
          <button type="button" className="button button-secondary" onClick={() => setOpen(true)}>
            Read the visit report<span className="visually-hidden"> of {booking.serviceRequest.title}</span>
          </button>
          <Dialog
            open={open}
            onOpenChange={setOpen}
            title="Visit report"
            description={booking.serviceRequest.title}
            testId="visit-report"
            footer={<DialogClose>Close</DialogClose>}
          >
            {open && <ReportDetails booking={booking} />}
          </Dialog>
        </>
      )}
    </div>
  );
}
