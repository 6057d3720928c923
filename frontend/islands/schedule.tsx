// /schedule "My schedule": the provider's weekly hours, a few windows per weekday
// (added and removed here, saved all at once with PUT /api/providers/me/schedule), and their time
// off (POST and DELETE /api/providers/me/time-off). The server owns every rule; its messages show
// beside the field they name ("weeklyHours.<n>.endTime", "firstDay", ...). The saved schedule
// is a TanStack query (lib/query) seeded by the page; the forms edit their own copy.
import { t } from "@lingui/core/macro";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect, useMemo, useState, type FormEvent } from "react";
import { useFieldArray, useWatch } from "react-hook-form";
import { InputField } from "../components/Field";
import { api, ApiError, errorMessage, isUnauthorizedError } from "../lib/api";
import { formatDate } from "../lib/format";
import { intlLocale } from "../lib/i18n";
import { useSchemaForm } from "../lib/forms";
import { mountQueryIsland, useSeededQuery } from "../lib/query";
import {
  EMPTY_TIME_OFF,
  NOTE_MAX,
  timeOffPayload,
  timeOffSchema,
  weeklyHoursPayload,
  weeklyHoursSchema,
  type TimeOffValues,
  type WeeklyHoursValues,
} from "../lib/schemas/schedule";
import type { Schedule, TimeOff } from "../lib/types";

interface Props {
  schedule: Schedule;
  weekdays: string[];
  windows: Record<string, [string, string]>;
  timeStepMinutes: number;
  today: string;
}

const SCHEDULE = "/api/providers/me/schedule";
let nextKey = 1;

/** "13:30" -> "1:30 PM". */
function clock(value: string): string {
  const [h = 0, m = 0] = value.split(":").map(Number);
  const hour = h % 12 === 0 ? 12 : h % 12;
  return `${hour}:${String(m).padStart(2, "0")} ${h < 12 ? "AM" : "PM"}`;
}

/** A weekday (0 = Monday) as a sentence says it, in the page's language: "Monday", "lunes". */
function weekdayName(day: number): string {
  // January 5, 2026 was a Monday.
  return new Date(2026, 0, 5 + day).toLocaleDateString(intlLocale(), { weekday: "long" });
}

/** A weekday as a heading or a label starts with it: "Monday", "Lunes". */
function capitalized(word: string): string {
  return word.charAt(0).toLocaleUpperCase(intlLocale()) + word.slice(1);
}

/** "13:30" -> minutes after midnight. */
function minutes(value: string): number {
  const [h = 0, m = 0] = value.split(":").map(Number);
  return h * 60 + m;
}

/** A visit is looked for as its first hour from its window's start (providers.selectors PROBE). */
const VISIT_PROBE_MINUTES = 60;

/** Whether one of the day's windows holds the first hour of a visit window (morning, afternoon,
 * evening): hours that hold none are never offered a visit that day. */
function fitsAVisit(rows: { start: string; end: string }[], windows: Props["windows"]): boolean {
  return Object.values(windows).some(([windowStart]) => {
    const from = minutes(windowStart);
    return rows.some((r) => minutes(r.start) <= from && from + VISIT_PROBE_MINUTES <= minutes(r.end));
  });
}

/** The saved week as the form holds it: Monday's windows first. */
function windowsOf(schedule: Schedule): WeeklyHoursValues {
  const windows = [...schedule.weeklyHours]
    .sort((a, b) => a.weekday - b.weekday)
    .map((w) => ({ key: nextKey++, weekday: w.weekday, start: w.startTime, end: w.endTime }));
  return { windows };
}

/** A lost session is lib/query's; anything else is said beside the form and its fields. */
function failed(error: unknown, setMessage: (m: string) => void): Record<string, string[]> {
  if (isUnauthorizedError(error)) return {};
  setMessage(errorMessage(error));
  return error instanceof ApiError ? error.fieldErrors : {};
}

