// The visit itself: the provider's large "Check in" / "Check out" buttons on the day of
// a visit, the visit report written at check-out (or corrected within 24 hours), and what the
// family sees as it happens ("Checked in at 9:04", "Visit report ready"). Reads and writes go
// through TanStack Query (lib/query), which also handles a lost session.
import { plural, t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { lazy, Suspense, useEffect, useState } from "react";
import { ApiError, errorMessage, isUnauthorizedError } from "../lib/api";
import { formatClock, formatVisitMoment, timeWindowLabel } from "../lib/format";
import { useOpenedOnce } from "../lib/opened";
import { apiQuery, useApiWrite } from "../lib/query";
import { toast } from "../lib/toast";
import type { Booking, VisitReport } from "../lib/types";
import { Dialog, DialogClose } from "./Dialog";
import { CheckboxOption, InputField } from "./Field";
import { RULES } from "../lib/rules.generated";
import { VisitPhotoButton } from "./VisitPhoto";

/** How the person seemed, 1 to 5; each label read when shown, in the page's language. */
export const WELLBEING: { value: number; readonly label: string }[] = [
  {
    value: 1,
    get label() {
      return t`Not well at all`;
    },
  },
  {
    value: 2,
    get label() {
      return t`A little low`;
    },
  },
  {
    value: 3,
    get label() {
      return t`Okay`;
    },
  },
  {
    value: 4,
    get label() {
      return t({ message: "Good", context: "how the person seemed" });
    },
  },
  {
    value: 5,
    get label() {
      return t`In great spirits`;
    },
  },
];

// The report form loads when first opened (VisitReportDialog.tsx says why).
const VisitReportDialog = lazy(() => import("./VisitReportDialog").then((m) => ({ default: m.VisitReportDialog })));

const CHECK_IN_FROM_MS = 30 * 60 * 1000;
const REPORT_EDIT_MS = 24 * 60 * 60 * 1000;

/** The report of a visit (GET /api/bookings/{id}/report): the generated shape. */
export type { VisitReport };

export interface Category {
  id: number;
  features: string[];
}

/** The report of a visit, as the API answers it (the family's view and the provider's correction). */
export function reportQuery(bookingId: number) {
  return apiQuery<VisitReport>(`/api/bookings/${bookingId}/report`);
}

/** A lost session is lib/query's (toast, then sign in again); anything else is a toast here. */
export function failed(error: unknown, fallback: string): void {
  if (isUnauthorizedError(error)) return;
  const text = error instanceof ApiError && error.serverMessage ? error.serverMessage : errorMessage(error) || fallback;
  toast({ title: t`Error`, description: text, variant: "destructive" });
}

export type Position = { latitude: number; longitude: number; accuracy: number };

/** Where the browser is, with its accuracy in metres (null when it is refused or cannot tell within 10 s). */
export function currentPosition(): Promise<Position | null> {
  if (!("geolocation" in navigator)) return Promise.resolve(null);
  return new Promise((resolve) => {
    navigator.geolocation.getCurrentPosition(
      (p) => resolve({ latitude: p.coords.latitude, longitude: p.coords.longitude, accuracy: p.coords.accuracy }),
      () => resolve(null),
      { enableHighAccuracy: true, timeout: 10_000, maximumAge: 60_000 },
    );
  });
}

/** The server's question when a position is away from the home (or missing): why, in a few words. */
export function placeQuestion(error: unknown): string | null {
  return error instanceof ApiError && error.status === 400 ? (error.fieldErrors.reason?.[0] ?? null) : null;
}

const PLACE_REASON_MAX = RULES.booking.PLACE_REASON_MAX;
const placeNote = () =>
  t`Kindly compares your phone's position with the home's address. Only the check-in and check-out points are kept (to about 100 m), for 90 days.`;

/** Why the helper is not at the home: asked only when the server says so; she is never stopped. */
export function PlaceReason({
  id,
  question,
  value,
  onChange,
}: {
  id: string;
  question: string;
  value: string;
  onChange: (value: string) => void;
}) {
  return (
    <InputField
      id={id}
      label={t`Why are you not at the home?`}
      hint={question}
      required
      value={value}
      maxLength={PLACE_REASON_MAX}
      onChange={(e) => onChange(e.currentTarget.value)}
    />
  );
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
  const window = timeWindowLabel(booking.scheduledTime);
  return t`Please check in by ${by} at the latest, so the visit fits the time the family was told (${window}). After that they are told you are late.`;
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
  const [busy, setBusy] = useState(false);
  // Away from the home: the server's question, the helper's answer and the position it was about.
  const [question, setQuestion] = useState<string | null>(null);
  const [reason, setReason] = useState("");
  const [position, setPosition] = useState<Position | null>(null);
  const [reporting, setReporting] = useState<"check-out" | "edit" | null>(null);
  const reportOpened = useOpenedOnce(reporting);
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
      // A second tap after the question sends the same position with the reason.
      const where = question !== null ? position : await currentPosition();
      setPosition(where);
      await post(`/api/bookings/${booking.id}/check-in`, {
        ...(where ?? {}),
        ...(question !== null ? { reason: reason.trim() } : {}),
      });
      setQuestion(null);
      toast({ title: t`Checked in`, description: t`The family knows you have arrived for "${title}".` });
      onChanged();
    } catch (error) {
      const asked = placeQuestion(error);
      if (asked) setQuestion(asked);
      else failed(error, t`Could not check in. Please try again.`);
    } finally {
      setBusy(false);
    }
  };
  const tasks = booking.serviceRequest.tasks ?? [];

  if (checkInOpen(booking)) {
    return (
      <div className="visit-actions" data-testid="visit-actions">
        {checkInByNote(booking) && (
          <p className="visit-progress" data-testid="check-in-by">
            {checkInByNote(booking)}
          </p>
        )}
        {tasks.length > 0 && <TaskListView tasks={tasks} />}
        <p className="field-hint">{placeNote()}</p>
        {question !== null && (
          <PlaceReason id={`check-in-reason-${booking.id}`} question={question} value={reason} onChange={setReason} />
        )}
        <button
          type="button"
          className="button button-primary button-large"
          disabled={busy || (question !== null && !reason.trim())}
          onClick={checkIn}
        >
          {busy ? t`Checking in...` : question !== null ? t`Check in with this reason` : t`Check in`}
          <span className="visually-hidden">{t` for ${title}`}</span>
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
    const opensAt = formatClock(new Date(start - CHECK_IN_FROM_MS).toISOString(), zoneOf(booking));
    return (
      <p className="visit-progress" data-testid="check-in-opens">
        {t`Check-in opens at ${opensAt}.`}
      </p>
    );
  }
  if (booking.status === "confirmed" && booking.checkedInAt) {
    const checkedInAt = formatVisitMoment(booking.checkedInAt, booking.scheduledDate, undefined, zoneOf(booking));
    return (
      <div className="visit-actions" data-testid="visit-actions">
        <p className="visit-progress">{t`Checked in at ${checkedInAt}`}</p>
        {tasks.length > 0 && <TaskListView tasks={tasks} />}
        <button type="button" className="button button-primary button-large" onClick={() => setReporting("check-out")}>
          <Trans>
            Check out<span className="visually-hidden"> of {title}</span>
          </Trans>
        </button>
        <button type="button" className="button button-secondary" onClick={() => setNobodyHome(true)}>
          <Trans>
            Nobody is home<span className="visually-hidden"> for {title}</span>
          </Trans>
        </button>
        <NobodyHomeDialog booking={booking} open={nobodyHome} onClose={() => setNobodyHome(false)} onDone={onChanged} />
        {reportOpened && (
          <Suspense fallback={null}>
            <VisitReportDialog
              booking={booking}
              mode={reporting}
              onClose={() => setReporting(null)}
              onDone={onChanged}
            />
          </Suspense>
        )}
      </div>
    );
  }
  if (reportEditable(booking)) {
    return (
      <div className="visit-actions" data-testid="visit-actions">
        <button type="button" className="button button-secondary" onClick={() => setReporting("edit")}>
          {booking.hasReport ? t`Correct the visit report` : t`Write the visit report`}
          <span className="visually-hidden">{t` of ${title}`}</span>
        </button>
        {reportOpened && (
          <Suspense fallback={null}>
            <VisitReportDialog
              booking={booking}
              mode={reporting}
              onClose={() => setReporting(null)}
              onDone={onChanged}
            />
          </Suspense>
        )}
      </div>
    );
  }
  return null;
}

