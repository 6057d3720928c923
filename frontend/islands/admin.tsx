// /admin (spec section 2 "Admin dashboard"), also the admin's landing: a summary (pending
// applications, today's bookings), then three tabs (Providers, Bookings, Service Requests) with
// count cards, provider approval (confirmed in a dialog), and the Reassign / Cancel booking dialogs.
import * as Tabs from "@radix-ui/react-tabs";
import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { api, isUnauthorizedError, handleLoggedOut, redirectAfter } from "../lib/api";
import { TIME_WINDOWS, formatDate, formatDateTime, formatMoney, formatVisit, personName, plural, specialtyName, timeWindowLabel } from "../lib/format";
import { mountIsland } from "../lib/mount";
import { toast } from "../lib/toast";
import type { Booking, PersonSummary, Provider, ServiceRequest } from "../lib/types";
import { Dialog, DialogClose } from "../components/Dialog";
import { SelectField, TextareaField } from "../components/Field";
import { EmptyState } from "../components/EmptyState";
import { LoadingText } from "../components/Skeleton";
import { StatusBadge } from "../components/StatusBadge";

interface Props {
  admin: { id: string; firstName: string };
  /** The site's date ("YYYY-MM-DD"): which bookings are today's. */
  today: string;
}

type Verdict = "verified" | "rejected";

type Loaded<T> = { state: "loading" } | { state: "error" } | { state: "ready"; items: T[] };

const PAGE = 200;

/** Every row of a list endpoint (they answer bare arrays, paged by ?limit=&offset=). */
async function fetchAll<T>(path: string): Promise<T[]> {
  const all: T[] = [];
  for (let offset = 0; ; offset += PAGE) {
    const page = await api.get<T[]>(`${path}?limit=${PAGE}&offset=${offset}`);
    all.push(...page);
    if (page.length < PAGE) return all;
  }
}

/** Spec section 8: a 401 on an admin action means the session is gone. */
function sessionExpired(): void {
  toast({ title: "Error", description: "Session expired. Please login again.", variant: "destructive" });
  redirectAfter("/", 500);
}

function failed(error: unknown, text: string): void {
  if (isUnauthorizedError(error) || (error instanceof Error && /^401:/.test(error.message))) {
    sessionExpired();
    return;
  }
  toast({ title: "Error", description: text, variant: "destructive" });
}

function useList<T>(path: string) {
  const [list, setList] = useState<Loaded<T>>({ state: "loading" });
  const reload = useCallback(async () => {
    try {
      setList({ state: "ready", items: await fetchAll<T>(path) });
    } catch (error) {
      if (isUnauthorizedError(error)) {
        handleLoggedOut();
        return;
      }
      setList({ state: "error" });
    }
  }, [path]);
  useEffect(() => {
    void reload();
  }, [reload]);
  return [list, reload] as const;
}

function CountCards({ cards, label }: { cards: { label: string; value: number | string }[]; label: string }) {
  return (
    <ul className="count-cards" aria-label={label}>
      {cards.map((c) => (
        <li key={c.label} className="card count-card" data-testid={`count-${c.label}`}>
          <span className="count-label">{c.label}</span>
          <span className="count-value">{c.value}</span>
        </li>
      ))}
    </ul>
  );
}

function ListState<T>({ list, children }: { list: Loaded<T>; children: (items: T[]) => ReactNode }) {
  if (list.state === "loading") return <LoadingText />;
  if (list.state === "error") {
    return (
      <p className="field-error" role="alert">
        Could not load this list. Please refresh the page.
      </p>
    );
  }
  return <>{children(list.items)}</>;
}

// ---- Providers ---------------------------------------------------------------------------------

function matchesSearch(p: Provider, query: string): boolean {
  const q = query.trim().toLowerCase();
  if (!q) return true;
  const haystack = [
    p.user?.firstName ?? "",
    p.user?.lastName ?? "",
    p.user?.email ?? "",
    ...p.specialties,
    ...p.specialties.map(specialtyName),
  ];
  return haystack.some((text) => text.toLowerCase().includes(q));
}

