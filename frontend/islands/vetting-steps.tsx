// /provider-signup, after the application: her two checks ("Verify your ID", "Background check
// consent") with their status and a start button. Starting asks the server (POST), which creates
// the session or invitation in the background; the page asks again until its link is ready, then
// offers "Continue". The server's words show when a checking service cannot be reached.
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { api, errorMessage } from "../lib/api";
import { mountQueryIsland, useApiWrite } from "../lib/query";
import type { MyVetting as Mine, VettingStep as Step } from "../lib/types";

const MINE = "/api/vetting/me";
const POLL_MS = 2000;

const WORDS: Record<string, string> = {
  starting: "Getting your link ready…",
  pending: "Waiting for you",
  invited: "Waiting for your consent",
  verified: "Done: your ID is verified",
  requires_input: "Not verified yet: please try again",
  canceled: "Stopped: please start again",
  clear: "Done: your check came back clear",
  consider: "Done: our team is reviewing the report",
  suspended: "On hold at Checkr",
  dispute: "Under dispute",
};

function StepCard({
  title,
  help,
  step,
  done,
  startLabel,
  onStart,
  busy,
}: {
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
  const id = title.toLowerCase().replace(/\W+/g, "-");
  return (
    <li className="card vetting-step" aria-labelledby={`${id}-heading`} data-testid={`vetting-${id}`}>
      <h3 id={`${id}-heading`}>{title}</h3>
      <p>{help}</p>
      <p>
        Status: <strong data-testid={`vetting-${id}-status`}>{WORDS[status] ?? "Not started"}</strong>
      </p>
      {step?.message ? <p role="status">{step.message}</p> : null}
      {canStart ? (
        <button type="button" className="button button-primary" onClick={onStart} disabled={busy}>
          {startLabel}
        </button>
      ) : null}
      {!done && step?.url && ["pending", "invited"].includes(status) ? (
        <a className="button button-primary" href={step.url}>
          Continue: {title}
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
  if (!data) return <p className="muted">Loading your checks…</p>;
  return (
    <>
      {error ? (
        <p className="field-error" role="alert">
          {error}
        </p>
      ) : null}
      <ol className="vetting-steps">
        <StepCard
          title="Verify your ID"
          help="A photo of your driver's license or passport and a selfie, checked by Stripe. Kindly keeps only the result, your verified name and date of birth."
          step={data.identity}
          done={data.identity?.status === "verified"}
          startLabel="Start: verify your ID"
          onStart={() => start("/api/vetting/identity")}
          busy={write.isPending}
        />
        <StepCard
          title="Background check consent"
          help="A criminal background check by Checkr, with your consent. It is re-checked once a year."
          step={data.backgroundCheck}
          done={["clear", "consider"].includes(data.backgroundCheck?.status ?? "")}
          startLabel="Start: give consent"
          onStart={() => start("/api/vetting/background-check")}
          busy={write.isPending}
        />
      </ol>
    </>
  );
}

mountQueryIsland(VettingSteps, "vetting-steps");
