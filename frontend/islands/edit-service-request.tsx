// /edit-service-request?id= (spec section 2 "Edit Service Request page", section 5 "Edit request"):
// the edit form with Save Changes, and Delete Request behind a confirmation dialog. The request is
// a query, the save and the delete are mutations (a lost session is lib/query's); the form checks
// the server's rules with its words (lib/schemas/service-request.ts, the edit variant).
import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { useMemo, useState } from "react";
import { useQuery } from "@tanstack/react-query";
import { isUnauthorizedError, redirectAfter } from "../lib/api";
import { useSchemaForm } from "../lib/forms";
import type { Limits } from "../lib/limits";
import { apiQuery, mountQueryIsland, useApiWrite } from "../lib/query";
import {
  editPayload,
  serviceRequestEditSchema,
  withSeriesFields,
  type ServiceRequestValues,
} from "../lib/schemas/service-request";
import { NO_REPEAT } from "../lib/series";
import { toast } from "../lib/toast";
import type { ServiceRequest, Viewer } from "../lib/types";
import { Dialog, DialogClose } from "../components/Dialog";
import { LoadingText } from "../components/Skeleton";
import type { ShortNoticeRules } from "../components/ShortNotice";
import { SERVICE_REQUEST_FIELDS, ServiceRequestFields } from "../components/ServiceRequestFields";

interface Props {
  requestId: string | null;
  viewer: Viewer;
  categories: { id: number; name: string; features?: string[] }[];
  /** The preferred date's range: today to a year ahead (site time zone). */
  today: string;
  latestDate: string;
  limits: Limits;
  shortNotice: ShortNoticeRules;
}

type FormValues = ServiceRequestValues;

const FIELDS = SERVICE_REQUEST_FIELDS.edit;

function toForm(r: ServiceRequest): FormValues {
  return {
    title: r.title ?? "",
    description: r.description ?? "",
    categoryId: r.categoryId ? String(r.categoryId) : "",
    urgency: r.urgency ?? "normal",
    preferredDate: r.preferredDate ? r.preferredDate.slice(0, 10) : "",
    preferredTime: r.preferredTime ?? "",
    street: r.address?.street ?? "",
    unit: r.address?.unit ?? "",
    town: r.address?.town ?? "",
    state: r.address?.state ?? "",
    zipCode: r.address?.zipCode ?? "",
    specialRequirements: r.specialRequirements ?? "",
    tasks: r.tasks ?? [],
    estimatedDuration: r.estimatedDuration ? String(r.estimatedDuration) : "",
    maxBudget: r.maxBudget === null || r.maxBudget === undefined ? "" : String(Number(r.maxBudget)),
    repeat: r.repeat ?? "",
    repeatEnds: r.repeatUntil ? "until" : "count",
    repeatCount: r.repeatCount ? String(r.repeatCount) : NO_REPEAT.repeatCount,
    repeatUntil: r.repeatUntil ?? "",
  };
}

function BackToDashboard() {
  return (
    <a className="button button-secondary" href="/">
      <span aria-hidden="true">←</span> <Trans>Back to Dashboard</Trans>
    </a>
  );
}

function NotFound({ title, text }: { title?: string; text: string }) {
  return (
    <div className="card page-message">
      <h1>{title ?? t`Request Not Found`}</h1>
      <p>{text}</p>
      <div className="actions">
        <BackToDashboard />
      </div>
    </div>
  );
}

function EditRequest({ requestId, categories, shortNotice, today, latestDate, limits }: Props) {
  const valid = !!requestId && /^\d+$/.test(requestId);
  const request = useQuery({ ...apiQuery<ServiceRequest>(`/api/service-requests/${requestId}`), enabled: valid });

  // A lost session is on its way to /login (lib/query tells it): nothing to say here meanwhile.
  if (valid && (request.isPending || isUnauthorizedError(request.error))) {
    return (
      <LoadingText>
        <Trans>Loading request…</Trans>
      </LoadingText>
    );
  }
  // Only an organizer of the recipient's care circle edits a request; anyone else has nothing to
  // edit here (the server refuses them too).
  if (!request.data || request.data.circleRole !== "organizer") {
    return <NotFound text={t`This service request could not be loaded. It may have been removed.`} />;
  }
  if (request.data.status !== "open") {
    return (
      <NotFound
        title={t`This Request Can No Longer Be Edited`}
        text={t`Only open requests can be changed. This one has already been accepted or closed.`}
      />
    );
  }
  return (
    <EditForm
      request={request.data}
      categories={categories}
      shortNotice={shortNotice}
      today={today}
      latestDate={latestDate}
      limits={limits}
    />
  );
}

