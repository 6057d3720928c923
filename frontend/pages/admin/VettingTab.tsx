// /admin's Vetting tab: each applicant's identity result (a name that differs from her profile is
// flagged), her background report's summary, and for a "consider" report the decision with its
// reason and the adverse-action steps (pre-adverse notice, waiting period, final notice), each
// recorded in order. The server owns every rule; its words show when it refuses.
import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { api, errorMessage } from "../../lib/api";
import { formatDate } from "../../lib/format";
import { useApiWrite } from "../../lib/query";
import type { VettingQueueItem } from "../../lib/types";

export const VETTING = "/api/admin/vetting";

/** The adverse-action steps, in their order (vetting.models.AdverseStep). */
const STEPS = ["pre_adverse_notice", "waiting_period", "final_notice"] as const;

function stepLabel(step: string): string {
  const words: Record<string, string> = {
    pre_adverse_notice: t`Pre-adverse action notice sent`,
    waiting_period: t`Waiting period over`,
    final_notice: t`Final adverse action notice sent`,
  };
  return words[step] ?? step;
}

/** An identity check's or a background report's state as the server says it ("verified",
 * "consider"), in the page's language; one it does not know, as sent. */
function checkStateText(state: string | null | undefined): string {
  if (!state) return t`not started`;
  const words: Record<string, string> = {
    // vetting.models.IdentityStatus
    starting: t`starting`,
    pending: t`pending`,
    verified: t`verified`,
    requires_input: t`requires_input`,
    canceled: t`canceled`,
    // vetting.models.CheckStatus
    invited: t`invited`,
    clear: t`clear`,
    consider: t`consider`,
    suspended: t`suspended`,
    dispute: t`dispute`,
  };
  return words[state] ?? state;
}

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
  const next = STEPS.find((step) => !done.has(step));
  const base = `${VETTING}/${item.providerId}`;
  const run = (promise: Promise<unknown>) => {
    setError("");
    promise.catch((e: unknown) => setError(errorMessage(e)));
  };
  const outcomeText = adjudication?.outcome === "engage" ? t`Engage` : t`Adverse action`;
  const decisionReason = adjudication?.reason;
  const nextLabel = next ? stepLabel(next) : "";
  const decide = (event: FormEvent) => {
    event.preventDefault();
    run(write.post(`${base}/adjudication`, { outcome, reason }));
  };
  const id = `vetting-${item.providerId}`;
  const name = item.name;
  const identityState = checkStateText(item.identity?.status);
  const verifiedName = item.identity?.verifiedName;
  const reportState = checkStateText(check?.status);
  const reportId = check?.reportId;
  return (
    <li className="card" aria-labelledby={`${id}-name`} data-testid={id}>
      <h3 id={`${id}-name`}>{item.name}</h3>
      <p>
        <Trans>
          ID: <strong>{identityState}</strong>
        </Trans>
        {verifiedName ? t` (verified name: ${verifiedName})` : ""}
        {item.identity?.completedAt ? `, ${when(item.identity.completedAt)}` : ""}
      </p>
      {item.nameMismatch ? (
        <p className="field-error" data-testid={`${id}-mismatch`}>
          <Trans>The verified name differs from her profile&apos;s name.</Trans>
        </p>
      ) : null}
      <p>
        <Trans>
          Background check: <strong data-testid={`${id}-report`}>{reportState}</strong>
        </Trans>
        {reportId ? t` (report ${reportId})` : ""}
        {check?.completedAt ? `, ${when(check.completedAt)}` : ""}
      </p>
      {error ? (
        <p className="field-error" role="alert">
          {error}
        </p>
      ) : null}
      {check?.status === "consider" && !adjudication ? (
        <form onSubmit={decide} aria-label={t`Decision on ${name}'s report`}>
          <label htmlFor={`${id}-outcome`}>
            <Trans>Decision</Trans>
          </label>
          <select id={`${id}-outcome`} value={outcome} onChange={(e) => setOutcome(e.currentTarget.value)}>
            <option value="engage">{t`Engage (the report does not bar her)`}</option>
            <option value="adverse_action">{t`Adverse action (not approved)`}</option>
          </select>
          <label htmlFor={`${id}-reason`}>
            <Trans>Reason</Trans>
          </label>
          <textarea id={`${id}-reason`} value={reason} onChange={(e) => setReason(e.currentTarget.value)} />
          <button type="submit" className="button button-primary" disabled={write.isPending}>
            <Trans>Record the decision</Trans>
          </button>
        </form>
      ) : null}
      {adjudication ? (
        <>
          <p>
            <Trans>
              Decision: <strong>{outcomeText}</strong> ({decisionReason})
            </Trans>
          </p>
          {adjudication.outcome === "adverse_action" ? (
            <>
              <ol aria-label={t`Adverse-action steps`}>
                {STEPS.map((step) => {
                  const recorded = adjudication.steps.find((s) => s.step === step);
                  const on = recorded ? when(recorded.recordedAt) : "";
                  return (
                    <li key={step}>
                      {stepLabel(step)}: {recorded ? t`recorded ${on}` : t`not yet`}
                    </li>
                  );
                })}
              </ol>
              {next ? (
                <div>
                  <label htmlFor={`${id}-note`}>
                    <Trans>Note (optional)</Trans>
                  </label>
                  <input id={`${id}-note`} value={note} onChange={(e) => setNote(e.currentTarget.value)} />
                  <button
                    type="button"
                    className="button button-secondary"
                    disabled={write.isPending}
                    onClick={() => run(write.post(`${base}/adverse-steps`, { step: next, note }))}
                  >
                    <Trans>Record: {nextLabel}</Trans>
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
  if (!queue.data) {
    return (
      <p className="muted">
        <Trans>Loading the vetting queue…</Trans>
      </p>
    );
  }
  if (queue.data.length === 0) {
    return (
      <p>
        <Trans>No applicant has started a check yet.</Trans>
      </p>
    );
  }
  return (
    <ul className="vetting-queue" aria-label={t`Applicants' checks`}>
      {queue.data.map((item) => (
        <Applicant key={item.providerId} item={item} />
      ))}
    </ul>
  );
}
