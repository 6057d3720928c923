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
import type { Booking, VisitReport } from "../lib/types";
import { Dialog, DialogClose } from "./Dialog";
import { CheckboxOption, FieldSet, InputField, RadioOption, TextareaField } from "./Field";
import { RULES } from "../lib/rules.generated";
import { PhotoField, photoProblem, uploadVisitPhoto, VisitPhotoButton } from "./VisitPhoto";

export const WELLBEING: { value: number; label: string }[] = [
  { value: 1, label: "Not well at all" },
  { value: 2, label: "A little low" },
  { value: 3, label: "Okay" },
  { value: 4, label: "Good" },
  { value: 5, label: "In great spirits" },
];

const CHECK_IN_FROM_MS = 30 * 60 * 1000;
const REPORT_EDIT_MS = 24 * 60 * 60 * 1000;

/** The report of a visit (GET /api/bookings/{id}/report): the generated shape. */
export type { VisitReport };

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

type Position = { latitude: number; longitude: number; accuracy: number };

/** Where the browser is, with its accuracy in metres (null when it is refused or cannot tell within 10 s). */
function currentPosition(): Promise<Position | null> {
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
function placeQuestion(error: unknown): string | null {
  return error instanceof ApiError && error.status === 400 ? (error.fieldErrors.reason?.[0] ?? null) : null;
}

const PLACE_REASON_MAX = RULES.booking.PLACE_REASON_MAX;
const PLACE_NOTE =
  "Kindly compares your phone's position with the home's address. Only the check-in and check-out points are kept (to about 100 m), for 90 days.";

/** Why the helper is not at the home: asked only when the server says so; she is never stopped. */
function PlaceReason({
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
      label="Why are you not at the home?"
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
  const [busy, setBusy] = useState(false);
  // Away from the home: the server's question, the helper's answer and the position it was about.
  const [question, setQuestion] = useState<string | null>(null);
  const [reason, setReason] = useState("");
  const [position, setPosition] = useState<Position | null>(null);
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
      // A second tap after the question sends the same position with the reason.
      const where = question !== null ? position : await currentPosition();
      setPosition(where);
      await post(`/api/bookings/${booking.id}/check-in`, {
        ...(where ?? {}),
        ...(question !== null ? { reason: reason.trim() } : {}),
      });
      setQuestion(null);
      toast({ title: "Checked in", description: `The family knows you have arrived for "${title}".` });
      onChanged();
    } catch (error) {
      const asked = placeQuestion(error);
      if (asked) setQuestion(asked);
      else failed(error, "Could not check in. Please try again.");
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
        <p className="field-hint">{PLACE_NOTE}</p>
        {question !== null && (
          <PlaceReason id={`check-in-reason-${booking.id}`} question={question} value={reason} onChange={setReason} />
        )}
        <button
          type="button"
          className="button button-primary button-large"
          disabled={busy || (question !== null && !reason.trim())}
          onClick={checkIn}
        >
          {busy ? "Checking in..." : question !== null ? "Check in with this reason" : "Check in"}
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
        {tasks.length > 0 && <TaskListView tasks={tasks} />}
        <button type="button" className="button button-primary button-large" onClick={() => setReporting("check-out")}>
          Check out<span className="visually-hidden"> of {title}</span>
        </button>
        <button type="button" className="button button-secondary" onClick={() => setNobodyHome(true)}>
          Nobody is home<span className="visually-hidden"> for {title}</span>
        </button>
        <NobodyHomeDialog booking={booking} open={nobodyHome} onClose={() => setNobodyHome(false)} onDone={onChanged} />
        <VisitReportDialog booking={booking} mode={reporting} onClose={() => setReporting(null)} onDone={onChanged} />
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

interface TaskOutcome {
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
        <strong>The family asked for:</strong>
      </p>
      <ol className="task-list">
        {tasks.map((t) => (
          <li key={t}>{t}</li>
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
  onClose,
  onDone,
}: {
  booking: Booking;
  mode: "check-out" | "edit" | null;
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

  // At check-out: how each of the family's tasks went (done or not, with a reason), and why the
  // helper is away from the home when the server asks.
  const tasks = mode === "check-out" ? (booking.serviceRequest.tasks ?? []) : [];
  const [outcomes, setOutcomes] = useState<TaskOutcome[]>([]);
  const [taskErrors, setTaskErrors] = useState<Record<string, string>>({});
  const [question, setQuestion] = useState<string | null>(null);
  const [reason, setReason] = useState("");
  const [position, setPosition] = useState<Position | null>(null);
  const [photo, setPhoto] = useState<File | null>(null);
  const taskCount = tasks.length;

  const { reset, clearErrors } = form;
  useEffect(() => {
    if (mode === null) return;
    if (editing) clearErrors();
    else reset(EMPTY);
    setOutcomes(Array.from({ length: taskCount }, () => ({ done: null, reason: "" })));
    setTaskErrors({});
    setQuestion(null);
    setReason("");
    setPhoto(null);
  }, [mode, editing, reset, clearErrors, taskCount]);
  useEffect(() => {
    if (mode !== null && editing && saved.data) reset(visitReportPayload(saved.data));
  }, [mode, editing, saved.data, reset]);

  // Unmarked tasks are asked about with the report's own problems, before anything is sent.
  const tasksProblems = () => (mode === "check-out" ? taskOutcomeProblems(outcomes) : {});
  const send = form.handleSubmit(async (checked) => {
    if (Object.keys(tasksProblems()).length > 0 || photoProblem(photo)) return;
    try {
      const report = visitReportPayload(checked);
      if (mode === "check-out") {
        const where = question !== null ? position : await currentPosition();
        setPosition(where);
        await post(`/api/bookings/${booking.id}/check-out`, {
          report,
          ...(where ?? {}),
          ...(taskCount > 0
            ? { tasks: outcomes.map((o) => (o.done ? { done: true } : { done: false, reason: o.reason.trim() })) }
            : {}),
          ...(question !== null ? { reason: reason.trim() } : {}),
        });
        toast({ title: "Checked out", description: "Thank you. The family can now read your visit report." });
        if (photo) {
          // The visit is checked out either way; a photo the server turns down is said apart.
          try {
            await uploadVisitPhoto(booking.id, photo);
          } catch (photoError) {
            failed(photoError, "The photo could not be added.");
          }
        }
      } else {
        await put(`/api/bookings/${booking.id}/report`, report);
        toast({ title: "Report saved", description: "The family can read it on the booking." });
      }
      onClose();
      onDone();
    } catch (error) {
      const asked = placeQuestion(error);
      if (asked) {
        setQuestion(asked);
        return;
      }
      if (error instanceof ApiError && error.status === 400) {
        // Check-out nests the report ("report.wellbeing"); the rules of its content answer by field name.
        const fromServer: Record<string, string> = {};
        for (const [key, messages] of Object.entries(error.fieldErrors)) {
          const name = REPORT_FIELDS.find((field) => field === key.replace(/^report\./, ""));
          if (name && messages[0]) form.setError(name, { type: "server", message: messages[0] });
          if (key.startsWith("tasks") && messages[0]) fromServer[key] = messages[0];
        }
        setTaskErrors(fromServer);
      }
      failed(error, "Could not save the report. Please try again.");
    }
  });
  const submit = () => {
    const found = tasksProblems();
    setTaskErrors(found);
    if (Object.keys(found).length > 0)
      document.getElementById(`report-${booking.id}-outcomes`)?.scrollIntoView({ block: "center" });
    void send();
  };

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
      {taskCount > 0 && (
        <FieldSet
          id={`${id}-outcomes`}
          legend="The family's tasks"
          hint="Mark each one done or not done. If not, say why in a few words."
          required
          error={taskErrors.tasks}
        >
          {tasks.map((task, i) => {
            const outcome = outcomes[i] ?? { done: null, reason: "" };
            const change = (next: Partial<TaskOutcome>) =>
              setOutcomes((all) => all.map((o, j) => (j === i ? { ...o, ...next } : o)));
            return (
              <fieldset key={task} className="task-outcome" data-testid={`task-outcome-${i}`}>
                <legend>{task}</legend>
                <RadioOption
                  id={`${id}-task-${i}-done`}
                  name={`${id}-task-${i}`}
                  label="Done"
                  checked={outcome.done === true}
                  onChange={() => change({ done: true })}
                />
                <RadioOption
                  id={`${id}-task-${i}-not-done`}
                  name={`${id}-task-${i}`}
                  label="Not done"
                  checked={outcome.done === false}
                  onChange={() => change({ done: false })}
                />
                {outcome.done === false && (
                  <InputField
                    id={`${id}-task-${i}-reason`}
                    label="Why not?"
                    required
                    value={outcome.reason}
                    maxLength={RULES.booking.TASK_REASON_MAX}
                    error={taskErrors[`tasks.${i}.reason`]}
                    onChange={(e) => change({ reason: e.currentTarget.value })}
                  />
                )}
                {taskErrors[`tasks.${i}.done`] && (
                  <p className="field-error" role="alert">
                    {taskErrors[`tasks.${i}.done`]}
                  </p>
                )}
              </fieldset>
            );
          })}
        </FieldSet>
      )}
      {question !== null && (
        <PlaceReason id={`${id}-place-reason`} question={question} value={reason} onChange={setReason} />
      )}
      {mode === "check-out" && <PhotoField id={`${id}-photo`} file={photo} onChange={setPhoto} />}
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
      {report.familyTasks.length > 0 && (
        <>
          <dt>Your tasks</dt>
          <dd>
            <ul className="task-outcomes" data-testid="report-task-outcomes">
              {report.familyTasks.map((t) => (
                <li key={t.task}>
                  {t.done ? "Done: " : "Not done: "}
                  {t.task}
                  {!t.done && t.reason ? ` (${t.reason})` : ""}
                </li>
              ))}
            </ul>
          </dd>
        </>
      )}
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

/** ", at Margaret's home" / ", away from the home: <her reason>" / "" (the home could not be compared). */
function placeWords(verified: boolean | null | undefined, reason: string | undefined, name: string): string {
  if (verified === true) return ` (at ${name ? `${name}'s` : "the"} home)`;
  if (verified === false) return ` (not at the home${reason ? `: ${reason}` : ""})`;
  return "";
}

/** The visit as it happened, for the circle: "Checked in at 1:58 PM (at Margaret's home)",
 * "3 of 4 tasks done", "Checked out at 3:02 PM" (booking.visitRecord, live over booking.updated). */
export function visitTimeline(booking: Booking): string[] {
  const record = booking.visitRecord;
  const name = booking.recipient?.firstName ?? "";
  const at = (moment: string) => formatVisitMoment(moment, booking.scheduledDate, undefined, zoneOf(booking));
  const lines: string[] = [];
  if (booking.checkedInAt)
    lines.push(
      `Checked in at ${at(booking.checkedInAt)}${placeWords(record?.checkInVerified, record?.checkInReason, name)}`,
    );
  if (record && record.tasksDone !== null && record.tasksDone !== undefined && record.tasksTotal > 0)
    lines.push(`${record.tasksDone} of ${record.tasksTotal} tasks done`);
  if (booking.checkedOutAt)
    lines.push(
      `Checked out at ${at(booking.checkedOutAt)}${placeWords(record?.checkOutVerified, record?.checkOutReason, name)}`,
    );
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
  )
    lines.push(`The helper may arrive any time until ${formatClock(booking.checkInBy, zoneOf(booking))}`);
  if (booking.visitState === "late") lines.push("Late: the helper has not checked in yet");
  if (booking.visitState === "missed") lines.push("The helper did not check in");
  lines.push(...visitTimeline(booking));
  if (lines.length === 0 && !booking.hasReport) return null;
  return (
    <div className="visit-progress" data-testid="visit-progress" aria-live="polite">
      {lines.map((line) => (
        <p key={line}>{line}</p>
      ))}
      <VisitPhotoButton booking={booking} />
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
