// /admin's Vetting tab: each applicant's identity result (a name that differs from her profile is
// flagged), her background report's summary, and for a "consider" report the decision with its
// reason and the adverse-action steps (pre-adverse notice, waiting period, final notice), each
// recorded in order. The server owns every rule; its words show when it refuses.
import { useQuery } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { api, errorMessage } from "../../lib/api";
import { formatDate } from "../../lib/format";
import { useApiWrite } from "../../lib/query";
import type { VettingQueueItem } from "../../lib/types";

export const VETTING = "/api/admin/vetting";

const STEPS: [string, string][] = [
  ["pre_adverse_notice", "Pre-adverse action notice sent"],
  ["waiting_period", "Waiting period over"],
  ["final_notice", "Final adverse action notice sent"],
];

function when(value: string | null | undefined): string {
  return value ? formatDate(value.slice(0, 10)) : "";
}

function Applicant({ item }: { item: VettingQueueItem }) {
  const write = useApiWrite([[VETTING]]);
  const [outcome, setOutcome] = useState("engage");
  const [reason, setReason] = useState("");
  const [note, setNote] = useState("");
  const [error, setError] = useState("");
  const check = item.backgroundCheck;
  const adjudication = check?.adjudication ?? null;
  const done = new Set((adjudication?.steps ?? []).map((s) => s.step));
  const next = STEPS.find(([step]) => !done.has(step));
  const base = `${VETTING}/${item.providerId}`;
  const run = (promise: Promise<unknown>) => {
    setError("");
    promise.catch((e: unknown) => setError(errorMessage(e)));
  };
  const decide = (event: FormEvent) => {
    event.preventDefault();
    run(write.post(`${base}/adjudication`, { outcome, reason }));
  };
  const id = `vetting-${item.providerId}`;
  return (
    <li className="card" aria-labelledby={`${id}-name`} data-testid={id}>
      <h3 id={`${id}-name`}>{item.name}</h3>
      <p>
        ID: <strong>{item.identity ? item.identity.status : "not started"}</strong>
        {item.identity?.verifiedName ? ` (verified name: ${item.identity.verifiedName})` : ""}
        {item.identity?.completedAt ? `, ${when(item.identity.completedAt)}` : ""}
      </p>
      {item.nameMismatch ? (
        <p className="field-error" data-testid={`${id}-mismatch`}>
          The verified name differs from her profile&apos;s name.
        </p>
      ) : null}
      <p>
        Background check: <strong data-testid={`${id}-report`}>{check ? check.status : "not started"}</strong>
        {check?.reportId ? ` (report ${check.reportId})` : ""}
        {check?.completedAt ? `, ${when(check.completedAt)}` : ""}
      </p>
      {error ? (
        <p className="field-error" role="alert">
          {error}
        </p>
      ) : null}
      {check?.status === "consider" && !adjudication ? (
        <form onSubmit={decide} aria-label={`Decision on ${item.name}'s report`}>
          <label htmlFor={`${id}-outcome`}>Decision</label>
          <select id={`${id}-outcome`} value={outcome} onChange={(e) => setOutcome(e.currentTarget.value)}>
            <option value="engage">Engage (the report does not bar her)</option>
            <option value="adverse_action">Adverse action (not approved)</option>
          </select>
          <label htmlFor={`${id}-reason`}>Reason</label>
          <textarea id={`${id}-reason`} value={reason} onChange={(e) => setReason(e.currentTarget.value)} />
          <button type="submit" className="button button-primary" disabled={write.isPending}>
            Record the decision
          </button>
        </form>
      ) : null}
      {adjudication ? (
        <>
          <p>
            Decision: <strong>{adjudication.outcome === "engage" ? "Engage" : "Adverse action"}</strong> (
            {adjudication.reason})
          </p>
          {adjudication.outcome === "adverse_action" ? (
            <>
              <ol aria-label="Adverse-action steps">
                {STEPS.map(([step, label]) => {
                  const recorded = adjudication.steps.find((s) => s.step === step);
                  return (
                    <li key={step}>
                      {label}: {recorded ? `recorded ${when(recorded.recordedAt)}` : "not yet"}
                    </li>
                  );
                })}
              </ol>
              {next ? (
                <div>
                  <label htmlFor={`${id}-note`}>Note (optional)</label>
                  <input id={`${id}-note`} value={note} onChange={(e) => setNote(e.currentTarget.value)} />
                  <button
                    type="button"
                    className="button button-secondary"
                    disabled={write.isPending}
                    onClick={() => run(write.post(`${base}/adverse-steps`, { step: next[0], note }))}
                  >
                    Record: {next[1]}
                  </button>
                </div>
              ) : null}
            </>
          ) : null}
        </>
      ) : null}
    </li>
  );
}

export function VettingTab() {
  const queue = useQuery({ queryKey: [VETTING], queryFn: () => api.get<VettingQueueItem[]>(VETTING) });
  if (!queue.data) return <p className="muted">Loading the vetting queue…</p>;
  if (queue.data.length === 0) return <p>No applicant has started a check yet.</p>;
  return (
    <ul className="vetting-queue" aria-label="Applicants' checks">
      {queue.data.map((item) => (
        <Applicant key={item.providerId} item={item} />
      ))}
    </ul>
  );
}