function ProviderCard({ provider, onStatus, busy }: { provider: Provider; onStatus: (status: Verdict) => void; busy: boolean }) {
  const name = personName(provider.user) || "Provider";
  const status = provider.verificationStatus;
  return (
    <li className="card admin-provider" data-testid="admin-provider">
      <div className="card-head">
        <div>
          <h4 className="admin-provider-name">{name}</h4>
          <p className="muted break">{provider.user?.email}</p>
        </div>
        <StatusBadge status={provider.verificationStatus} />
      </div>
      <dl className="details">
        <div className="detail">
          <dt>Phone</dt>
          <dd>{provider.phone ? <a href={`tel:${provider.phone.replace(/[^\d+]/g, "")}`}>{provider.phone}</a> : "No phone given"}</dd>
        </div>
        <div className="detail">
          <dt>Specialties</dt>
          <dd>{provider.specialties.length ? provider.specialties.map(specialtyName).join(", ") : "No specialties"}</dd>
        </div>
        <div className="detail">
          <dt>Service area</dt>
          <dd>{provider.serviceArea || "No area specified"}</dd>
        </div>
        <div className="detail">
          <dt>Hourly rate</dt>
          <dd>{provider.hourlyRate !== null ? `${formatMoney(provider.hourlyRate)} per hour` : "Not set"}</dd>
        </div>
      </dl>
      <dl className="admin-provider-texts">
        <div>
          <dt>Bio</dt>
          <dd className="prewrap">{provider.bio || "No bio"}</dd>
        </div>
        <div data-testid="admin-provider-experience">
          <dt>Experience</dt>
          <dd className="prewrap">{provider.experience || "No experience described"}</dd>
        </div>
      </dl>
      {(status === "pending" || status === "rejected") && (
        <div className="actions">
          <button type="button" className="button button-primary" disabled={busy} onClick={() => onStatus("verified")}>
            Approve<span className="visually-hidden"> {name}</span>
          </button>
          {status === "pending" && (
            <button type="button" className="button button-danger" disabled={busy} onClick={() => onStatus("rejected")}>
              Reject<span className="visually-hidden"> {name}</span>
            </button>
          )}
        </div>
      )}
    </li>
  );
}

function ProviderGroup({
  title,
  providers,
  onStatus,
  busyId,
  focus = false,
  onFocused,
}: {
  title: string;
  providers: Provider[];
  onStatus: (p: Provider, s: Verdict) => void;
  busyId: number | null;
  /** Move focus to this group's heading (once it is on the page), then call onFocused. */
  focus?: boolean;
  onFocused?: () => void;
}) {
  const id = `group-${title.replace(/\s+/g, "-").toLowerCase()}`;
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (!focus || !heading.current) return;
    heading.current.focus({ preventScroll: true });
    heading.current.scrollIntoView({ block: "start" });
    onFocused?.();
  }, [focus, onFocused]);
  return (
    <section className="admin-group" aria-labelledby={id} data-testid={id}>
      <h3 id={id} tabIndex={-1} ref={heading}>
        {title} <span className="muted">({providers.length})</span>
      </h3>
      {providers.length === 0 ? (
        <EmptyState title="No providers found" headingLevel={4} />
      ) : (
        <ul className="grid plain-list">
          {providers.map((p) => (
            <ProviderCard key={p.id} provider={p} busy={busyId === p.id} onStatus={(s) => onStatus(p, s)} />
          ))}
        </ul>
      )}
    </section>
  );
}

interface PendingVerdict {
  provider: Provider;
  status: Verdict;
}

function verdictTexts({ provider, status }: PendingVerdict): { title: string; description: string; action: string } {
  const name = personName(provider.user) || "this provider";
  if (status === "verified") {
    return {
      title: `Approve ${name}?`,
      description:
        provider.verificationStatus === "rejected"
          ? `${name} was rejected before. Approving verifies them now: they can see open requests, with clients' addresses, and accept them.`
          : `${name} will be verified: they can see open requests, with clients' addresses, and accept them.`,
      action: "Approve",
    };
  }
  return {
    title: `Reject ${name}?`,
    description: `${name} will be told their application was not approved. You can still approve them later from Rejected Providers.`,
    action: "Reject",
  };
}