export interface TaskOutcome {
  /** null until the helper marks it. */
  done: boolean | null;
  reason: string;
}

/** task_outcome_problems: every task marked, a reason for each not done (keys as the server's). */
export function taskOutcomeProblems(outcomes: TaskOutcome[]): Record<string, string> {
  const found: Record<string, string> = {};
  outcomes.forEach((o, i) => {
    if (o.done === null) found.tasks = RULES.booking.TASKS_UNMARKED;
    else if (!o.done && !o.reason.trim()) found[`tasks.${i}.reason`] = RULES.booking.TASK_REASON_REQUIRED;
    else if (!o.done && o.reason.trim().length > RULES.booking.TASK_REASON_MAX)
      found[`tasks.${i}.reason`] = RULES.booking.TASK_REASON_TOO_LONG;
  });
  return found;
}

/** The family's task list as the helper reads it before and during the visit. */
export function TaskListView({ tasks }: { tasks: string[] }) {
  return (
    <div className="visit-tasks" data-testid="visit-tasks">
      <p>
        <strong>{t`The family asked for:`}</strong>
      </p>
      <ol className="task-list">
        {tasks.map((task) => (
          <li key={task}>{task}</li>
        ))}
      </ol>
    </div>
  );
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
        title: t`Reported: nobody home`,
        description: t`The visit is cancelled and the family is told. You will be paid the late fee.`,
      });
      onClose();
      onDone();
    } catch (error) {
      failed(error, t`Could not send the report. Please try again.`);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => !next && onClose()}
      title={t`Nobody is home?`}
      description={t`Only report this after you have knocked, rung and waited. The visit will be cancelled.`}
      testId="nobody-home-dialog"
      footer={
        <>
          <DialogClose>{t`Keep the visit`}</DialogClose>
          <button type="button" className="button button-danger" disabled={busy} onClick={report}>
            {busy ? t`Sending...` : t`Report nobody home`}
          </button>
        </>
      }
    >
      <p>
        <Trans>
          We keep the time of this report. The family is told at once and you are paid a late fee, as{" "}
          <a href="/cancellation-policy" target="_blank" rel="noopener">
            our cancellation policy<span className="visually-hidden"> (opens in a new tab)</span>
          </a>{" "}
          says.
        </Trans>
      </p>
      <CheckboxOption
        id={`nobody-home-location-${booking.id}`}
        checked={share}
        onChange={(e) => setShare(e.currentTarget.checked)}
        label={t`Share my location with this report`}
        description={t`Only an approximate place (about 100 m) is kept, for 90 days.`}
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
  if (isError) return <p role="alert">{t`The visit report could not be loaded. Please try again.`}</p>;
  if (report === undefined) return <p>{t`Loading the visit report...`}</p>;
  const wellbeing = report.wellbeing;
  const wellbeingLabel = report.wellbeingLabel;
  const corrections = report.edits.length;
  const lastCorrected = moment(report.updatedAt);
  return (
    <dl className="visit-report" data-testid="visit-report-details">
      <dt>{t`Written at`}</dt>
      <dd>{moment(report.createdAt)}</dd>
      <dt>{t`How they seemed`}</dt>
      <dd>{t`${wellbeing} of 5: ${wellbeingLabel}`}</dd>
      {report.familyTasks.length > 0 && (
        <>
          <dt>{t`Your tasks`}</dt>
          <dd>
            <ul className="task-outcomes" data-testid="report-task-outcomes">
              {report.familyTasks.map(({ task, done, reason }) => (
                <li key={task}>
                  {done ? t`Done: ${task}` : reason ? t`Not done: ${task} (${reason})` : t`Not done: ${task}`}
                </li>
              ))}
            </ul>
          </dd>
        </>
      )}
      {report.tasksDone.length > 0 && (
        <>
          <dt>{t`What was done`}</dt>
          <dd>
            <ul>
              {report.tasksDone.map((task) => (
                <li key={task}>{task}</li>
              ))}
            </ul>
          </dd>
        </>
      )}
      {report.notes && (
        <>
          <dt>{t`Notes`}</dt>
          <dd>{report.notes}</dd>
        </>
      )}
      {report.forFamily && (
        <>
          <dt>{t`For the family`}</dt>
          <dd>{report.forFamily}</dd>
        </>
      )}
      <dt>{t`Follow-up`}</dt>
      <dd>{report.followUpSuggested ? t`The helper suggests a follow-up visit.` : t`None suggested.`}</dd>
      {report.edits.length > 0 && (
        <>
          <dt>{t`Corrections`}</dt>
          <dd>
            {plural(corrections, {
              one: `Corrected by the helper once, last at ${lastCorrected}.`,
              other: `Corrected by the helper # times, last at ${lastCorrected}.`,
            })}
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

/** ", at Margaret's home" / ", away from the home: <her reason>" / "" (the home could not be compared). */
function placeWords(verified: boolean | null | undefined, reason: string | undefined, name: string): string {
  if (verified === true) return name ? t` (at ${name}'s home)` : t` (at the home)`;
  if (verified === false) return reason ? t` (not at the home: ${reason})` : t` (not at the home)`;
  return "";
}

/** The visit as it happened, for the circle: "Checked in at 1:58 PM (at Margaret's home)",
 * "3 of 4 tasks done", "Checked out at 3:02 PM" (booking.visitRecord, live over booking.updated). */
export function visitTimeline(booking: Booking): string[] {
  const record = booking.visitRecord;
  const name = booking.recipient?.firstName ?? "";
  const at = (moment: string) => formatVisitMoment(moment, booking.scheduledDate, undefined, zoneOf(booking));
  const lines: string[] = [];
  if (booking.checkedInAt) {
    const time = at(booking.checkedInAt);
    const place = placeWords(record?.checkInVerified, record?.checkInReason, name);
    lines.push(t`Checked in at ${time}${place}`);
  }
  if (record && record.tasksDone !== null && record.tasksDone !== undefined && record.tasksTotal > 0) {
    const { tasksDone: done, tasksTotal: total } = record;
    lines.push(t`${done} of ${total} tasks done`);
  }
  if (booking.checkedOutAt) {
    const time = at(booking.checkedOutAt);
    const place = placeWords(record?.checkOutVerified, record?.checkOutReason, name);
    lines.push(t`Checked out at ${time}${place}`);
  }
  return lines;
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
  ) {
    const until = formatClock(booking.checkInBy, zoneOf(booking));
    lines.push(t`The helper may arrive any time until ${until}`);
  }
  if (booking.visitState === "late") lines.push(t`Late: the helper has not checked in yet`);
  if (booking.visitState === "missed") lines.push(t`The helper did not check in`);
  lines.push(...visitTimeline(booking));
  if (lines.length === 0 && !booking.hasReport) return null;
  const reportTitle = booking.serviceRequest.title;
  return (
    <div className="visit-progress" data-testid="visit-progress" aria-live="polite">
      {lines.map((line) => (
        <p key={line}>{line}</p>
      ))}
      <VisitPhotoButton booking={booking} />
      {booking.hasReport && (
        <>
          <p>
            <strong>{t`Visit report ready`}</strong>
          </p>
          <button type="button" className="button button-secondary" onClick={() => setOpen(true)}>
            <Trans>
              Read the visit report<span className="visually-hidden"> of {reportTitle}</span>
            </Trans>
          </button>
          <Dialog
            open={open}
            onOpenChange={setOpen}
            title={t`Visit report`}
            description={booking.serviceRequest.title}
            testId="visit-report"
            footer={<DialogClose>{t`Close`}</DialogClose>}
          >
            {open && <ReportDetails booking={booking} />}
          </Dialog>
        </>
      )}
    </div>
  );
}
