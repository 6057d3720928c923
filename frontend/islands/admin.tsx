// /admin (spec section 2 "Admin dashboard"), also the admin's landing: a summary (pending
// applications, today's bookings), then tabs (Providers, Bookings, Service Requests, and Today: every
// visit of the day with its state, issue 17) with
// count cards, provider approval (confirmed in a dialog), and the Reassign / Cancel booking dialogs.
import * as Tabs from "@radix-ui/react-tabs";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useRef, useState, type ReactNode } from "react";
import { api, isUnauthorizedError, redirectAfter, type Page } from "../lib/api";
import {
  TIME_WINDOWS,
  formatDate,
  formatClock,
  formatDateTime,
  formatMoney,
  formatVisit,
  personName,
  plural,
  specialtyName,
  statusLabel,
  windowLabel,
  visitStateLabel,
} from "../lib/format";
import { useRealtimeEvent } from "../lib/realtime";
import { apiQuery, mountQueryIsland, pageQuery, useSeededQuery, type SessionMeta } from "../lib/query";
import { toast } from "../lib/toast";
import type { AdminSummary, Booking, PersonSummary, Provider, ServiceRequest, Visit } from "../lib/types";
import { useDebounced, usePagedList, type PagedList } from "../lib/usePagedList";
import { useDialogForm } from "../lib/dialog-form";
import {
  listFilterSchema,
  reassignPayload,
  reassignSchema,
  verdictSchema,
  type ListFilterValues,
  type ReassignValues,
  type VerdictValues,
} from "../lib/schemas/admin";
import { TEXT_MAX } from "../lib/schemas/booking";
import { CancelBookingDialog } from "../components/CancelBookingDialog";
import { Dialog, DialogClose } from "../components/Dialog";
import { SelectField, TextareaField } from "../components/Field";
import { EmptyState } from "../components/EmptyState";
import { Pager } from "../components/Pager";
import { LoadingText } from "../components/Skeleton";
import { StatusBadge } from "../components/StatusBadge";

/** The count cards, counted by the server over every record (GET /api/admin/summary). */
type Counts = AdminSummary;

interface Props {
  admin: { id: string; firstName: string };
  /** The site's date ("YYYY-MM-DD"): which bookings are today's. */
  today: string;
  /** The count cards as the page was rendered; refreshed after each change. */
  counts: Counts;
  /** The summary's first page of today's bookings, rendered with the page. */
  todayBookings: Page<Booking>;
}

type Verdict = "verified" | "rejected";

const PROVIDERS_PER_PAGE = 10;
const ROWS_PER_PAGE = 20;
/** The reassign dialog lists this many verified providers; a search narrows them. */
const REASSIGN_CHOICES = 50;

const SUMMARY = "/api/admin/summary";
const PROVIDERS = "/api/admin/providers";
const BOOKINGS = "/api/admin/bookings";

/** Spec section 8: a 401 on an admin action says "Session expired" and goes to / (the page's
 * reads go the way of every page, lib/query). The admin's mutations carry this meta. */
const ADMIN_ACTION: SessionMeta = { ownsUnauthorized: true };

function failed(error: unknown, text: string): void {
  if (isUnauthorizedError(error)) {
    toast({ title: "Error", description: "Session expired. Please login again.", variant: "destructive" });
    redirectAfter("/", 500);
    return;
  }
  toast({ title: "Error", description: text, variant: "destructive" });
}

/** The count cards, seeded by the page; an action elsewhere invalidates them. If a refresh
 * fails the cards keep their last numbers; the lists say when they cannot load. */