function WeeklyHours({
  initial,
  weekdays,
  windows,
  step,
}: {
  initial: Schedule;
  weekdays: string[];
  windows: Props["windows"];
  step: number;
}) {
  // The week's windows are react-hook-form's (one list, Monday first), checked on save.
  const schema = useMemo(() => weeklyHoursSchema(weekdays), [weekdays]);
  const { form } = useSchemaForm<WeeklyHoursValues>({
    schema,
    defaultValues: useState(() => windowsOf(initial))[0],
    onChange: "none",
  });
  const list = useFieldArray({ control: form.control, name: "windows" });
  const watched = useWatch({ control: form.control, name: "windows" });
  const rows = useMemo(() => watched ?? [], [watched]);
  const fieldErrors = form.formState.errors.windows;
  const errorOf = (index: number, name: "start" | "end") => fieldErrors?.[index]?.[name]?.message;
  const [message, setMessage] = useState("");
  const [saved, setSaved] = useState("");
  const client = useQueryClient();
  const saveHours = useMutation({
    mutationFn: (body: ReturnType<typeof weeklyHoursPayload>) => api.put<Schedule>(SCHEDULE, body),
    onSuccess: (schedule) => client.setQueryData([SCHEDULE], schedule),
  });
  const saving = saveHours.isPending;
  const [focusKey, setFocusKey] = useState<number | null>(null);

  // A window just added: its first time field takes the focus (keyboard users carry on typing).
  useEffect(() => {
    if (focusKey === null) return;
    // The list shows the new window a render after it is added: focus it once it is there.
    const field = document.getElementById(`w-${focusKey}-start`);
    if (!field) return;
    field.focus();
    setFocusKey(null);
  }, [focusKey, rows]);

  const addRow = (day: number) => {
    const ofDay = rows.filter((r) => r.weekday === day);
    const last = ofDay[ofDay.length - 1];
    const row = last
      ? { key: nextKey++, weekday: day, start: last.end, end: last.end }
      : // A day's first window covers the morning and afternoon visits (8 AM to 5 PM).
        {
          key: nextKey++,
          weekday: day,
          start: windows.morning?.[0] ?? "08:00",
          end: windows.afternoon?.[1] ?? "17:00",
        };
    // After the day's windows: the list stays in weekday order.
    const at = rows.filter((r) => r.weekday <= day).length;
    list.insert(at, row, { shouldFocus: false });
    setFocusKey(row.key);
  };
  const removeRow = (day: number, index: number) => {
    list.remove(index);
    document.getElementById(`add-${day}`)?.focus();
  };

  const save = async (values: WeeklyHoursValues) => {
    try {
      const schedule = await saveHours.mutateAsync(weeklyHoursPayload(values));
      form.reset(windowsOf(schedule));
      const unfit = weekdays.filter((_name, day) => {
        const ofDay = schedule.weeklyHours.filter((w) => w.weekday === day);
        return (
          ofDay.length > 0 &&
          !fitsAVisit(
            ofDay.map((w) => ({ start: w.startTime, end: w.endTime })),
            windows,
          )
        );
      });
      const days = unfit.join(", ");
      setSaved(
        !schedule.weeklyHours.length
          ? t`Your weekly hours are cleared: you are available any time.`
          : unfit.length
            ? t`Your weekly hours are saved, but on ${days} they fit no visit, so you will not be offered visits then.`
            : t`Your weekly hours are saved.`,
      );
    } catch (error) {
      // The server names a window by its place in the list sent: the same place here.
      for (const [field, texts] of Object.entries(failed(error, setMessage))) {
        const m = /^weeklyHours\.(\d+)\.(startTime|endTime|weekday)$/.exec(field);
        if (m && Number(m[1]) < values.windows.length) {
          form.setError(`windows.${Number(m[1])}.${m[2] === "endTime" ? "end" : "start"}`, {
            type: "server",
            message: texts[0] ?? "",
          });
        }
      }
    }
  };
  const submit = (event: FormEvent) => {
    setSaved("");
    setMessage("");
    void form.handleSubmit(save, (errors) =>
      setMessage(errors.windows?.root?.message ?? errors.windows?.message ?? t`Please correct the highlighted times.`),
    )(event);
  };

  const none = rows.length === 0;
  const morning = clock(windows.morning?.[0] ?? "08:00");
  const afternoon = clock(windows.afternoon?.[0] ?? "12:00");
  const evening = clock(windows.evening?.[0] ?? "17:00");
  const visitStarts = t`${morning}, ${afternoon} or ${evening}`;
  return (
    <section className="card" aria-labelledby="hours-heading">
      <h2 id="hours-heading">{t`Weekly hours`}</h2>
      <p>
        {t`Morning visits start at ${morning}, afternoon visits at ${afternoon} and evening visits at ${evening}. Your hours must cover the whole visit for you to accept it.`}
      </p>
      {none && (
        <p className="notice" data-testid="no-hours">
          {t`You have not set any hours, so you are shown as available at any time, every day. Add the times you can work to receive only requests that suit you.`}
        </p>
      )}
      <form onSubmit={submit} noValidate>
        {weekdays.map((dayName, day) => {
          const dayLabel = capitalized(dayName);
          const ofDay = rows.flatMap((row, index) => (row.weekday === day ? [{ row, index }] : []));
          return (
            <fieldset key={dayName} className="fieldset schedule-day" data-testid={`day-${day}`}>
              <legend>{dayLabel}</legend>
              {ofDay.length === 0 && <p className="muted">{none ? t`Any time (no hours set)` : t`Not working`}</p>}
              {ofDay.length > 0 &&
                !fitsAVisit(
                  ofDay.map(({ row }) => row),
                  windows,
                ) && (
                  <p className="notice" data-testid={`unfit-${day}`}>
                    {t`These hours fit no visit: visits start at ${visitStarts} and last at least an hour. You will not be offered visits on ${dayName} unless your hours hold one.`}
                  </p>
                )}
              {ofDay.map(({ row, index }, i) => {
                const n = i + 1;
                return (
                  <div key={row.key} className="schedule-row">
                    <InputField
                      id={`w-${row.key}-start`}
                      label={t`${dayLabel} window ${n}: from`}
                      type="time"
                      step={step * 60}
                      value={row.start}
                      error={errorOf(index, "start")}
                      onChange={(e) => form.setValue(`windows.${index}.start`, e.target.value)}
                    />
                    <InputField
                      id={`w-${row.key}-end`}
                      label={t`${dayLabel} window ${n}: to`}
                      type="time"
                      step={step * 60}
                      value={row.end}
                      error={errorOf(index, "end")}
                      onChange={(e) => form.setValue(`windows.${index}.end`, e.target.value)}
                    />
                    <button
                      type="button"
                      className="button button-secondary"
                      onClick={() => removeRow(day, index)}
                      aria-label={t`Remove ${dayLabel} window ${n}`}
                    >
                      {t`Remove`}
                    </button>
                  </div>
                );
              })}
              <button type="button" id={`add-${day}`} className="button button-secondary" onClick={() => addRow(day)}>
                {t`Add hours on ${dayName}`}
              </button>
            </fieldset>
          );
        })}
        {message && (
          <p className="field-error" role="alert" data-testid="hours-error">
            {message}
          </p>
        )}
        <p role="status" className="form-status" data-testid="hours-status">
          {saved}
        </p>
        <button type="submit" className="button button-primary" aria-disabled={saving}>
          {saving ? t`Saving…` : t`Save weekly hours`}
        </button>
      </form>
    </section>
  );
}

