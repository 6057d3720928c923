// /schedule "My schedule" (issue 18): the provider's weekly hours, a few windows per weekday
// (added and removed here, saved all at once with PUT /api/providers/me/schedule), and their time
// off (POST and DELETE /api/providers/me/time-off). The server owns every rule; its messages show
// beside the field they name ("weeklyHours.<n>.endTime", "firstDay", ...). The saved schedule
// is a TanStack query (lib/query) seeded by the page; the forms edit their own copy.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState, type FormEvent } from "react";
import { InputField } from "../components/Field";
import { api, ApiError, errorMessage, isUnauthorizedError } from "../lib/api";
import { formatDate } from "../lib/format";
import { mountQueryIsland, useSeededQuery } from "../lib/query";
import type { Schedule, TimeOff } from "../lib/types";

interface Props {
  schedule: Schedule;
  weekdays: string[];
  windows: Record<string, [string, string]>;
  timeStepMinutes: number;
  today: string;
}

interface Row {
  key: number;
  start: string;
  end: string;
}

const SCHEDULE = "/api/providers/me/schedule";
const TIME_REQUIRED = "Please enter a time like 09:30.";
let nextKey = 1;

/** "13:30" -> "1:30 PM". */
function clock(value: string): string {
  const [h = 0, m = 0] = value.split(":").map(Number);
  const hour = h % 12 === 0 ? 12 : h % 12;
  return `${hour}:${String(m).padStart(2, "0")} ${h < 12 ? "AM" : "PM"}`;
}

