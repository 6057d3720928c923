// /admin's Disputes tab: the late fees families disputed (a helper reported nobody home), the
// longest waiting first. Staff read the family's reason and decide: "Release to helper" (the fee
// stands and is paid to her) or "Refund the family" (it goes back to the card), with a reason both
// sides are told, confirmed in a dialog that shows the amounts. The decision is audited by the
// server; a fee another staff member decided meanwhile answers 409, said in the dialog.
import { plural, t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { Dialog, DialogClose } from "../../components/Dialog";
import { EmptyState } from "../../components/EmptyState";
import { TextareaField } from "../../components/Field";
import { Pager } from "../../components/Pager";
import { ApiError, api, errorMessage, isUnauthorizedError } from "../../lib/api";
import { formatDateTime, formatMoney, formatVisit } from "../../lib/format";
import { useSchemaForm } from "../../lib/forms";
import { lateFeeDecisionSchema, type LateFeeDecisionValues } from "../../lib/schemas/admin";
import { toast } from "../../lib/toast";
import type { LateFeeDisputeRow } from "../../lib/types";
import { usePagedList } from "../../lib/usePagedList";
import { ListState } from "./ListParts";
import { ADMIN_ACTION, failed, ROWS_PER_PAGE } from "./common";

export const DISPUTES = "/api/admin/late-fee-disputes";

type Decision = "pay" | "waive";

interface Pending {
  dispute: LateFeeDisputeRow;
  decision: Decision;
}

/** How long a dispute has waited for staff, in words ("5 hours", "2 days"). */
export function waitedFor(since: string | null | undefined, now: Date = new Date()): string {
  if (!since) return "";
  const hours = Math.floor((now.getTime() - new Date(since).getTime()) / 3_600_000);
  if (hours < 1) return t`less than an hour`;
  if (hours < 48) return plural(hours, { one: "# hour", other: "# hours" });
  const days = Math.floor(hours / 24);
  return plural(days, { one: "# day", other: "# days" });
}

const helperOf = (d: LateFeeDisputeRow) => d.helperName || t`The helper`;
const familyOf = (d: LateFeeDisputeRow) => d.familyName || t`the family`;

function decisionTexts({ dispute: d, decision }: Pending) {
  const amount = formatMoney(d.amount);
  const helper = helperOf(d);
  const family = familyOf(d);
  if (decision === "pay") {
    return {
      title: t`Release ${amount} to ${helper}?`,
      description: t`${helper} is paid the late fee of ${amount}. ${family} gets nothing more back for this visit.`,
      action: t`Release ${amount}`,
      done: t`The late fee of ${amount} will be paid to ${helper}. Both sides are told.`,
    };
  }
  return {
    title: t`Refund ${amount} to the family?`,
    description: t`The late fee of ${amount} goes back to the card of ${family}. ${helper} is paid nothing for this visit.`,
    action: t`Refund ${amount}`,
    done: t`The late fee of ${amount} will be refunded to the family. Both sides are told.`,
  };
}

const NO_REASON: LateFeeDecisionValues = { reason: "" };

function DecisionDialog({
  pending,
  onClose,
  onDone,
}: {
  pending: Pending | null;
  onClose: () => void;
  onDone: () => Promise<unknown>;
}) {
  const { handleSubmit, values, set, error } = useSchemaForm<LateFeeDecisionValues>({
    schema: lateFeeDecisionSchema,
    defaultValues: NO_REASON,
    onChange: "none",
    resetOn: pending && `${pending.dispute.bookingId} ${pending.decision}`,
  });
  // The server's answer when it refused (409: already decided), shown in the dialog.
  const [problem, setProblem] = useState("");
  const decide = useMutation({
    mutationFn: ({ p, reason }: { p: Pending; reason: string }) =>
      api.post(`/api/admin/bookings/${p.dispute.bookingId}/late-fee`, { decision: p.decision, reason }),
    meta: ADMIN_ACTION,
    onSuccess: async (_data, { p }) => {
      toast({ title: t`Success`, description: decisionTexts(p).done });
      await onDone();
      onClose();
    },
    onError: async (err) => {
      if (!isUnauthorizedError(err) && err instanceof ApiError && err.status < 500 && err.serverMessage) {
        setProblem(err.serverMessage);
        if (err.status === 409) await onDone(); // decided elsewhere: the list drops it
        return;
      }
      failed(err, errorMessage(err));
    },
  });
  const confirm = handleSubmit(async ({ reason }) => {
    if (!pending || decide.isPending) return;
    setProblem("");
    await decide.mutateAsync({ p: pending, reason: reason.trim() }).catch(() => undefined);
  });
  const texts = pending ? decisionTexts(pending) : null;
  return (
    <Dialog
      open={pending !== null}
      onOpenChange={(open) => {
        if (!open) {
          setProblem("");
          onClose();
        }
      }}
      title={texts?.title ?? ""}
      description={texts?.description}
      testId="late-fee-decision-dialog"
      footer={
        <>
          <DialogClose>
            <Trans>Go back</Trans>
          </DialogClose>
          <button
            type="button"
            className={`button ${pending?.decision === "waive" ? "button-danger" : "button-primary"}`}
            disabled={decide.isPending}
            onClick={confirm}
          >
            {decide.isPending ? t`Saving...` : texts?.action}
          </button>
        </>
      }
    >
      {pending && (
        <p className="dialog-subject">
          <strong>
            #{pending.dispute.bookingId}: {pending.dispute.title}
          </strong>
          <br />
          {formatVisit(pending.dispute.scheduledDate, pending.dispute.scheduledTime, pending.dispute.timeZone)}
        </p>
      )}
      <TextareaField
        id="late-fee-decision-reason"
        label={t`Reason (the family and the helper are told)`}
        required
        value={values.reason}
        error={error("reason")}
        onChange={(e) => set("reason", e.currentTarget.value)}
      />
      {problem && (
        <p className="field-error" role="alert" data-testid="late-fee-decision-problem">
          {problem}
        </p>
      )}
    </Dialog>
  );
}

export function DisputesTab() {
  const { list, offset, setOffset, pageSize, reload } = usePagedList<LateFeeDisputeRow>(DISPUTES, {}, ROWS_PER_PAGE);
  const [pending, setPending] = useState<Pending | null>(null);
  return (
    <>
      <p className="muted">
        <Trans>
          Late fees families disputed after a helper reported nobody home, the longest waiting first. Read what the
          family says, then release the fee to the helper or refund it to the family.
        </Trans>
      </p>
      <ListState
        list={list}
        empty={
          <EmptyState title={t`No disputes`}>
            <Trans>Late fees families dispute show here, for you to decide.</Trans>
          </EmptyState>
        }
      >
        {(items) => (
          <ul className="grid plain-list" data-testid="late-fee-disputes">
            {items.map((d) => (
              <Dispute key={d.bookingId} dispute={d} onDecide={(decision) => setPending({ dispute: d, decision })} />
            ))}
          </ul>
        )}
      </ListState>
      {list.total !== null && (
        <Pager
          label={t`Late fee disputes`}
          total={list.total}
          offset={offset}
          pageSize={pageSize}
          busy={list.state === "loading"}
          onPage={setOffset}
          testId="disputes-pager"
        />
      )}
      <DecisionDialog pending={pending} onClose={() => setPending(null)} onDone={reload} />
    </>
  );
}

/** One disputed late fee: the visit, both sides, the fee, how long it waited, the family's words. */
function Dispute({ dispute: d, onDecide }: { dispute: LateFeeDisputeRow; onDecide: (decision: Decision) => void }) {
  const id = d.bookingId;
  const recipient = d.recipientName;
  const waited = waitedFor(d.disputedAt);
  const since = formatDateTime(d.disputedAt);
  return (
    <li className="card" data-testid="late-fee-dispute">
      <h3 className="h3">
        #{d.bookingId}: {d.title}
      </h3>
      <dl className="visit-report">
        <dt>
          <Trans>Visit</Trans>
        </dt>
        <dd>{formatVisit(d.scheduledDate, d.scheduledTime, d.timeZone)}</dd>
        <dt>
          <Trans>Family</Trans>
        </dt>
        <dd>
          {familyOf(d)}
          {recipient ? t`, for ${recipient}` : ""}
        </dd>
        <dt>
          <Trans>Helper</Trans>
        </dt>
        <dd>{helperOf(d)}</dd>
        <dt>
          <Trans>Late fee</Trans>
        </dt>
        <dd>{formatMoney(d.amount)}</dd>
        <dt>
          <Trans>Waiting</Trans>
        </dt>
        <dd>
          <Trans>
            {waited} (since {since})
          </Trans>
        </dd>
      </dl>
      <p>
        <strong>
          <Trans>The family says:</Trans>
        </strong>
      </p>
      <blockquote className="prewrap dispute-reason">{d.disputeReason}</blockquote>
      <div className="actions">
        <button type="button" className="button button-primary" onClick={() => onDecide("pay")}>
          <Trans>
            Release to helper<span className="visually-hidden"> for booking #{id}</span>
          </Trans>
        </button>
        <button type="button" className="button button-secondary" onClick={() => onDecide("waive")}>
          <Trans>
            Refund the family<span className="visually-hidden"> for booking #{id}</span>
          </Trans>
        </button>
      </div>
    </li>
  );
}
