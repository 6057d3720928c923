// /service-request-details?id= (spec section 2 "Service request detail page"): the request, and for a
// user with a provider profile a Provider Actions card with Accept Request (open requests) or
// Contact Client (any other status).
import { useCallback, useEffect, useState, type ReactNode } from "react";
import { ApiError, api, errorMessage, isUnauthorizedError, handleLoggedOut } from "../lib/api";
import { formatDate, formatDateTime, formatMoney, personName, timeWindowLabel, urgencyLabel } from "../lib/format";
import { mountIsland } from "../lib/mount";
import { toast } from "../lib/toast";
import type { ServiceRequest, Viewer } from "../lib/types";
import { StatusBadge } from "../components/StatusBadge";
import { LoadingText } from "../components/Skeleton";

interface Props {
  requestId: string | null;
  viewer: Viewer;
}

type Load = { state: "loading" } | { state: "missing" } | { state: "ready"; request: ServiceRequest };

function BackToDashboard() {
  return (
    <a className="button button-secondary" href="/">
      <span aria-hidden="true">←</span> Back to Dashboard
    </a>
  );
}

function Message({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="card page-message">
      <h1>{title}</h1>
      {children}
      <div className="actions">
        <BackToDashboard />
      </div>
    </div>
  );
}

function Detail({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="detail">
      <dt>{term}</dt>
      <dd>{children}</dd>
    </div>
  );
}

function RequestDetails({ requestId, viewer }: Props) {
  const [load, setLoad] = useState<Load>(requestId ? { state: "loading" } : { state: "missing" });
  const [accepting, setAccepting] = useState(false);
  const [acceptError, setAcceptError] = useState("");

  const fetchRequest = useCallback(async () => {
    if (!requestId) return;
    if (!/^\d+$/.test(requestId)) {
      setLoad({ state: "missing" });
      return;
    }
    try {
      const request = await api.get<ServiceRequest>(`/api/service-requests/${requestId}`);
      setLoad({ state: "ready", request });
    } catch (error) {
      if (isUnauthorizedError(error)) {
        handleLoggedOut();
        return;
      }
      setLoad({ state: "missing" });
    }
  }, [requestId]);

  useEffect(() => {
    void fetchRequest();
  }, [fetchRequest]);

  if (!requestId) {
    return (
      <Message title="No Request ID">
        <p>No service request was specified. Open a request from your dashboard.</p>
      </Message>
    );
  }
  if (load.state === "loading") return <LoadingText>Loading request…</LoadingText>;
  if (load.state === "missing") {
    return (
      <Message title="Request Not Found">
        <p>This service request could not be loaded. It may have been removed.</p>
      </Message>
    );
  }

  const request = load.request;
  const isOpen = request.status === "open";
  const isOwner = request.clientId === viewer.id;

  async function accept() {
    setAccepting(true);
    setAcceptError("");
    try {
      await api.post(`/api/service-requests/${request.id}/accept`);
      toast({ title: "Success", description: "Service request accepted! You can now contact the client." });
      await fetchRequest();
    } catch (error) {
      if (isUnauthorizedError(error)) {
        handleLoggedOut();
        return;
      }
      // A refusal the provider can act on (pending verification, already taken) is shown as the
      // server words it; anything else gets the spec's generic text.
      const known = error instanceof ApiError && [403, 409].includes(error.status);
      const message = known ? errorMessage(error) : "Failed to accept service request. Please try again.";
      setAcceptError(message);
      toast({ title: "Error", description: message, variant: "destructive" });
      if (error instanceof ApiError && error.status === 409) await fetchRequest();
    } finally {
      setAccepting(false);
    }
  }

  return (
    <div className="details-layout">
      <div className="details-main">
        <p>
          <BackToDashboard />
        </p>
        <article className="card" aria-labelledby="request-title">
          <div className="card-head">
            <h1 id="request-title">{request.title}</h1>
            <div className="badges">
              <StatusBadge status={request.status} />
              <StatusBadge status={request.urgency} label={`${urgencyLabel(request.urgency)} urgency`} />
            </div>
          </div>
          {request.serviceCategory && <p className="muted">{request.serviceCategory.name}</p>}
          <h2 className="visually-hidden">Description</h2>
          <p className="prewrap">{request.description}</p>
          <dl className="details">
            <Detail term="Preferred date">{formatDate(request.preferredDate) || "Flexible"}</Detail>
            <Detail term="Preferred time">{timeWindowLabel(request.preferredTime) || "Flexible"}</Detail>
            {request.location && <Detail term="Location">{request.location}</Detail>}
            <Detail term="Estimated duration">
              {request.estimatedDuration ? `${request.estimatedDuration} minutes` : "Not specified"}
            </Detail>
            <Detail term="Budget">{request.maxBudget ? formatMoney(request.maxBudget) : "Not specified"}</Detail>
            {request.client && <Detail term="Client">{personName(request.client)}</Detail>}
            <Detail term="Posted">{formatDateTime(request.createdAt)}</Detail>
          </dl>
          {request.specialRequirements && (
            <>
              <h2 className="h3">Special requirements</h2>
              <p className="prewrap">{request.specialRequirements}</p>
            </>
          )}
          {isOwner && isOpen && (
            <div className="actions">
              <a className="button button-secondary" href={`/edit-service-request?id=${request.id}`}>
                Edit Request
              </a>
            </div>
          )}
        </article>
      </div>

      {viewer.provider && !isOwner && (
        <aside className="details-side">
          <section className="card" aria-labelledby="provider-actions-heading" data-testid="provider-actions">
            <h2 id="provider-actions-heading">Provider Actions</h2>
            {isOpen ? (
              <>
                <p>Accept this request to book the visit. You can then message the client.</p>
                <button type="button" className="button button-primary" onClick={accept} disabled={accepting}>
                  {accepting ? "Accepting..." : "Accept Request"}
                </button>
              </>
            ) : (
              <>
                <p>This request is no longer open.</p>
                <a
                  className="button button-primary"
                  href={request.clientId ? `/messages?with=${encodeURIComponent(request.clientId)}` : "/messages"}
                >
                  Contact Client
                </a>
              </>
            )}
            <p className="field-error" role="alert" data-testid="accept-error">
              {acceptError}
            </p>
          </section>
        </aside>
      )}
    </div>
  );
}

mountIsland(RequestDetails, "request-details-root", "request-details-props");