function rowsByDay(schedule: Schedule): Row[][] {
  const days: Row[][] = Array.from({ length: 7 }, () => []);
  for (const w of schedule.weeklyHours) days[w.weekday]?.push({ key: nextKey++, start: w.startTime, end: w.endTime });
  return days;
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
  const [days, setDays] = useState<Row[][]>(() => rowsByDay(initial));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState("");
  const [saved, setSaved] = useState("");
  const client = useQueryClient();
  const saveHours = useMutation({
    mutationFn: (body: { weeklyHours: { weekday: number; startTime: string; endTime: string }[] }) =>
      api.put<Schedule>(SCHEDULE, body),
    onSuccess: (schedule) => client.setQueryData([SCHEDULE], schedule),
  });
  const saving = saveHours.isPending;
  const [focusKey, setFocusKey] = useState<number | null>(null);

  // A window just added: its first time field takes the focus (keyboard users carry on typing).
  useEffect(() => {
    if (focusKey === null) return;
    document.getElementById(`w-${focusKey}-start`)?.focus();
    setFocusKey(null);
  }, [focusKey]);

  const setRow = (day: number, key: number, change: Partial<Row>) =>
    setDays(days.map((rows, d) => (d === day ? rows.map((r) => (r.key === key ? { ...r, ...change } : r)) : rows)));
  const addRow = (day: number) => {
    const rows = days[day] ?? [];
    const last = rows[rows.length - 1];
    const row = last
      ? { key: nextKey++, start: last.end, end: last.end }
      : { key: nextKey++, start: "09:00", end: "12:00" };
    setDays(days.map((r, d) => (d === day ? [...r, row] : r)));
    setFocusKey(row.key);
  };
  const removeRow = (day: number, key: number) => {
    setDays(days.map((rows, d) => (d === day ? rows.filter((r) => r.key !== key) : rows)));
    document.getElementById(`add-${day}`)?.focus();
  };

  const save = async (event: FormEvent) => {
    event.preventDefault();
    setSaved("");
    setMessage("");
    // The order sent: Monday's windows first; the server's errors name a window by its place here.
    const sent = days.flatMap((rows, weekday) => rows.map((r) => ({ weekday, row: r })));
    const missing: Record<string, string> = {};
    for (const { row } of sent) {
      if (!row.start) missing[`${row.key}-start`] = TIME_REQUIRED;
      if (!row.end) missing[`${row.key}-end`] = TIME_REQUIRED;
    }
    setErrors(missing);
    if (Object.keys(missing).length > 0) {
      setMessage("Please correct the highlighted times.");
      return;
    }
    try {
      const body = {
        weeklyHours: sent.map(({ weekday, row }) => ({ weekday, startTime: row.start, endTime: row.end })),
      };
      const schedule = await saveHours.mutateAsync(body);
      setDays(rowsByDay(schedule));
      setErrors({});
      setSaved(
        schedule.weeklyHours.length
          ? "Your weekly hours are saved."
          : "Your weekly hours are cleared: you are available any time.",
      );
    } catch (error) {
      const fields = failed(error, setMessage);
      const mapped: Record<string, string> = {};
      for (const [field, texts] of Object.entries(fields)) {
        const m = /^weeklyHours\.(\d+)\.(startTime|endTime|weekday)$/.exec(field);
        const item = m ? sent[Number(m[1])] : undefined;
        if (item && m) mapped[`${item.row.key}-${m[2] === "endTime" ? "end" : "start"}`] = texts[0] ?? "";
      }
      setErrors(mapped);
    }
  };

  const none = days.every((rows) => rows.length === 0);
  return (
    <section className="card" aria-labelledby="hours-heading">
      <h2 id="hours-heading">Weekly hours</h2>
      <p>
        Morning visits start at {clock(windows.morning?.[0] ?? "08:00")}, afternoon visits at{" "}
        {clock(windows.afternoon?.[0] ?? "12:00")} and evening visits at {clock(windows.evening?.[0] ?? "17:00")}. Your
        hours must cover the whole visit for you to accept it.
      </p>
      {none && (
        <p className="notice" data-testid="no-hours">
          You have not set any hours yet, so you are shown as available at any time. Add the times you can work to
          receive only requests that suit you.
        </p>
      )}
      <form onSubmit={(e) => void save(e)} noValidate>
        {weekdays.map((dayName, day) => (
          <fieldset key={dayName} className="fieldset schedule-day" data-testid={`day-${day}`}>
            <legend>{dayName}</legend>
            {(days[day] ?? []).length === 0 && <p className="muted">Not working</p>}
            {(days[day] ?? []).map((row, i) => (
              <div key={row.key} className="schedule-row">
                <InputField
                  id={`w-${row.key}-start`}
                  label={`${dayName} window ${i + 1}: from`}
                  type="time"
                  step={step * 60}
                  value={row.start}
                  error={errors[`${row.key}-start`]}
                  onChange={(e) => setRow(day, row.key, { start: e.target.value })}
                />
                <InputField
                  id={`w-${row.key}-end`}
                  label={`${dayName} window ${i + 1}: to`}
                  type="time"
                  step={step * 60}
                  value={row.end}
                  error={errors[`${row.key}-end`]}
                  onChange={(e) => setRow(day, row.key, { end: e.target.value })}
                />
                <button
                  type="button"
                  className="button button-secondary"
                  onClick={() => removeRow(day, row.key)}
                  aria-label={`Remove ${dayName} window ${i + 1}`}
                >
                  Remove
                </button>
              </div>
            ))}
            <button type="button" id={`add-${day}`} className="button button-secondary" onClick={() => addRow(day)}>
              Add hours on {dayName}
            </button>
          </fieldset>
        ))}
        {message && (
          <p className="field-error" role="alert" data-testid="hours-error">
            {message}
          </p>
        )}
        <p role="status" className="form-status" data-testid="hours-status">
          {saved}
        </p>
        <button type="submit" className="button button-primary" aria-disabled={saving}>
          {saving ? "Saving…" : "Save weekly hours"}
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
    onSuccess: (_answer, item) => setItems((list) => list.filter((t) => t.id !== item.id)),
  });
  const [form, setForm] = useState({ firstDay: "", lastDay: "", note: "" });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState("");
  const [status, setStatus] = useState("");
  const busy = addTimeOff.isPending;

  const add = async (event: FormEvent) => {
    event.preventDefault();
    setMessage("");
    setStatus("");
    try {
      const created = await addTimeOff.mutateAsync({
        firstDay: form.firstDay || null,
        lastDay: form.lastDay || form.firstDay || null,
        note: form.note,
      });
      setForm({ firstDay: "", lastDay: "", note: "" });
      setErrors({});
      setStatus(`Time off added: ${formatDate(created.firstDay)} to ${formatDate(created.lastDay)}.`);
    } catch (error) {
      const fields = failed(error, setMessage);
      setErrors(Object.fromEntries(Object.entries(fields).map(([f, t]) => [f, t[0] ?? ""])));
    }
  };

  const remove = async (item: TimeOff) => {
    setMessage("");
    try {
      await removeTimeOff.mutateAsync(item);
      setStatus(`Time off removed: ${formatDate(item.firstDay)} to ${formatDate(item.lastDay)}.`);
      document.getElementById("off-first")?.focus();
    } catch (error) {
      failed(error, setMessage);
    }
  };

  return (
    <section className="card" aria-labelledby="off-heading">
      <h2 id="off-heading">Time off</h2>
      <p>Days you are away. You will not be offered or able to accept visits on them.</p>
      {items.length === 0 ? (
        <p className="muted" data-testid="no-time-off">
          No time off planned.
        </p>
      ) : (
        <ul className="item-list" data-testid="time-off-list">
          {items.map((t) => (
            <li key={t.id} className="list-item schedule-off">
              <span>
                {t.firstDay === t.lastDay
                  ? formatDate(t.firstDay)
                  : `${formatDate(t.firstDay)} to ${formatDate(t.lastDay)}`}
                {t.note ? ` · ${t.note}` : ""}
              </span>
              <button
                type="button"
                className="button button-secondary"
                onClick={() => void remove(t)}
                aria-label={`Remove time off from ${formatDate(t.firstDay)} to ${formatDate(t.lastDay)}`}
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
      <form onSubmit={(e) => void add(e)} noValidate>
        <h3>Add time off</h3>
        <div className="schedule-row">
          <InputField
            id="off-first"
            label="First day"
            type="date"
            min={today}
            required
            value={form.firstDay}
            error={errors.firstDay}
            onChange={(e) => setForm({ ...form, firstDay: e.target.value })}
          />
          <InputField
            id="off-last"
            label="Last day"
            type="date"
            min={form.firstDay || today}
            hint="Leave empty for a single day."
            value={form.lastDay}
            error={errors.lastDay}
            onChange={(e) => setForm({ ...form, lastDay: e.target.value })}
          />
        </div>
        <InputField
          id="off-note"
          label="Note (optional)"
          maxLength={200}
          value={form.note}
          error={errors.note}
          onChange={(e) => setForm({ ...form, note: e.target.value })}
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
          Add time off
        </button>
      </form>
    </section>
  );
}

function ScheduleIsland(props: Props) {
  return (
    <div data-island="schedule" className="stack">
      <WeeklyHours
        initial={props.schedule}
        weekdays={props.weekdays}
        windows={props.windows}
        step={props.timeStepMinutes}
      />
      <TimeOffSection initial={props.schedule} today={props.today} />
    </div>
  );
}

mountQueryIsland(ScheduleIsland, "schedule");