function useCounts(initial: Counts) {
  const client = useQueryClient();
  const { data } = useSeededQuery<Counts>(SUMMARY, initial);
  const reload = useCallback(() => client.invalidateQueries({ queryKey: [SUMMARY] }), [client]);
  return [data, reload] as const;
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

/** A page of a list: loading (the first time), could not load, or its rows (kept, marked busy,
 * while the next page loads). */
function ListState<T>({
  list,
  empty,
  children,
}: {
  list: PagedList<T>;
  empty: ReactNode;
  children: (items: T[]) => ReactNode;
}) {
  if (list.state === "error") {
    return (
      <p className="field-error" role="alert">
        Could not load this list. Please refresh the page.
      </p>
    );
  }
  if (list.state === "loading" && list.total === null) return <LoadingText />;
  if (list.state === "ready" && list.items.length === 0) return <>{empty}</>;
  return <div aria-busy={list.state === "loading"}>{children(list.items)}</div>;
}

/** A search box that asks the server once typing pauses, and says how many it found. */
function SearchBox({
  id,
  label,
  placeholder,
  value,
  onChange,
}: {
  id: string;
  label: string;
  placeholder: string;
  value: string;
  onChange: (value: string) => void;
}) {
  return (
    <div className="field search-field">
      <label htmlFor={id}>{label}</label>
      <input id={id} type="search" placeholder={placeholder} value={value} onChange={(e) => onChange(e.target.value)} />
    </div>
  );
}

const NO_FILTER: ListFilterValues = { search: "", status: "" };

/** A list's search and status filter (react-hook-form): the values typed, and the search the
 * server is asked once typing pauses (trimmed). */
function useListFilters(schema: ReturnType<typeof listFilterSchema>) {
  const { values, set } = useDialogForm<ListFilterValues>(schema, NO_FILTER);
  const search = useDebounced(values.search.trim());
  return { values, set, search };
}

function StatusFilter({
  id,
  value,
  options,
  onChange,
}: {
  id: string;
  value: string;
  options: string[];
  onChange: (value: string) => void;
}) {
  return (
    <div className="field">
      <label htmlFor={id}>Status</label>
      <select id={id} value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">All statuses</option>
        {options.map((o) => (
          <option key={o} value={o}>
            {statusLabel(o)}
          </option>
        ))}
      </select>
    </div>
  );
}

/** "12 bookings found" under the filters, announced politely. */
function FoundCount({
  list,
  one,
  many,
  testId,
}: {
  list: PagedList<unknown>;
  one: string;
  many: string;
  testId: string;
}) {
  return (
    <p role="status" className="results-count" data-testid={testId}>
      {list.total === null ? "Searching…" : `${plural(list.total, one, many)} found`}
    </p>
  );
}

// ---- Providers ---------------------------------------------------------------------------------

function ProviderCard({
  provider,
  onStatus,
  busy,
}: {
  provider: Provider;
  onStatus: (status: Verdict) => void;
  busy: boolean;
}) {
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
          <dd>
            {provider.phone ? (
              <a href={`tel:${provider.phone.replace(/[^\d+]/g, "")}`}>{provider.phone}</a>
            ) : (
              "No phone given"
            )}
          </dd>
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

/** One status's providers, a page at a time, from the server (which searches them too). */
function ProviderGroup({
  title,
  status,
  search,
  onStatus,
  busyId,
  focus = false,
  onFocused,
}: {
  title: string;
  status: Provider["verificationStatus"];
  search: string;
  onStatus: (p: Provider, s: Verdict) => void;
  busyId: number | null;
  /** Move focus to this group's heading (once it is on the page), then call onFocused. */
  focus?: boolean;
  onFocused?: () => void;
}) {
  const id = `group-${title.replace(/\s+/g, "-").toLowerCase()}`;
  const heading = useRef<HTMLHeadingElement>(null);
  // An approval or rejection invalidates every page of the providers (ProvidersTab).
  const { list, offset, setOffset, pageSize } = usePagedList<Provider>(
    PROVIDERS,
    { status, search },
    PROVIDERS_PER_PAGE,
  );
  useEffect(() => {
    if (!focus || !heading.current) return;
    heading.current.focus({ preventScroll: true });
    heading.current.scrollIntoView({ block: "start" });
    onFocused?.();
  }, [focus, onFocused]);
  const toPage = (to: number) => {
    setOffset(to);
    heading.current?.focus({ preventScroll: true });
  };
  return (
    <section className="admin-group" aria-labelledby={id} data-testid={id}>
      <h3 id={id} tabIndex={-1} ref={heading}>
        {title}{" "}
        <span className="muted" data-testid={`${id}-total`}>
          ({list.total ?? "–"})
        </span>
      </h3>
      <ListState list={list} empty={<EmptyState title="No providers found" headingLevel={4} />}>
        {(items) => (
          <ul className="grid plain-list">
            {items.map((p) => (
              <ProviderCard key={p.id} provider={p} busy={busyId === p.id} onStatus={(s) => onStatus(p, s)} />
            ))}
          </ul>
        )}
      </ListState>
      <Pager
        label={title}
        total={list.total ?? 0}
        offset={offset}
        pageSize={pageSize}
        busy={list.state === "loading"}
        onPage={toPage}
        testId={`${id}-pager`}
      />
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
          ? `${name} was rejected before. Approving verifies them now: they can see open requests, with the town and ZIP of each, and accept them.`
          : `${name} will be verified: they can see open requests, with the town and ZIP of each, and accept them.`,
      action: "Approve",
    };
  }
  return {
    title: `Reject ${name}?`,
    description: `${name} will be told their application was not approved. You can still approve them later from Rejected Providers.`,
    action: "Reject",
  };
}

const NO_NOTE: VerdictValues = { reason: "" };

/** Approve / Reject asks first: the decision lets a stranger see seniors' home addresses (or not). */
function VerdictDialog({
  verdict,
  busy,
  onClose,
  onConfirm,
}: {
  verdict: PendingVerdict | null;
  busy: boolean;
  onClose: () => void;
  onConfirm: (reason: string) => void;
}) {
  const { form, values, set, error } = useDialogForm<VerdictValues>(
    verdictSchema,
    NO_NOTE,
    verdict && `${verdict.provider.id} ${verdict.status}`,
  );
  const confirm = form.handleSubmit(({ reason }) => onConfirm(reason.trim()));
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
            onClick={confirm}
          >
            {texts?.action}
          </button>
        </>
      }
    >
      <TextareaField
        id="verdict-reason"
        label="Note for the audit log (optional)"
        value={values.reason}
        maxLength={TEXT_MAX}
        error={error("reason")}
        onChange={(e) => set("reason", e.currentTarget.value)}
      />
    </Dialog>
  );
}