/** Approve / Reject asks first: the decision lets a stranger see seniors' home addresses (or not). */
function VerdictDialog({ verdict, busy, onClose, onConfirm }: { verdict: PendingVerdict | null; busy: boolean; onClose: () => void; onConfirm: (reason: string) => void }) {
  const [reason, setReason] = useState("");
  useEffect(() => setReason(""), [verdict?.provider.id, verdict?.status]);
  const texts = verdict ? verdictTexts(verdict) : null;
  return (
    <Dialog
      open={verdict !== null}
      onOpenChange={(open) => !open && onClose()}
      title={texts?.title ?? ""}
      description={texts?.description}
      testId="verdict-dialog"
      footer={
        <>
          <DialogClose>Keep Reviewing</DialogClose>
          <button
            type="button"
            className={`button ${verdict?.status === "rejected" ? "button-danger" : "button-primary"}`}
            disabled={busy}
            onClick={() => onConfirm(reason.trim())}
          >
            {texts?.action}
          </button>
        </>
      }
    >
      <TextareaField
        id="verdict-reason"
        label="Note for the audit log (optional)"
        value={reason}
        maxLength={2000}
        onChange={(e) => setReason(e.target.value)}
      />
    </Dialog>
  );
}

function ProvidersTab({
  list,
  reload,
  focusPending,
  onPendingFocused,
}: {
  list: Loaded<Provider>;
  reload: () => Promise<void>;
  focusPending: boolean;
  onPendingFocused: () => void;
}) {
  const [query, setQuery] = useState("");
  const [busyId, setBusyId] = useState<number | null>(null);
  const [verdict, setVerdict] = useState<PendingVerdict | null>(null);
  const all = list.state === "ready" ? list.items : [];
  const count = (status: string) => all.filter((p) => p.verificationStatus === status).length;
  const shown = all.filter((p) => matchesSearch(p, query));

  async function setStatus({ provider, status }: PendingVerdict, reason: string) {
    setBusyId(provider.id);
    try {
      await api.put(`/api/admin/providers/${provider.id}/status`, reason ? { status, reason } : { status });
      toast({ title: "Success", description: "Provider status updated successfully" });
      setVerdict(null);
      await reload();
    } catch (error) {
      failed(error, "Failed to update provider status");
    } finally {
      setBusyId(null);
    }
  }
  const ask = (provider: Provider, status: Verdict) => setVerdict({ provider, status });

  return (
    <>
      <CountCards
        label="Provider counts"
        cards={[
          { label: "Pending", value: list.state === "ready" ? count("pending") : "–" },
          { label: "Verified", value: list.state === "ready" ? count("verified") : "–" },
          { label: "Rejected", value: list.state === "ready" ? count("rejected") : "–" },
          { label: "Total", value: list.state === "ready" ? all.length : "–" },
        ]}
      />
      <div className="field search-field">
        <label htmlFor="provider-search">Search providers</label>
        <input
          id="provider-search"
          type="search"
          placeholder="Search providers by name, email, or specialty..."
          value={query}
          onChange={(e) => setQuery(e.target.value)}
        />
      </div>
      <ListState list={list}>
        {() => (
          <>
            <ProviderGroup
              title="Pending Approval"
              providers={shown.filter((p) => p.verificationStatus === "pending")}
              onStatus={ask}
              busyId={busyId}
              focus={focusPending}
              onFocused={onPendingFocused}
            />
            <ProviderGroup title="Verified Providers" providers={shown.filter((p) => p.verificationStatus === "verified")} onStatus={ask} busyId={busyId} />
            <ProviderGroup title="Rejected Providers" providers={shown.filter((p) => p.verificationStatus === "rejected")} onStatus={ask} busyId={busyId} />
          </>
        )}
      </ListState>
      <VerdictDialog
        verdict={verdict}
        busy={verdict !== null && busyId === verdict.provider.id}
        onClose={() => setVerdict(null)}
        onConfirm={(reason) => verdict && void setStatus(verdict, reason)}
      />
    </>
  );
}

// ---- Bookings ----------------------------------------------------------------------------------

function clientName(person: PersonSummary | null | undefined): string {
  return personName(person) || "Client not found";
}

function providerName(booking: Booking): string {
  return personName(booking.provider?.user) || "Provider not found";
}

function providerOptionLabel(p: Provider): string {
  const name = personName(p.user) || `Provider #${p.id}`;
  const specialties = p.specialties.map(specialtyName).join(", ");
  return specialties ? `${name} - ${specialties}` : name;
}

