// /edit-service-request?id= (spec section 2 "Edit Service Request page", section 5 "Edit request"):
// the edit form with Save Changes, and Delete Request behind a confirmation dialog.
import { useEffect, useState, type FormEvent } from "react";
import { ApiError, api, isUnauthorizedError, handleLoggedOut, redirectAfter } from "../lib/api";
import { TIME_WINDOWS } from "../lib/format";
import { numberTooLarge, textTooLong, type Limits } from "../lib/limits";
import { mountIsland } from "../lib/mount";
import { toast } from "../lib/toast";
import type { ServiceRequest, Viewer } from "../lib/types";
import { serverFieldErrors } from "../lib/useForm";
import { InputField, SelectField, TextareaField } from "../components/Field";
import { Dialog, DialogClose } from "../components/Dialog";
import { LoadingText } from "../components/Skeleton";
import { ShortNoticeWarning, type ShortNoticeRules } from "../components/ShortNotice";
import { RepeatFields } from "../components/RepeatFields";
import { NO_REPEAT, repeatPayload, repeatProblems, type RepeatValues } from "../lib/series";

interface Props {
  requestId: string | null;
  viewer: Viewer;
  categories: { id: number; name: string }[];
  /** The preferred date's range: today to a year ahead (site time zone). */
  today: string;
  latestDate: string;
  limits: Limits;
  shortNotice: ShortNoticeRules;
}

interface FormValues extends RepeatValues {
  title: string;
  description: string;
  categoryId: string;
  urgency: string;
  preferredDate: string;
  preferredTime: string;
  location: string;
  specialRequirements: string;
  estimatedDuration: string;
  maxBudget: string;
}

type Errors = Partial<Record<keyof FormValues, string>>;

// The edit page offers three urgencies (spec section 4).
const EDIT_URGENCIES = [
  { value: "low", label: "Low - can wait a week or more" },
  { value: "normal", label: "Normal - within a few days" },
  { value: "high", label: "High - within 24 hours" },
];

function toForm(r: ServiceRequest): FormValues {
  return {
    title: r.title ?? "",
    description: r.description ?? "",
    categoryId: r.categoryId ? String(r.categoryId) : "",
    urgency: r.urgency ?? "normal",
    preferredDate: r.preferredDate ? r.preferredDate.slice(0, 10) : "",
    preferredTime: r.preferredTime ?? "",
    location: r.location ?? "",
    specialRequirements: r.specialRequirements ?? "",
    estimatedDuration: r.estimatedDuration ? String(r.estimatedDuration) : "",
    maxBudget: r.maxBudget === null || r.maxBudget === undefined ? "" : String(Number(r.maxBudget)),
    repeat: r.repeat ?? "",
    repeatEnds: r.repeatUntil ? "until" : "count",
    repeatCount: r.repeatCount ? String(r.repeatCount) : NO_REPEAT.repeatCount,
    repeatUntil: r.repeatUntil ?? "",
  };
}

/** Spec section 5 "Edit request", with its messages; the limits in the server's words. */
function validate(v: FormValues, limits: Limits): Errors {
  const errors: Errors = {};
  const put = (field: keyof FormValues, message: string) => {
    if (message && !errors[field]) errors[field] = message;
  };
  if (!v.title.trim()) errors.title = "Title is required";
  if (v.description.trim().length < 10) errors.description = "Description must be at least 10 characters";
  if (!(Number(v.categoryId) >= 1)) errors.categoryId = "Category is required";
  if (!v.location.trim()) errors.location = "Location is required";
  for (const field of ["title", "description", "location", "specialRequirements"] as const) {
    put(field, textTooLong(limits[field], v[field]));
  }
  if (!["low", "normal", "high", "urgent"].includes(v.urgency)) errors.urgency = "Choose an urgency";
  // The preferred date is optional (spec section 5): an empty one is no date. Its range (today to a
  // year ahead) is the server's rule, answered next to the field.
  const duration = Number(v.estimatedDuration);
  if (v.estimatedDuration.trim() === "" || !Number.isInteger(duration) || duration < 1) {
    errors.estimatedDuration = "Duration must be at least 1 minute";
  }
  put("estimatedDuration", numberTooLarge(limits.estimatedDuration, duration));
  if (v.maxBudget.trim() !== "") {
    const budget = Number(v.maxBudget);
    if (!Number.isFinite(budget) || budget < 0) errors.maxBudget = "Budget must be a number of 0 or more";
    put("maxBudget", numberTooLarge(limits.maxBudget, budget));
  }
  const repeat = repeatProblems(v, v.preferredDate);
  put("repeatCount", repeat.repeatCount ?? "");
  put("repeatUntil", repeat.repeatUntil ?? "");
  if (v.repeat && !v.preferredDate) put("preferredDate", "A repeating request needs the date of its first visit.");
  return errors;
}

