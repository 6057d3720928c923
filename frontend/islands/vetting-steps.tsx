// /provider-signup, after the application: her two checks ("Verify your ID", "Background check
// consent") with their status and a start button. Starting asks the server (POST), which creates
// the session or invitation in the background; the page asks again until its link is ready, then
// offers "Continue". The server's words show when a checking service cannot be reached.
import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { api, errorMessage } from "../lib/api";
import { mountQueryIsland, useApiWrite } from "../lib/query";
import type { MyVetting as Mine, VettingStep as Step } from "../lib/types";

const MINE = "/api/vetting/me";
const POLL_MS = 2000;

/** A check's status in words, read when shown (in the page's language). */
function statusWords(status: string): string {
  switch (status) {
    case "starting":
      return t`Getting your link ready…`;
    case "pending":
      return t`Waiting for you`;
    case "invited":
      return t`Waiting for your consent`;
    case "verified":
      return t`Done: your ID is verified`;
    case "requires_input":
      return t`Not verified yet: please try again`;
    case "canceled":
      return t`Stopped: please start again`;
    case "clear":
      return t`Done: your check came back clear`;
    case "consider":
      return t`Done: our team is reviewing the report`;
    case "suspended":
      return t`On hold at Checkr`;
    case "dispute":
      return t`Under dispute`;
    default:
      return t`Not started`;
  }
}

function StepCard({
  slug,
  title,
  help,
  step,
  done,
  startLabel,
  onStart,
  busy,
}: {
  /** The card's ids ("verify-your-id"), the same in every language. */
  slug: string;
  title: string;
  help: string;
  step: Step | null;
  done: boolean;
  startLabel: string;
  onStart: () => void;
  busy: boolean;
}) {
  const status = step?.status ?? "not_started";
  const canStart = !done && (step === null || ["requires_input", "canceled"].includes(status));
  const id = slug;
  const words = statusWords(status);
  return (
    <li className="card vetting-step" aria-labelledby={`${id}-heading`} data-testid={`vetting-${id}`}>
      <h3 id={`${id}-heading`}>{title}</h3>
      <p>{help}</p>
      <p>
        <Trans>
          Status: <strong data-testid={`vetting-${id}-status`}>{words}</strong>
        </Trans>
      </p>
      {step?.message ? <p role="status">{step.message}</p> : null}
      {canStart ? (
        <button type="button" className="button button-primary" onClick={onStart} disabled={busy}>
          {startLabel}
        </button>
      ) : null}
      {!done && step?.url && ["pending", "invited"].includes(status) ? (
        <a className="button button-primary" href={step.url}>
          {t`Continue: ${title}`}
        </a>
      ) : null}
    </li>
  );
}

export function VettingSteps() {
  const [error, setError] = useState("");
  const mine = useQuery<Mine>({
    queryKey: [MINE],
    queryFn: () => api.get<Mine>(MINE),
    refetchInterval: (query) => {
      const data = query.state.data;
      const waiting = [data?.identity?.status, data?.backgroundCheck?.status].includes("starting");
      return waiting ? POLL_MS : false;
    },
  });
  const write = useApiWrite([[MINE]]);
  const start = (path: string) => {
    setError("");
    write.post(path).catch((e: unknown) => setError(errorMessage(e)));
  };
  const data = mine.data;
  if (!data) return <p className="muted">{t`Loading your checks…`}</p>;
  return (
    <>
      {error ? (
        <p className="field-error" role="alert">
          {error}
        </p>
      ) : null}
      <ol className="vetting-steps">
        <StepCard
          slug="verify-your-id"
          title={t`Verify your ID`}
          help={t`A photo of your driver's license or passport and a selfie, checked by Stripe. Kindly keeps only the result, your verified name and date of birth.`}
          step={data.identity}
          done={data.identity?.status === "verified"}
          startLabel={t`Start: verify your ID`}
          onStart={() => start("/api/vetting/identity")}
          busy={write.isPending}
        />
        <StepCard
          slug="background-check-consent"
          title={t`Background check consent`}
          help={t`A criminal background check by Checkr, with your consent. It is re-checked once a year.`}
          step={data.backgroundCheck}
          done={["clear", "consider"].includes(data.backgroundCheck?.status ?? "")}
          startLabel={t`Start: give consent`}
          onStart={() => start("/api/vetting/background-check")}
          busy={write.isPending}
        />
      </ol>
    </>
  );
}

mountQueryIsland(VettingSteps, "vetting-steps");