function ReassignDialog({
  booking,
  providers,
  onClose,
  onDone,
}: {
  booking: Booking | null;
  providers: Provider[];
  onClose: () => void;
  onDone: () => Promise<void>;
}) {
  const [providerId, setProviderId] = useState("");
  const [reason, setReason] = useState("");
  const [saving, setSaving] = useState(false);
  useEffect(() => {
    setProviderId("");
    setReason("");
  }, [booking?.id]);
  const options = providers
    .filter((p) => p.verificationStatus === "verified" && p.id !== booking?.providerId)
    .map((p) => ({ value: String(p.id), label: providerOptionLabel(p) }));

  async function submit() {
    if (!booking || !providerId) return;
    setSaving(true);
    try {
      await api.put(`/api/admin/bookings/${booking.id}/reassign`, { newProviderId: Number(providerId), reason });
      toast({ title: "Success", description: "Booking reassigned successfully" });
      await onDone();
      onClose();
    } catch (error) {
      failed(error, "Failed to reassign booking");
    } finally {
      setSaving(false);
    }
  }

  return (
    <Dialog
      open={booking !== null}
      onOpenChange={(open) => !open && onClose()}
      title="Reassign Booking"
      description={booking ? `Choose a verified provider for booking #${booking.id}.` : undefined}
      testId="reassign-dialog"
      footer={
        <>
          <DialogClose>Cancel</DialogClose>
          <button type="button" className="button button-primary" disabled={!providerId || saving} onClick={submit}>
            Reassign Booking
          </button>
        </>
      }
    >
      <SelectField
        id="reassign-provider"
        label="New provider"
        placeholder="Select a verified provider"
        options={options}
        value={providerId}
        onChange={(e) => setProviderId(e.target.value)}
      />
      <TextareaField
        id="reassign-reason"
        label="Reason for reassignment"
        value={reason}
        maxLength={2000}
        onChange={(e) => setReason(e.target.value)}
      />
    </Dialog>
  );
}

function CancelDialog({ booking, onClose, onDone }: { booking: Booking | null; onClose: () => void; onDone: () => Promise<void> }) {
  const [reason, setReason] = useState("");
  const [saving, setSaving] = useState(false);
  useEffect(() => setReason(""), [booking?.id]);

  async function submit() {
    if (!booking || !reason.trim()) return;
    setSaving(true);
    try {
      await api.put(`/api/admin/bookings/${booking.id}/cancel`, { reason: reason.trim() });
      toast({ title: "Success", description: "Booking cancelled successfully" });
      await onDone();
      onClose();
    } catch (error) {
      failed(error, "Failed to cancel booking");
    } finally {
      setSaving(false);
    }
  }

  return (
    <Dialog
      open={booking !== null}
      onOpenChange={(open) => !open && onClose()}
      title="Cancel Booking"
      description="Are you sure you want to cancel this booking? This action cannot be undone."
      testId="cancel-dialog"
      footer={
        <>
          <DialogClose>Keep Booking</DialogClose>
          <button type="button" className="button button-danger" disabled={!reason.trim() || saving} onClick={submit}>
            Cancel Booking
          </button>
        </>
      }
    >
      <TextareaField
        id="cancel-reason"
        label="Cancellation reason"
        required
        value={reason}
        maxLength={2000}
        onChange={(e) => setReason(e.target.value)}
      />
    </Dialog>
  );
}

function TableRegion({ label, children }: { label: string; children: ReactNode }) {
  // Focusable so keyboard users can scroll a wide table at 320 px or 200% zoom.
  return (
    <div className="table-scroll" role="region" aria-label={label} tabIndex={0}>
      {children}
    </div>
  );
}