function ProvidersTab({
  counts,
  onChanged,
  focusPending,
  onPendingFocused,
}: {
  counts: Counts["providers"];
  onChanged: () => Promise<void>;
  focusPending: boolean;
  onPendingFocused: () => void;
}) {
  const filters = useListFilters(PROVIDER_FILTERS);
  const { search } = filters;
  const [verdict, setVerdict] = useState<PendingVerdict | null>(null);
  const client = useQueryClient();
  const update = useMutation({
    mutationFn: ({ provider, status, reason }: PendingVerdict & { reason: string }) =>
      api.put(`/api/admin/providers/${provider.id}/status`, reason ? { status, reason } : { status }),
    meta: ADMIN_ACTION,
    onSuccess: async () => {
      toast({ title: "Success", description: "Provider status updated successfully" });
      setVerdict(null);
      await Promise.all([client.invalidateQueries({ queryKey: [PROVIDERS] }), onChanged()]);
    },
    onError: (error) => failed(error, "Failed to update provider status"),
  });
  const busyId = update.isPending ? update.variables.provider.id : null;
  const ask = (provider: Provider, status: Verdict) => setVerdict({ provider, status });
  const group = { search, onStatus: ask, busyId };

  return (
    <>
      <CountCards
        label="Provider counts"
        cards={[
          { label: "Pending", value: counts.pending },
          { label: "Verified", value: counts.verified },
          { label: "Rejected", value: counts.rejected },
          { label: "Total", value: counts.total },
        ]}
      />
      <SearchBox
        id="provider-search"
        label="Search providers"
        placeholder="Search providers by name, email, or specialty..."
        value={filters.values.search}
        onChange={(value) => filters.set("search", value)}
      />
      <ProviderGroup
        title="Pending Approval"
        status="pending"
        {...group}
        focus={focusPending}
        onFocused={onPendingFocused}
      />
      <ProviderGroup title="Verified Providers" status="verified" {...group} />
      <ProviderGroup title="Rejected Providers" status="rejected" {...group} />
      <VerdictDialog
        verdict={verdict}
        busy={verdict !== null && busyId === verdict.provider.id}
        onClose={() => setVerdict(null)}
        onConfirm={(reason) => verdict && update.mutate({ ...verdict, reason })}
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

/** Verified providers to choose from, asked of the server while the dialog is open: the first
 * REASSIGN_CHOICES, or those matching the dialog's search when there are more. */
function useVerifiedChoices(open: boolean, search: string) {
  const params: Record<string, string> = { status: "verified", limit: String(REASSIGN_CHOICES) };
  if (search) params.search = search;
  const choices = useQuery({ ...pageQuery<Provider>(PROVIDERS, params), enabled: open });
  const error = choices.error;
  useEffect(() => {
    // A lost session is lib/query's; anything else is said here.
    if (error && !isUnauthorizedError(error)) {
      toast({ title: "Error", description: "Could not load the verified providers", variant: "destructive" });
    }
  }, [error]);
  if (choices.isError) return { items: [], total: 0 };
  return choices.data ?? null;
}

const NO_CHOICE: ReassignValues = { providerId: "", reason: "", search: "" };

function ReassignDialog({
  booking,
  onClose,
  onDone,
}: {
  booking: Booking | null;
  onClose: () => void;
  onDone: () => Promise<void>;
}) {
  const { form, values, set, error } = useDialogForm<ReassignValues>(reassignSchema, NO_CHOICE, booking?.id);
  const { providerId } = values;
  const search = useDebounced(values.search.trim());
  const choices = useVerifiedChoices(booking !== null, search);
  // Once the list was longer than one answer, the search stays (narrowing it must not hide it).
  const [long, setLong] = useState(false);
  useEffect(() => setLong(false), [booking?.id]);
  useEffect(() => {
    if (choices && choices.total > choices.items.length) setLong(true);
  }, [choices]);
  const options = (choices?.items ?? [])
    .filter((p) => p.id !== booking?.providerId)
    .map((p) => ({ value: String(p.id), label: providerOptionLabel(p) }));

  const reassign = useMutation({
    mutationFn: ({ booking: b, values: sent }: { booking: Booking; values: ReassignValues }) =>
      api.put(`/api/admin/bookings/${b.id}/reassign`, reassignPayload(sent)),
    meta: ADMIN_ACTION,
    onSuccess: async () => {
      toast({ title: "Success", description: "Booking reassigned successfully" });
      await onDone();
      onClose();
    },
    onError: (error) => failed(error, "Failed to reassign booking"),
  });
  const saving = reassign.isPending;
  const submit = form.handleSubmit((checked) => {
    if (booking) reassign.mutate({ booking, values: checked });
  });

  return (
    <Dialog
      open={booking !== null}
      onOpenChange={(open) => !open && onClose()}
      title="Reassign Booking"
      description={booking ? `Choose a verified provider for booking #${booking.id}.` : undefined}
      testId="reassign-dialog"
      footer={
        <>
          {/* Not "Cancel": beside the row's "Cancel booking" it read as cancelling the booking. */}
          <DialogClose>Keep as is</DialogClose>
          <button type="button" className="button button-primary" disabled={!providerId || saving} onClick={submit}>
            Reassign Booking
          </button>
        </>
      }
    >
      {long && (
        <div className="field">
          <label htmlFor="reassign-search">Find a verified provider</label>
          <input
            id="reassign-search"
            type="search"
            placeholder="Name, email, or specialty"
            aria-describedby="reassign-search-hint"
            value={values.search}
            onChange={(e) => set("search", e.currentTarget.value)}
          />
          <p id="reassign-search-hint" className="field-hint" role="status">
            {choices
              ? choices.total > choices.items.length
                ? `Showing the first ${choices.items.length} of ${choices.total}. Type to narrow the list.`
                : `${plural(choices.total, "provider matches", "providers match")}.`
              : "Searching…"}
          </p>
        </div>
      )}
      <SelectField
        id="reassign-provider"
        label="New provider"
        placeholder={choices === null ? "Loading verified providers…" : "Select a verified provider"}
        options={options}
        value={providerId}
        error={error("providerId")}
        onChange={(e) => set("providerId", e.currentTarget.value)}
      />
      <TextareaField
        id="reassign-reason"
        label="Reason for reassignment"
        value={values.reason}
        maxLength={TEXT_MAX}
        error={error("reason")}
        onChange={(e) => set("reason", e.currentTarget.value)}
      />
    </Dialog>
  );
}

/** Admin cancel (spec): confirmed bookings only, a reason required; a paid one is refunded. */
function useAdminCancel(onDone: () => Promise<void>, onClose: () => void) {
  const cancel = useMutation({
    mutationFn: ({ booking, reason }: { booking: Booking; reason: string }) =>
      api.put(`/api/admin/bookings/${booking.id}/cancel`, { reason }),
    meta: ADMIN_ACTION,
    onSuccess: async () => {
      toast({ title: "Success", description: "Booking cancelled successfully" });
      await onDone();
      onClose();
    },
    onError: (error) => failed(error, "Failed to cancel booking"),
  });
  // The dialog stays busy until the answer (it awaits this); failures are told above.
  return async (booking: Booking, reason: string) => {
    await cancel.mutateAsync({ booking, reason }).catch(() => undefined);
  };
}

function TableRegion({ label, children }: { label: string; children: ReactNode }) {
  // Focusable so keyboard users can scroll a wide table at 320 px or 200% zoom.
  return (
    <div className="table-scroll" role="region" aria-label={label} tabIndex={0}>
      {children}
    </div>
  );
}

const BOOKING_STATUSES = ["scheduled", "confirmed", "completed", "cancelled"];
const REQUEST_STATUSES = ["open", "booked", "completed", "cancelled", "deleted"];
const PROVIDER_FILTERS = listFilterSchema([]);
const BOOKING_FILTERS = listFilterSchema(BOOKING_STATUSES);
const REQUEST_FILTERS = listFilterSchema(REQUEST_STATUSES);

/** One of the admin's tables: its search and status filter, "N found", a page of rows and the
 * pager, all from the server (`/api/admin/*` with `?search=`, `?status=` and paging). */
function FilteredTable<T extends { id: number }>({
  url,
  title,
  noun,
  statuses,
  filterSchema,
  searchLabel,
  searchPlaceholder,
  columns,
  row,
}: {
  url: string;
  title: string;
  /** The names in its ids and texts: #request-search, "12 requests found" (requests-found), "No service requests yet". */
  noun: { id: string; one: string; many: string; all: string };
  statuses: string[];
  filterSchema: ReturnType<typeof listFilterSchema>;
  searchLabel: string;
  searchPlaceholder: string;
  columns: string[];
  row: (item: T) => ReactNode;
}) {
  const filters = useListFilters(filterSchema);
  const { search } = filters;
  const { status } = filters.values;
  const { list, offset, setOffset, pageSize } = usePagedList<T>(url, { search, status }, ROWS_PER_PAGE);
  return (
    <>
      <h3>{title}</h3>
      <div className="filters-row admin-filters">
        <SearchBox
          id={`${noun.id}-search`}
          label={searchLabel}
          placeholder={searchPlaceholder}
          value={filters.values.search}
          onChange={(value) => filters.set("search", value)}
        />
        <StatusFilter
          id={`${noun.id}-status`}
          value={status}
          options={statuses}
          onChange={(value) => filters.set("status", value)}
        />
      </div>
      <FoundCount list={list} one={noun.one} many={noun.many} testId={`${noun.many}-found`} />
      <ListState
        list={list}
        empty={<EmptyState title={search || status ? `No ${noun.all} found` : `No ${noun.all} yet`} headingLevel={4} />}
      >
        {(items) => (
          <TableRegion label={title}>
            <table className="data-table">
              <thead>
                <tr>
                  {columns.map((column) => (
                    <th key={column} scope="col">
                      {column}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>{items.map((item) => row(item))}</tbody>
            </table>
          </TableRegion>
        )}
      </ListState>
      <Pager
        label={title}
        total={list.total ?? 0}
        offset={offset}
        pageSize={pageSize}
        busy={list.state === "loading"}
        onPage={setOffset}
        testId={`${noun.many}-pager`}
      />
    </>
  );
}

/** Why a booking's row has no Reassign / Cancel booking buttons (only confirmed ones do). */
const NO_ACTION: Partial<Record<Booking["status"], string>> = {
  scheduled: "Waiting for payment",
  completed: "Visit done",
  cancelled: "Cancellation is final",
};

function BookingsTab({ counts, onChanged }: { counts: Counts["bookings"]; onChanged: () => Promise<void> }) {
  const [reassigning, setReassigning] = useState<Booking | null>(null);
  const [cancelling, setCancelling] = useState<Booking | null>(null);
  // onChanged invalidates every list of bookings (this one and the summary's) and the counts.
  const done = onChanged;
  const cancel = useAdminCancel(done, () => setCancelling(null));
  return (
    <>
      <CountCards
        label="Booking counts"
        cards={[
          { label: "Total Bookings", value: counts.total },
          { label: "Confirmed", value: counts.confirmed },
          { label: "Cancelled", value: counts.cancelled },
        ]}
      />
      <FilteredTable<Booking>
        url={BOOKINGS}
        title="All Bookings"
        noun={{ id: "booking", one: "booking", many: "bookings", all: "bookings" }}
        statuses={BOOKING_STATUSES}
        filterSchema={BOOKING_FILTERS}
        searchLabel="Search bookings"
        searchPlaceholder="Booking ID, client, provider or service..."
        columns={["Booking ID", "Client", "Provider", "Date", "Status", "Actions"]}
        row={(b) => (
          <tr key={b.id} data-testid="admin-booking">
            <td>#{b.id}</td>
            <td>{clientName(b.client)}</td>
            <td>{providerName(b)}</td>
            <td>{formatVisit(b.scheduledDate, b.scheduledTime, b.recipient?.timeZone)}</td>
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
                    Cancel booking<span className="visually-hidden"> #{b.id}</span>
                  </button>
                </div>
              ) : (
                // Only confirmed bookings can be changed here; a bare "None" read as missing data.
                <span className="muted">{NO_ACTION[b.status] ?? "No changes"}</span>
              )}
            </td>
          </tr>
        )}
      />
      <ReassignDialog booking={reassigning} onClose={() => setReassigning(null)} onDone={done} />
      <CancelBookingDialog
        booking={cancelling}
        reasonLabel="Cancellation reason"
        reasonRequired
        refundTo="the client"
        onClose={() => setCancelling(null)}
        onConfirm={cancel}
      />
    </>
  );
}

// ---- Service requests --------------------------------------------------------------------------

function truncate(text: string, max = 60): string {
  return text.length > max ? `${text.slice(0, max - 1).trimEnd()}…` : text;
}

function RequestsTab({ counts }: { counts: Counts["serviceRequests"] }) {
  return (
    <>
      <CountCards
        label="Service request counts"
        cards={[
          { label: "Total Requests", value: counts.total },
          { label: "Open Requests", value: counts.open },
          { label: "Completed", value: counts.completed },
        ]}
      />
      <FilteredTable<ServiceRequest>
        url="/api/admin/service-requests"
        title="All Service Requests"
        noun={{ id: "request", one: "request", many: "requests", all: "service requests" }}
        statuses={REQUEST_STATUSES}
        filterSchema={REQUEST_FILTERS}
        searchLabel="Search service requests"
        searchPlaceholder="Request ID, client, service or description..."
        columns={["Request ID", "Client", "Service", "Created", "Status"]}
        row={(r) => (
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
        )}
      />
    </>
  );
}

// ---- Summary (the admin's landing) --------------------------------------------------------------

const WINDOW_ORDER = TIME_WINDOWS.map((w) => w.value as string);

/** Today's visits (the server picks the date), cancelled ones left out, in time-window order. */
function todaysBookings(bookings: Booking[]): Booking[] {
  const rank = (b: Booking) => {
    const i = WINDOW_ORDER.indexOf(b.scheduledTime);
    return i === -1 ? WINDOW_ORDER.length : i;
  };
  return bookings.filter((b) => b.status !== "cancelled").sort((a, b) => rank(a) - rank(b) || a.id - b.id);
}

/** A day's bookings fit one answer (the largest page); more would say "and N more". */
// The first page is rendered with the page (TODAY_PAGE in adminpanel/views.py): keep them equal.
const DAY_PAGE = 200;

function Summary({
  today,
  initial,
  pending,
  onReviewPending,
}: {
  today: string;
  initial: Page<Booking>;
  pending: number;
  onReviewPending: () => void;
}) {
  // Seeded by the page; a change of a booking invalidates this list with the others (AdminDashboard).
  const { list: bookings } = usePagedList<Booking>(BOOKINGS, { date: today }, DAY_PAGE, initial);
  return (
    <section className="admin-summary" aria-labelledby="summary-heading" data-testid="admin-summary">
      <h2 id="summary-heading">Today at a glance</h2>
      <div className="admin-summary-grid">
        <section className="card" aria-labelledby="summary-pending-heading" data-testid="summary-pending">
          <h3 id="summary-pending-heading">Pending applications</h3>
          <p className="count-value" data-testid="summary-pending-count">
            {pending}
          </p>
          <p>
            {pending === 0
              ? "No application is waiting for a review."
              : `${plural(pending, "application is", "applications are")} waiting for a review.`}
          </p>
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
        </section>
        <section className="card" aria-labelledby="summary-today-heading" data-testid="summary-today">
          <h3 id="summary-today-heading">Today's bookings</h3>
          <p className="muted">{formatDate(today)}</p>
          <ListState list={bookings} empty={<p>No bookings today.</p>}>
            {(items) => {
              const todays = todaysBookings(items);
              if (todays.length === 0) return <p>No bookings today.</p>;
              const more = (bookings.total ?? 0) - items.length;
              return (
                <>
                  <ul className="plain-list admin-today-list">
                    {todays.map((b) => (
                      <li key={b.id} data-testid="summary-booking">
                        <span className="admin-today-when">
                          {windowLabel(b.scheduledTime, b.scheduledDate, b.recipient?.timeZone)}
                        </span>
                        <span>
                          {clientName(b.client)} with {providerName(b)} <span className="muted">(booking #{b.id})</span>
                        </span>
                        <StatusBadge status={b.status} />
                      </li>
                    ))}
                  </ul>
                  {more > 0 && (
                    <p className="muted">
                      and {plural(more, "more booking", "more bookings")} today (see the Bookings tab).
                    </p>
                  )}
                </>
              );
            }}
          </ListState>
        </section>
      </div>
    </section>
  );
}

// ---- Today: every visit of the day, live ---------------------------------------------------------

/** How often the Today tab asks again: states change with the clock (late, missed), not only on events. */
const TODAY_REFRESH_MS = 30_000;

function TodayTab() {
  const today = useQuery({ ...apiQuery<Visit[]>("/api/admin/today"), refetchInterval: TODAY_REFRESH_MS });
  const client = useQueryClient();
  // A check-in, check-out or alert about a visit: ask again at once.
  const refresh = () => void client.invalidateQueries({ queryKey: ["/api/admin/today"] });
  useRealtimeEvent("booking.updated", refresh);
  useRealtimeEvent("message.created", refresh);
  const visits = today.data ?? null;
  const failedToLoad = today.isError;

  if (visits === null) {
    return failedToLoad ? <p role="alert">Today's visits could not be loaded. Please try again.</p> : <LoadingText />;
  }
  const count = (state: string) => visits.filter((v) => v.visitState === state).length;
  return (
    <>
      <CountCards
        label="Today's visits by state"
        cards={[
          { label: "Visits today", value: visits.length },
          { label: "In progress", value: count("in_progress") },
          { label: "Late or missed", value: count("late") + count("missed") },
          { label: "Done", value: count("done") },
        ]}
      />
      <h3>Every visit today</h3>
      {failedToLoad && <p role="alert">Could not refresh just now; showing the last list.</p>}
      {visits.length === 0 ? (
        <EmptyState title="No visits today" headingLevel={4} />
      ) : (
        <TableRegion label="Every visit today">
          <table className="data-table">
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Client</th>
                <th scope="col">Provider</th>
                <th scope="col">State</th>
                <th scope="col">Checked in</th>
                <th scope="col">Checked out</th>
              </tr>
            </thead>
            <tbody>
              {visits.map((b) => (
                <tr key={b.id} data-testid="admin-today-visit" data-state={b.visitState}>
                  <td>
                    {formatClock(b.visitStart, b.recipient?.timeZone)} <span className="muted">(booking #{b.id})</span>
                  </td>
                  <td>{clientName(b.client)}</td>
                  <td>{personName(b.provider.user) || "Provider not found"}</td>
                  <td>
                    <StatusBadge status={b.visitState} label={visitStateLabel(b.visitState)} />
                  </td>
                  <td>
                    {b.checkedInAt ? (
                      formatClock(b.checkedInAt, b.recipient?.timeZone)
                    ) : (
                      <span className="muted">Not yet</span>
                    )}
                  </td>
                  <td>
                    {b.checkedOutAt ? (
                      formatClock(b.checkedOutAt, b.recipient?.timeZone)
                    ) : (
                      <span className="muted">Not yet</span>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableRegion>
      )}
    </>
  );
}

type TabName = "providers" | "bookings" | "requests" | "today";

function AdminDashboard({ today, counts: initialCounts, todayBookings }: Props) {
  const [counts, reloadCounts] = useCounts(initialCounts);
  const client = useQueryClient();
  const [tab, setTab] = useState<TabName>("providers");
  // "Review pending applications": open the Providers tab, then move to its Pending Approval list.
  const [focusPending, setFocusPending] = useState(false);
  const pendingFocused = useCallback(() => setFocusPending(false), []);
  // A booking changed: every list of bookings (the tab's, the summary's) and the counts are asked again.
  const bookingsChanged = useCallback(async () => {
    await Promise.all([client.invalidateQueries({ queryKey: [BOOKINGS] }), reloadCounts()]);
  }, [client, reloadCounts]);

  return (
    <>
      <Summary
        today={today}
        initial={todayBookings}
        pending={counts.providers.pending}
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
          <Tabs.Trigger className="tab" value="today">
            Today
          </Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content className="tab-panel" value="providers">
          <h2 className="visually-hidden">Providers</h2>
          <ProvidersTab
            counts={counts.providers}
            onChanged={reloadCounts}
            focusPending={focusPending}
            onPendingFocused={pendingFocused}
          />
        </Tabs.Content>
        <Tabs.Content className="tab-panel" value="bookings">
          <h2 className="visually-hidden">Bookings</h2>
          <BookingsTab counts={counts.bookings} onChanged={bookingsChanged} />
        </Tabs.Content>
        <Tabs.Content className="tab-panel" value="requests">
          <h2 className="visually-hidden">Service Requests</h2>
          <RequestsTab counts={counts.serviceRequests} />
        </Tabs.Content>
        <Tabs.Content className="tab-panel" value="today">
          <h2 className="visually-hidden">Today</h2>
          <TodayTab />
        </Tabs.Content>
      </Tabs.Root>
    </>
  );
}

mountQueryIsland(AdminDashboard, "admin");