function TimeOffSection({ initial, today }: { initial: Schedule; today: string }) {
  const client = useQueryClient();
  const items = useSeededQuery<Schedule>(SCHEDULE, initial).data.timeOff;
  const setItems = (update: (items: readonly TimeOff[]) => TimeOff[]) =>
    client.setQueryData<Schedule>([SCHEDULE], (s) => s && { ...s, timeOff: update(s.timeOff) });
  const addTimeOff = useMutation({
    mutationFn: (body: { firstDay: string | null; lastDay: string | null; note: string }) =>
      api.post<TimeOff>("/api/providers/me/time-off", body),
    onSuccess: (created) => setItems((list) => [...list, created].sort((a, b) => a.firstDay.localeCompare(b.firstDay))),
  });
  const removeTimeOff = useMutation({
    mutationFn: (item: TimeOff) => api.delete(`/api/providers/me/time-off/${item.id}`),
    onSuccess: (_answer, item) => setItems((list) => list.filter((kept) => kept.id !== item.id)),
  });
  // The time off to add is react-hook-form's, checked on "Add time off" against today and the
  // time off already planned (providers.services time_off_add).
  const schema = useMemo(() => timeOffSchema(today, items), [today, items]);
  const { form, values, errors, set, handleSubmit } = useSchemaForm<TimeOffValues>({
    schema,
    defaultValues: EMPTY_TIME_OFF,
    onChange: "none",
  });
  const [message, setMessage] = useState("");
  const [status, setStatus] = useState("");
  const busy = addTimeOff.isPending;

  const add = async (sent: TimeOffValues) => {
    try {
      const created = await addTimeOff.mutateAsync(timeOffPayload(sent));
      form.reset(EMPTY_TIME_OFF);
      const first = formatDate(created.firstDay);
      const last = formatDate(created.lastDay);
      setStatus(t`Time off added: ${first} to ${last}.`);
    } catch (error) {
      for (const [field, texts] of Object.entries(failed(error, setMessage))) {
        if (field === "firstDay" || field === "lastDay" || field === "note") {
          form.setError(field, { type: "server", message: texts[0] ?? "" });
        }
      }
    }
  };
  const submit = (event: FormEvent) => {
    setMessage("");
    setStatus("");
    void handleSubmit(add)(event);
  };

  const remove = async (item: TimeOff) => {
    setMessage("");
    try {
      await removeTimeOff.mutateAsync(item);
      const first = formatDate(item.firstDay);
      const last = formatDate(item.lastDay);
      setStatus(t`Time off removed: ${first} to ${last}.`);
      document.getElementById("off-first")?.focus();
    } catch (error) {
      failed(error, setMessage);
    }
  };

  return (
    <section className="card" aria-labelledby="off-heading">
      <h2 id="off-heading">{t`Time off`}</h2>
      <p>{t`Days you are away. You will not be offered or able to accept visits on them.`}</p>
      {items.length === 0 ? (
        <p className="muted" data-testid="no-time-off">
          {t`No time off planned.`}
        </p>
      ) : (
        <ul className="item-list" data-testid="time-off-list">
          {items.map((item) => {
            const first = formatDate(item.firstDay);
            const last = formatDate(item.lastDay);
            return (
              <li key={item.id} className="list-item schedule-off">
                <span>
                  {item.firstDay === item.lastDay ? first : t`${first} to ${last}`}
                  {item.note ? ` · ${item.note}` : ""}
                </span>
                <button
                  type="button"
                  className="button button-secondary"
                  onClick={() => void remove(item)}
                  aria-label={t`Remove time off from ${first} to ${last}`}
                >
                  {t`Remove`}
                </button>
              </li>
            );
          })}
        </ul>
      )}
      <form onSubmit={submit} noValidate>
        <h3>{t`Add time off`}</h3>
        <div className="schedule-row">
          <InputField
            id="off-first"
            label={t`First day`}
            type="date"
            min={today}
            required
            value={values.firstDay ?? ""}
            error={errors.firstDay}
            onChange={(e) => set("firstDay", e.target.value)}
          />
          <InputField
            id="off-last"
            label={t`Last day`}
            type="date"
            min={values.firstDay || today}
            hint={t`Leave empty for a single day.`}
            value={values.lastDay ?? ""}
            error={errors.lastDay}
            onChange={(e) => set("lastDay", e.target.value)}
          />
        </div>
        <InputField
          id="off-note"
          label={t`Note (optional)`}
          maxLength={NOTE_MAX}
          value={values.note ?? ""}
          error={errors.note}
          onChange={(e) => set("note", e.target.value)}
        />
        {message && (
          <p className="field-error" role="alert" data-testid="off-error">
            {message}
          </p>
        )}
        <p role="status" className="form-status" data-testid="off-status">
          {status}
        </p>
        <button type="submit" className="button button-primary" aria-disabled={busy}>
          {t`Add time off`}
        </button>
      </form>
    </section>
  );
}

function ScheduleIsland(props: Props) {
  // The server's weekdays are English: the page names them in its own language (Monday first).
  const weekdays = useMemo(() => props.weekdays.map((_name, day) => weekdayName(day)), [props.weekdays]);
  return (
    <div data-island="schedule" className="stack">
      <WeeklyHours initial={props.schedule} weekdays={weekdays} windows={props.windows} step={props.timeStepMinutes} />
      <TimeOffSection initial={props.schedule} today={props.today} />
    </div>
  );
}

mountQueryIsland(ScheduleIsland, "schedule");