function BookingsTab({ list, reload, providers }: { list: Loaded<Booking>; reload: () => Promise<void>; providers: Provider[] }) {
  const [reassigning, setReassigning] = useState<Booking | null>(null);
  const [cancelling, setCancelling] = useState<Booking | null>(null);
  const all = list.state === "ready" ? list.items : [];
  const n = (v: number) => (list.state === "ready" ? v : "–");
  return (
    <>
      <CountCards
        label="Booking counts"
        cards={[
          { label: "Total Bookings", value: n(all.length) },
          { label: "Confirmed", value: n(all.filter((b) => b.status === "confirmed").length) },
          { label: "Cancelled", value: n(all.filter((b) => b.status === "cancelled").length) },
        ]}
      />
      <h3>All Bookings</h3>
      <ListState list={list}>
        {(items) =>
          items.length === 0 ? (
            <EmptyState title="No bookings yet" headingLevel={4} />
          ) : (
            <TableRegion label="All Bookings">
              <table className="data-table">
                <thead>
                  <tr>
                    <th scope="col">Booking ID</th>
                    <th scope="col">Client</th>
                    <th scope="col">Provider</th>
                    <th scope="col">Date</th>
                    <th scope="col">Status</th>
                    <th scope="col">Actions</th>
                  </tr>
                </thead>
                <tbody>
                  {items.map((b) => (
                    <tr key={b.id} data-testid="admin-booking">
                      <td>#{b.id}</td>
                      <td>{clientName(b.client)}</td>
                      <td>{providerName(b)}</td>
                      <td>{formatVisit(b.scheduledDate, b.scheduledTime)}</td>
                      <td>
                        <StatusBadge status={b.status} />
                      </td>
                      <td>
                        {b.status === "confirmed" ? (
                          <div className="actions table-actions">
                            <button type="button" className="button button-secondary" onClick={() => setReassigning(b)}>
                              Reassign<span className="visually-hidden"> booking #{b.id}</span>
                            </button>
                            <button type="button" className="button button-danger" onClick={() => setCancelling(b)}>
                              Cancel<span className="visually-hidden"> booking #{b.id}</span>
                            </button>
                          </div>
                        ) : (
                          <span className="muted">None</span>
                        )}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableRegion>
          )
        }
      </ListState>
      <ReassignDialog booking={reassigning} providers={providers} onClose={() => setReassigning(null)} onDone={reload} />
      <CancelDialog booking={cancelling} onClose={() => setCancelling(null)} onDone={reload} />
    </>
  );
}

// ---- Service requests --------------------------------------------------------------------------

function truncate(text: string, max = 60): string {
  return text.length > max ? `${text.slice(0, max - 1).trimEnd()}…` : text;
}

function RequestsTab({ list }: { list: Loaded<ServiceRequest> }) {
  const all = list.state === "ready" ? list.items : [];
  const n = (v: number) => (list.state === "ready" ? v : "–");
  return (
    <>
      <CountCards
        label="Service request counts"
        cards={[
          { label: "Total Requests", value: n(all.length) },
          { label: "Open Requests", value: n(all.filter((r) => r.status === "open").length) },
          { label: "Completed", value: n(all.filter((r) => r.status === "completed").length) },
        ]}
      />
      <h3>All Service Requests</h3>
      <ListState list={list}>
        {(items) =>
          items.length === 0 ? (
            <EmptyState title="No service requests yet" headingLevel={4} />
          ) : (
            <TableRegion label="All Service Requests">
              <table className="data-table">
                <thead>
                  <tr>
                    <th scope="col">Request ID</th>
                    <th scope="col">Client</th>
                    <th scope="col">Service</th>
                    <th scope="col">Created</th>
                    <th scope="col">Status</th>
                  </tr>
                </thead>
                <tbody>
                  {items.map((r) => (
                    <tr key={r.id} data-testid="admin-request">
                      <td>#{r.id}</td>
                      <td>{clientName(r.client)}</td>
                      <td>
                        <strong>{r.serviceCategory?.name ?? "Service"}</strong>
                        <br />
                        <span className="muted">{truncate(r.description ?? "")}</span>
                      </td>
                      <td>{formatDateTime(r.createdAt)}</td>
                      <td>
                        <StatusBadge status={r.status} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableRegion>
          )
        }
      </ListState>
    </>
  );
}

// ---- Summary (the admin's landing) --------------------------------------------------------------

const WINDOW_ORDER = TIME_WINDOWS.map((w) => w.value as string);

function todaysBookings(bookings: Booking[], today: string): Booking[] {
  const rank = (b: Booking) => {
    const i = WINDOW_ORDER.indexOf(b.scheduledTime);
    return i === -1 ? WINDOW_ORDER.length : i;
  };
  return bookings
    .filter((b) => b.scheduledDate === today && b.status !== "cancelled")
    .sort((a, b) => rank(a) - rank(b) || a.id - b.id);
}

function Summary({ today, providers, bookings, onReviewPending }: { today: string; providers: Loaded<Provider>; bookings: Loaded<Booking>; onReviewPending: () => void }) {
  const pending = providers.state === "ready" ? providers.items.filter((p) => p.verificationStatus === "pending").length : null;
  return (
    <section className="admin-summary" aria-labelledby="summary-heading" data-testid="admin-summary">
      <h2 id="summary-heading">Today at a glance</h2>
      <div className="admin-summary-grid">
        <section className="card" aria-labelledby="summary-pending-heading" data-testid="summary-pending">
          <h3 id="summary-pending-heading">Pending applications</h3>
          {providers.state === "error" ? (
            <p className="field-error">Could not load the applications. Please refresh the page.</p>
          ) : pending === null ? (
            <LoadingText />
          ) : (
            <>
              <p className="count-value" data-testid="summary-pending-count">
                {pending}
              </p>
              <p>{pending === 0 ? "No application is waiting for a review." : `${plural(pending, "application is", "applications are")} waiting for a review.`}</p>
              {pending > 0 && (
                <a
                  className="button button-primary"
                  href="#group-pending-approval"
                  onClick={(event) => {
                    event.preventDefault();
                    onReviewPending();
                  }}
                >
                  Review pending applications
                </a>
              )}
            </>
          )}
        </section>
        <section className="card" aria-labelledby="summary-today-heading" data-testid="summary-today">
          <h3 id="summary-today-heading">Today's bookings</h3>
          <p className="muted">{formatDate(today)}</p>
          <ListState list={bookings}>
            {(items) => {
              const todays = todaysBookings(items, today);
              if (todays.length === 0) return <p>No bookings today.</p>;
              return (
                <ul className="plain-list admin-today-list">
                  {todays.map((b) => (
                    <li key={b.id} data-testid="summary-booking">
                      <span className="admin-today-when">{timeWindowLabel(b.scheduledTime)}</span>
                      <span>
                        {clientName(b.client)} with {providerName(b)} <span className="muted">(booking #{b.id})</span>
                      </span>
                      <StatusBadge status={b.status} />
                    </li>
                  ))}
                </ul>
              );
            }}
          </ListState>
        </section>
      </div>
    </section>
  );
}

type TabName = "providers" | "bookings" | "requests";

function AdminDashboard({ today }: Props) {
  const [providers, reloadProviders] = useList<Provider>("/api/admin/providers");
  const [bookings, reloadBookings] = useList<Booking>("/api/admin/bookings");
  const [requests] = useList<ServiceRequest>("/api/admin/service-requests");
  const providerItems = useMemo(() => (providers.state === "ready" ? providers.items : []), [providers]);
  const [tab, setTab] = useState<TabName>("providers");
  // "Review pending applications": open the Providers tab, then move to its Pending Approval list.
  const [focusPending, setFocusPending] = useState(false);
  const pendingFocused = useCallback(() => setFocusPending(false), []);

  return (
    <>
      <Summary
        today={today}
        providers={providers}
        bookings={bookings}
        onReviewPending={() => {
          setTab("providers");
          setFocusPending(true);
        }}
      />
      <Tabs.Root value={tab} onValueChange={(value) => setTab(value as TabName)} className="admin-tabs">
        <Tabs.List className="tab-list" aria-label="Admin sections">
          <Tabs.Trigger className="tab" value="providers">
            Providers
          </Tabs.Trigger>
          <Tabs.Trigger className="tab" value="bookings">
            Bookings
          </Tabs.Trigger>
          <Tabs.Trigger className="tab" value="requests">
            Service Requests
          </Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content className="tab-panel" value="providers">
          <h2 className="visually-hidden">Providers</h2>
          <ProvidersTab list={providers} reload={reloadProviders} focusPending={focusPending} onPendingFocused={pendingFocused} />
        </Tabs.Content>
        <Tabs.Content className="tab-panel" value="bookings">
          <h2 className="visually-hidden">Bookings</h2>
          <BookingsTab list={bookings} reload={reloadBookings} providers={providerItems} />
        </Tabs.Content>
        <Tabs.Content className="tab-panel" value="requests">
          <h2 className="visually-hidden">Service Requests</h2>
          <RequestsTab list={requests} />
        </Tabs.Content>
      </Tabs.Root>
    </>
  );
}

mountIsland(AdminDashboard, "admin-root", "admin-props");
