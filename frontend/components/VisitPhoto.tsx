// The visit's photo: the helper may add one at check-out (PhotoField, uploadVisitPhoto); the circle
// sees it on the visit's timeline (VisitPhotoButton). The photo has no public address: each look
// asks the server for a signed link, made for the person asking and good for an hour.
import { t } from "@lingui/core/macro";
import { useState } from "react";
import { apiRequest, errorMessage } from "../lib/api";
import { RULES } from "../lib/rules.generated";
import type { Booking } from "../lib/types";
import { Dialog, DialogClose } from "./Dialog";

interface PhotoLink {
  url: string;
  expiresAt: string;
}

const KINDS = "image/jpeg,image/png,image/webp";

/** The server's own limit, checked first so a helper on a slow connection is told at once. */
export function photoProblem(file: File | null): string | null {
  if (file && file.size > RULES.visitPhoto.PHOTO_MAX_BYTES) return RULES.visitPhoto.PHOTO_TOO_LARGE;
  return null;
}

export async function uploadVisitPhoto(bookingId: number, file: File): Promise<PhotoLink> {
  const form = new FormData();
  form.append("photo", file);
  return apiRequest<PhotoLink>("POST", `/api/bookings/${bookingId}/photo`, form);
}

/** "Add a photo for the family (optional)": one picture, taken now or chosen. */
export function PhotoField({
  id,
  file,
  onChange,
}: {
  id: string;
  file: File | null;
  onChange: (file: File | null) => void;
}) {
  const problem = photoProblem(file);
  return (
    <div className="field" data-testid="visit-photo-field">
      <label htmlFor={id}>{t`Add a photo for the family (optional)`}</label>
      <p className="field-hint" id={`${id}-hint`}>
        {t`One photo, at most 8 MB. The family sees it with the visit.`}
      </p>
      <input
        id={id}
        type="file"
        accept={KINDS}
        className="file-input"
        aria-describedby={`${id}-hint${problem ? ` ${id}-error` : ""}`}
        aria-invalid={problem ? true : undefined}
        onChange={(e) => onChange(e.currentTarget.files?.[0] ?? null)}
      />
      {problem && (
        <p className="field-error" id={`${id}-error`} role="alert">
          {problem}
        </p>
      )}
    </div>
  );
}

/** "See the photo" on a visit that has one: the picture in a dialog, through a fresh signed link. */
export function VisitPhotoButton({ booking }: { booking: Booking }) {
  const [link, setLink] = useState<PhotoLink | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  if (!booking.visitRecord?.hasPhoto) return null;
  const open = async () => {
    setBusy(true);
    setProblem(null);
    try {
      setLink(await apiRequest<PhotoLink>("GET", `/api/bookings/${booking.id}/photo`));
    } catch (error) {
      setProblem(errorMessage(error));
    } finally {
      setBusy(false);
    }
  };
  const who = booking.provider.user.firstName || t`the helper`;
  const title = booking.serviceRequest.title;
  return (
    <>
      <button
        type="button"
        className="button button-secondary"
        onClick={() => void open()}
        disabled={busy}
        data-testid="visit-photo-open"
      >
        {busy ? t`Opening...` : t`See the photo`}
        <span className="visually-hidden"> {t`from the visit of ${title}`}</span>
      </button>
      {problem && (
        <p className="field-error" role="alert">
          {problem}
        </p>
      )}
      <Dialog
        open={link !== null}
        onOpenChange={(isOpen) => !isOpen && setLink(null)}
        title={t`Photo from the visit`}
        description={t`Added by ${who}.`}
        testId="visit-photo"
        footer={<DialogClose>{t`Close`}</DialogClose>}
      >
        {link && (
          <img className="visit-photo" src={link.url} alt={t`What ${who} shared from the visit`} loading="lazy" />
        )}
      </Dialog>
    </>
  );
}