interface EditFormProps {
  request: ServiceRequest;
  categories: Props["categories"];
  shortNotice: ShortNoticeRules;
  today: string;
  latestDate: string;
  limits: Limits;
}

function EditForm({ request, categories, shortNotice, today, latestDate, limits }: EditFormProps) {
  const schema = useMemo(() => serviceRequestEditSchema({ today, latestDate, limits }), [today, latestDate, limits]);
  const { put } = useApiWrite();
  const remover = useApiWrite();
  const [removed, setRemoved] = useState(false);
  const [confirmOpen, setConfirmOpen] = useState(false);
  const { values, errors, set, setMany, submit, pending } = useSchemaForm({
    schema,
    defaultValues: toForm(request),
    fields: FIELDS,
    fieldId: (f) => `edit-${f}`,
    // After a first attempt, errors follow the user's corrections as they type.
    onChange: "after-submit",
  });

  // A change with the fields it may set right or wrong (the series against its first date).
  const change = (changes: Partial<FormValues>) => setMany(withSeriesFields(changes, values, errors));

  const save = submit({
    send: (checked) => put(`/api/service-requests/${request.id}`, editPayload(checked)),
    success: { title: t`Success`, description: t`Service request updated successfully.` },
    failure: () => t`Failed to update service request. Please try again.`,
    redirectTo: "/",
    redirectMs: 1000,
  });

  async function remove() {
    try {
      await remover.delete(`/api/service-requests/${request.id}`);
    } catch (error) {
      if (!isUnauthorizedError(error)) {
        toast({
          title: t`Error`,
          description: t`Failed to delete service request. Please try again.`,
          variant: "destructive",
        });
      }
      return;
    }
    setRemoved(true);
    setConfirmOpen(false);
    toast({ title: t`Success`, description: t`Service request deleted successfully.` });
    redirectAfter("/", 1000);
  }
  const deleting = remover.isPending || removed;

  return (
    <div>
      <p>
        <a className="button button-secondary" href={`/service-request-details?id=${request.id}`}>
          <span aria-hidden="true">←</span> <Trans>Back to Request</Trans>
        </a>
      </p>
      <div className="card">
        <h1>
          <Trans>Edit Service Request</Trans>
        </h1>
        <p className="muted">
          <Trans>Update the details of your request. Fields marked * are required.</Trans>
        </p>
        {request.recipient && (
          <p data-testid="edit-recipient">
            <strong>
              <Trans>For:</Trans>
            </strong>{" "}
            {`${request.recipient.firstName} ${request.recipient.lastName}`.trim()}{" "}
            <span className="muted">
              <Trans>(the person a request is for stays the same once it is posted)</Trans>
            </span>
          </p>
        )}
        <form onSubmit={save} noValidate aria-label={t`Edit service request`}>
          <ServiceRequestFields
            variant="edit"
            values={values}
            errors={errors}
            set={set}
            change={change}
            categories={categories}
            limits={limits}
            today={today}
            latestDate={latestDate}
            shortNotice={shortNotice}
          />
          <div className="actions form-actions">
            <button type="submit" className="button button-primary" disabled={pending}>
              {pending ? t`Saving...` : t`Save Changes`}
            </button>
            <button type="button" className="button button-danger" onClick={() => setConfirmOpen(true)}>
              <Trans>Delete Request</Trans>
            </button>
          </div>
        </form>
      </div>
      <Dialog
        open={confirmOpen}
        onOpenChange={setConfirmOpen}
        title={t`Delete Service Request`}
        description={t`Are you sure you want to delete this service request? This action cannot be undone.`}
        testId="delete-dialog"
        footer={
          <>
            <DialogClose>
              <Trans>Cancel</Trans>
            </DialogClose>
            <button type="button" className="button button-danger" onClick={remove} disabled={deleting}>
              {deleting ? t`Deleting...` : t`Delete`}
            </button>
          </>
        }
      />
    </div>
  );
}

mountQueryIsland(EditRequest, "edit-service-request");
