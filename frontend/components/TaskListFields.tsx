// The family's task list for a visit, on the request forms: suggestions for the chosen service (its
// checklist) added with one tap, items typed in, each removable. The helper sees the list before
// accepting and marks each item at check-out. Limits: the generated rules (TASKS_MAX, TASK_MAX_LENGTH).
import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { useState } from "react";
import { FieldSet } from "./Field";
import { TASKS_MAX, TASK_MAX_LENGTH, cleanTasks } from "../lib/schemas/service-request";

export function TaskListFields({
  id,
  tasks,
  suggestions,
  error,
  onChange,
}: {
  id: string;
  tasks: string[];
  suggestions: string[];
  error?: string;
  onChange: (tasks: string[]) => void;
}) {
  const [draft, setDraft] = useState("");
  const listed = new Set(tasks.map((task) => task.toLowerCase()));
  const offered = suggestions.filter((s) => !listed.has(s.toLowerCase()));
  const full = tasks.length >= TASKS_MAX;
  const add = (item: string) => {
    const [clean] = cleanTasks([item]);
    if (!clean || listed.has(clean.toLowerCase()) || full) return;
    onChange([...tasks, clean]);
  };
  const addDraft = () => {
    add(draft);
    setDraft("");
  };
  return (
    <FieldSet
      id={id}
      legend={t`What is the visit for? (optional)`}
      hint={t`List up to ${TASKS_MAX} things the helper should do. She ticks each one off before she leaves, and you see what was done.`}
      error={error}
    >
      {tasks.length > 0 && (
        <ol className="task-list" data-testid={`${id}-list`}>
          {tasks.map((task, i) => (
            <li key={task} className="task-item">
              <span>{task}</span>
              <button
                type="button"
                className="button button-secondary"
                onClick={() => onChange(tasks.filter((_, j) => j !== i))}
              >
                <Trans>
                  Remove<span className="visually-hidden"> {task}</span>
                </Trans>
              </button>
            </li>
          ))}
        </ol>
      )}
      {offered.length > 0 && !full && (
        <div className="task-suggestions" role="group" aria-label={t`Suggestions for this service`}>
          {offered.map((s) => (
            <button key={s} type="button" className="button button-secondary" onClick={() => add(s)}>
              <span aria-hidden="true">+ </span>
              <span className="visually-hidden">{t`Add`} </span>
              {s}
            </button>
          ))}
        </div>
      )}
      {!full && (
        <div className="task-add">
          <label htmlFor={`${id}-new`}>{t`Another task`}</label>
          <input
            id={`${id}-new`}
            value={draft}
            maxLength={TASK_MAX_LENGTH}
            onChange={(e) => setDraft(e.currentTarget.value)}
            onKeyDown={(e) => {
              if (e.key === "Enter") {
                e.preventDefault();
                addDraft();
              }
            }}
          />
          <button type="button" className="button button-secondary" onClick={addDraft} disabled={!draft.trim()}>
            {t`Add task`}
          </button>
        </div>
      )}
    </FieldSet>
  );
}
