// The visit report form (at check-out, or written or corrected later): its own module, loaded the
// first time a helper opens it, so the dashboard does not carry the form library (react-hook-form,
// zod) for a dialog most people never open (the page's JavaScript budget).
import { t } from "@lingui/core/macro";
import { useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { ApiError } from "../lib/api";
import { apiQuery, useApiWrite } from "../lib/query";
import { useSchemaForm } from "../lib/forms";
import { TEXT_MAX, visitReportPayload, visitReportSchema, type VisitReportValues } from "../lib/schemas/booking";
import { toast } from "../lib/toast";
import type { Booking } from "../lib/types";
import { Dialog, DialogClose } from "./Dialog";
import { CheckboxOption, FieldSet, InputField, RadioOption, TextareaField } from "./Field";
import { RULES } from "../lib/rules.generated";
import { PhotoField, photoProblem, uploadVisitPhoto } from "./VisitPhoto";
import {
  type Category,
  currentPosition,
  failed,
  PlaceReason,
  placeQuestion,
  reportQuery,
  type Position,
  type TaskOutcome,
  taskOutcomeProblems,
  WELLBEING,
} from "./VisitControls";

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
        toast({ title: t`Checked out`, description: t`Thank you. The family can now read your visit report.` });
        if (photo) {
          // The visit is checked out either way; a photo the server turns down is said apart.
          try {
            await uploadVisitPhoto(booking.id, photo);
          } catch (photoError) {
            failed(photoError, t`The photo could not be added.`);
          }
        }
      } else {
        await put(`/api/bookings/${booking.id}/report`, report);
        toast({ title: t`Report saved`, description: t`The family can read it on the booking.` });
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
      failed(error, t`Could not save the report. Please try again.`);
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
  const title = booking.serviceRequest.title;
  return (
    <Dialog
      open={mode !== null}
      onOpenChange={(open) => !open && onClose()}
      title={mode === "check-out" ? t`Check out and report` : t`Visit report`}
      description={t`How did the visit for "${title}" go? The family reads this.`}
      testId="visit-report-dialog"
      footer={
        <>
          <DialogClose>{t`Not now`}</DialogClose>
          <button type="button" className="button button-primary" disabled={busy} onClick={submit}>
            {busy ? t`Saving...` : mode === "check-out" ? t`Check out` : t`Save report`}
          </button>
        </>
      }
    >
      {taskCount > 0 && (
        <FieldSet
          id={`${id}-outcomes`}
          legend={t`The family's tasks`}
          hint={t`Mark each one done or not done. If not, say why in a few words.`}
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
                  label={t`Done`}
                  checked={outcome.done === true}
                  onChange={() => change({ done: true })}
                />
                <RadioOption
                  id={`${id}-task-${i}-not-done`}
                  name={`${id}-task-${i}`}
                  label={t`Not done`}
                  checked={outcome.done === false}
                  onChange={() => change({ done: false })}
                />
                {outcome.done === false && (
                  <InputField
                    id={`${id}-task-${i}-reason`}
                    label={t`Why not?`}
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
        <FieldSet id={`${id}-tasks`} legend={t`What was done`} error={error("tasksDone")}>
          {checklist.map((item, i) => (
            <CheckboxOption
              key={item}
              id={`${id}-task-${i}`}
              label={item}
              checked={draft.tasksDone.includes(item)}
              onChange={(e) =>
                set(
                  "tasksDone",
                  e.currentTarget.checked
                    ? [...draft.tasksDone, item]
                    : draft.tasksDone.filter((done) => done !== item),
                )
              }
            />
          ))}
        </FieldSet>
      )}
      <TextareaField
        id={`${id}-notes`}
        label={checklist.length > 0 ? t`Anything else you did` : t`What was done`}
        value={draft.notes}
        maxLength={TEXT_MAX}
        error={error("notes")}
        onChange={(e) => set("notes", e.currentTarget.value)}
      />
      <FieldSet id={`${id}-wellbeing`} legend={t`How did they seem?`} required error={error("wellbeing")}>
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
        label={t`Anything the family should know`}
        value={draft.forFamily}
        maxLength={TEXT_MAX}
        error={error("forFamily")}
        onChange={(e) => set("forFamily", e.currentTarget.value)}
      />
      <CheckboxOption
        id={`${id}-follow-up`}
        label={t`I suggest a follow-up visit`}
        checked={draft.followUpSuggested}
        onChange={(e) => set("followUpSuggested", e.currentTarget.checked)}
      />
    </Dialog>
  );
}