function payload(v: FormValues) {
  return {
    title: v.title.trim(),
    description: v.description.trim(),
    categoryId: Number(v.categoryId),
    // The edit page offers low/normal/high; an "urgent" request keeps its urgency unless changed.
    ...(v.urgency === "urgent" ? {} : { urgency: v.urgency }),
    preferredDate: v.preferredDate || null,
    preferredTime: v.preferredTime,
    location: v.location.trim(),
    specialRequirements: v.specialRequirements.trim(),
    estimatedDuration: Number(v.estimatedDuration),
    maxBudget: v.maxBudget.trim() === "" ? null : Number(v.maxBudget),
    ...repeatPayload(v),
  };
}

function BackToDashboard() {
  return (
    <a className="button button-secondary" href="/">
      <span aria-hidden="true">←</span> Back to Dashboard
    </a>
  );
}

function NotFound({ title = "Request Not Found", text }: { title?: string; text: string }) {
  return (
    <div className="card page-message">
      <h1>{title}</h1>
      <p>{text}</p>
      <div className="actions">
        <BackToDashboard />
      </div>
    </div>
  );
}

type Load = { state: "loading" } | { state: "missing" } | { state: "ready"; request: ServiceRequest };

function EditRequest({ requestId, categories, shortNotice, ...bounds }: Props) {
  const { limits } = bounds;
  const [load, setLoad] = useState<Load>(
    requestId && /^\d+$/.test(requestId) ? { state: "loading" } : { state: "missing" },
  );
  const [values, setValues] = useState<FormValues | null>(null);
  const [errors, setErrors] = useState<Errors>({});
  const [submitted, setSubmitted] = useState(false);
  const [saving, setSaving] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [confirmOpen, setConfirmOpen] = useState(false);

  useEffect(() => {
    if (load.state !== "loading") return;
    let cancelled = false;
    api
      .get<ServiceRequest>(`/api/service-requests/${requestId}`)
      .then((request) => {
        if (cancelled) return;
        // Only an organizer of the recipient's care circle edits a request; anyone else has nothing
        // to edit here (the server refuses them too).
        if (request.circleRole !== "organizer") {
          setLoad({ state: "missing" });
          return;
        }
        setLoad({ state: "ready", request });
        setValues(toForm(request));
      })
      .catch((error: unknown) => {
        if (cancelled) return;
        if (isUnauthorizedError(error)) {
          handleLoggedOut();
          return;
        }
        setLoad({ state: "missing" });
      });
    return () => {
      cancelled = true;
    };
  }, [load.state, requestId]);

  if (load.state === "loading" || (load.state === "ready" && !values))
    return <LoadingText>Loading request…</LoadingText>;
  if (load.state === "missing" || !values) {
    return <NotFound text="This service request could not be loaded. It may have been removed." />;
  }
  const request = load.request;
  if (request.status !== "open") {
    return (
      <NotFound
        title="This Request Can No Longer Be Edited"
        text="Only open requests can be changed. This one has already been accepted or closed."
      />
    );
  }

  const setMany = (changes: Partial<FormValues>) => {
    const next = { ...values, ...changes };
    setValues(next);
    // After a first attempt, errors follow the user's corrections as they type.
    if (submitted) setErrors(validate(next, limits));
  };
  const set = (field: keyof FormValues) => (value: string) => setMany({ [field]: value });

  async function save(event: FormEvent) {
    event.preventDefault();
    if (!values) return;
    setSubmitted(true);
    const found = validate(values, limits);
    setErrors(found);
    const first = Object.keys(found)[0];
    if (first) {
      document.getElementById(`edit-${first}`)?.focus();
      return;
    }
    setSaving(true);
    try {
      await api.put(`/api/service-requests/${request.id}`, payload(values));
      toast({ title: "Success", description: "Service request updated successfully." });
      redirectAfter("/", 1000);
    } catch (error) {
      setSaving(false);
      if (isUnauthorizedError(error)) {
        handleLoggedOut();
        return;
      }
      if (error instanceof ApiError && error.status === 400) {
        setErrors(serverFieldErrors<FormValues>(error, Object.keys(values) as (keyof FormValues)[]));
      }
      toast({
        title: "Error",
        description: "Failed to update service request. Please try again.",
        variant: "destructive",
      });
    }
  }

  async function remove() {
    setDeleting(true);
    try {
      await api.delete(`/api/service-requests/${request.id}`);
      setConfirmOpen(false);
      toast({ title: "Success", description: "Service request deleted successfully." });
      redirectAfter("/", 1000);
    } catch (error) {
      setDeleting(false);
      if (isUnauthorizedError(error)) {
        handleLoggedOut();
        return;
      }
      toast({
        title: "Error",
        description: "Failed to delete service request. Please try again.",
        variant: "destructive",
      });
    }
  }

  const urgencyOptions =
    values.urgency === "urgent" ? [...EDIT_URGENCIES, { value: "urgent", label: "Urgent - ASAP" }] : EDIT_URGENCIES;

  return (
    <div>
      <p>
        <a className="button button-secondary" href={`/service-request-details?id=${request.id}`}>
          <span aria-hidden="true">←</span> Back to Request
        </a>
      </p>
      <div className="card">
        <h1>Edit Service Request</h1>
        <p className="muted">Update the details of your request. Fields marked * are required.</p>
        {request.recipient && (
          <p data-testid="edit-recipient">
            <strong>For:</strong> {`${request.recipient.firstName} ${request.recipient.lastName}`.trim()}{" "}
            <span className="muted">(the person a request is for stays the same once it is posted)</span>
          </p>
        )}
        <form onSubmit={save} noValidate aria-label="Edit service request">
          <InputField
            id="edit-title"
            label="Title"
            required
            value={values.title}
            maxLength={limits.title?.maxLength}
            onChange={(e) => set("title")(e.target.value)}
            error={errors.title}
          />
          <TextareaField
            id="edit-description"
            label="Description"
            required
            hint="At least 10 characters."
            value={values.description}
            maxLength={limits.description?.maxLength}
            onChange={(e) => set("description")(e.target.value)}
            error={errors.description}
          />
          <SelectField
            id="edit-categoryId"
            label="Service category"
            required
            placeholder="Select a service"
            options={categories.map((c) => ({ value: String(c.id), label: c.name }))}
            value={values.categoryId}
            onChange={(e) => set("categoryId")(e.target.value)}
            error={errors.categoryId}
          />
          <SelectField
            id="edit-urgency"
            label="Urgency"
            options={urgencyOptions}
            value={values.urgency}
            onChange={(e) => set("urgency")(e.target.value)}
            error={errors.urgency}
          />
          <div className="form-row">
            <InputField
              id="edit-preferredDate"
              label="Preferred date"
              hint="Optional: leave it empty if any day suits you."
              type="date"
              min={bounds.today}
              max={bounds.latestDate}
              value={values.preferredDate}
              onChange={(e) => set("preferredDate")(e.target.value)}
              error={errors.preferredDate}
            />
            <SelectField
              id="edit-preferredTime"
              label="Preferred time"
              placeholder="Select a time"
              options={TIME_WINDOWS}
              value={values.preferredTime}
              onChange={(e) => set("preferredTime")(e.target.value)}
              error={errors.preferredTime}
            />
          </div>
          <ShortNoticeWarning date={values.preferredDate} time={values.preferredTime} rules={shortNotice} />
          <RepeatFields
            idPrefix="edit"
            values={values}
            firstDate={values.preferredDate}
            errors={errors}
            onChange={setMany}
          />
          <InputField
            id="edit-location"
            label="Location"
            required
            autoComplete="street-address"
            value={values.location}
            maxLength={limits.location?.maxLength}
            onChange={(e) => set("location")(e.target.value)}
            error={errors.location}
          />
          <TextareaField
            id="edit-specialRequirements"
            label="Special requirements"
            value={values.specialRequirements}
            maxLength={limits.specialRequirements?.maxLength}
            onChange={(e) => set("specialRequirements")(e.target.value)}
            error={errors.specialRequirements}
          />
          <div className="form-row">
            <InputField
              id="edit-estimatedDuration"
              label="Estimated duration (minutes)"
              required
              type="number"
              inputMode="numeric"
              min={1}
              max={limits.estimatedDuration?.max}
              step={15}
              value={values.estimatedDuration}
              onChange={(e) => set("estimatedDuration")(e.target.value)}
              error={errors.estimatedDuration}
            />
            <InputField
              id="edit-maxBudget"
              label="Maximum budget ($, optional)"
              type="number"
              inputMode="decimal"
              min={0}
              max={limits.maxBudget?.max}
              step={5}
              value={values.maxBudget}
              onChange={(e) => set("maxBudget")(e.target.value)}
              error={errors.maxBudget}
            />
          </div>
          <div className="actions form-actions">
            <button type="submit" className="button button-primary" disabled={saving}>
              {saving ? "Saving..." : "Save Changes"}
            </button>
            <button type="button" className="button button-danger" onClick={() => setConfirmOpen(true)}>
              Delete Request
            </button>
          </div>
        </form>
      </div>
      <Dialog
        open={confirmOpen}
        onOpenChange={setConfirmOpen}
        title="Delete Service Request"
        description="Are you sure you want to delete this service request? This action cannot be undone."
        testId="delete-dialog"
        footer={
          <>
            <DialogClose>Cancel</DialogClose>
            <button type="button" className="button button-danger" onClick={remove} disabled={deleting}>
              {deleting ? "Deleting..." : "Delete"}
            </button>
          </>
        }
      />
    </div>
  );
}

mountIsland(EditRequest, "edit-service-request");
