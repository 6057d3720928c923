// Settings > "Emails and text messages": per kind, email and text on or off (saved at once), the
// mobile number texts go to (opt-in), and for providers how often to hear of new requests.
// GET/PUT /api/notification-preferences; the page passes the first answer in its props, which
// seeds the query (lib/query); a save puts the server's answer in its place.
import { t } from "@lingui/core/macro";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { ApiError, api, errorMessage, isUnauthorizedError } from "../lib/api";
import { useSeededQuery } from "../lib/query";
import { toast } from "../lib/toast";
import { CheckboxOption, FieldSet, InputField, RadioOption } from "./Field";

type Frequency = "instant" | "daily" | "off";

export interface NotificationSettingsData {
  kinds: { kind: string; label: string; email: boolean; sms: boolean }[];
  smsAvailable: boolean;
  phone: string;
  phoneOptedOut: boolean;
  newRequests: Frequency | null;
}

const frequencies = (): { value: Frequency; label: string; done: string }[] => [
  { value: "instant", label: t`As they come in`, done: t`New requests: as they come in.` },
  { value: "daily", label: t`One summary a day`, done: t`New requests: one summary a day.` },
  { value: "off", label: t`Never`, done: t`New requests: never.` },
];

const PREFERENCES = "/api/notification-preferences";

export function NotificationSettings({ initial }: { initial: NotificationSettingsData }) {
  const client = useQueryClient();
  const { data } = useSeededQuery<NotificationSettingsData>(PREFERENCES, initial);
  const setData = (next: NotificationSettingsData) => client.setQueryData([PREFERENCES], next);
  const [phone, setPhone] = useState(initial.phone);
  const [phoneError, setPhoneError] = useState("");
  const saving = useMutation({
    mutationFn: (body: Record<string, unknown>) => api.put<NotificationSettingsData>(PREFERENCES, body),
    onSuccess: (next) => {
      setData(next);
      setPhone(next.phone);
    },
  });
  const busy = saving.isPending;

  async function save(body: Record<string, unknown>, done: string): Promise<boolean> {
    try {
      await saving.mutateAsync(body);
      toast({ title: t`Saved`, description: done });
      return true;
    } catch (err) {
      if (isUnauthorizedError(err)) return false; // lib/query's
      const message = (err instanceof ApiError && err.fieldErrors.phone?.[0]) || errorMessage(err);
      if (err instanceof ApiError && err.fieldErrors.phone) setPhoneError(message);
      toast({ title: t`Could not save your choice`, description: message, variant: "destructive" });
      return false;
    }
  }

  async function toggle(kind: string, label: string, channel: "email" | "sms", enabled: boolean) {
    // Shown at once; put back if the save fails.
    const before = data;
    setData({ ...data, kinds: data.kinds.map((k) => (k.kind === kind ? { ...k, [channel]: enabled } : k)) });
    const saved = await save(
      { preferences: [{ kind, channel, enabled }] },
      channel === "email"
        ? enabled
          ? t`Emails about "${label}" are now on.`
          : t`Emails about "${label}" are now off.`
        : enabled
          ? t`Text messages about "${label}" are now on.`
          : t`Text messages about "${label}" are now off.`,
    );
    if (!saved) setData(before);
  }

  async function savePhone(event: FormEvent) {
    event.preventDefault();
    setPhoneError("");
    await save({ phone }, phone.trim() ? t`Texts will go to this number.` : t`Your number was removed.`);
  }

  const canText = data.smsAvailable && data.phone !== "" && !data.phoneOptedOut;

  return (
    <div data-testid="notification-settings">
      {data.smsAvailable ? (
        <form onSubmit={savePhone} noValidate className="notification-phone">
          <InputField
            id="notification-phone"
            label={t`Mobile number for text messages`}
            hint={t`Leave it empty for no texts. Reply STOP to any text to stop them all.`}
            type="tel"
            autoComplete="tel"
            value={phone}
            onChange={(e) => setPhone(e.target.value)}
            error={phoneError}
          />
          {data.phoneOptedOut && (
            <p className="page-message" data-testid="phone-opted-out">
              {t`This number answered STOP, so Kindly sends it no texts. Enter another number to get texts again.`}
            </p>
          )}
          <button type="submit" className="button button-secondary" disabled={busy}>
            {t`Save number`}
          </button>
        </form>
      ) : (
        <p className="muted">{t`Text messages are not available yet; Kindly tells you by email and in the app.`}</p>
      )}

      {data.newRequests !== null && (
        <FieldSet id="notification-new-requests" legend={t`New requests that match your services`}>
          {frequencies().map((f) => (
            <RadioOption
              key={f.value}
              id={`new-requests-${f.value}`}
              name="new-requests"
              label={f.label}
              checked={data.newRequests === f.value}
              disabled={busy}
              onChange={() => void save({ newRequests: f.value }, f.done)}
            />
          ))}
        </FieldSet>
      )}

      {data.kinds.map((k) => (
        <FieldSet key={k.kind} id={`notify-${k.kind}`} legend={k.label}>
          <CheckboxOption
            id={`notify-${k.kind}-email`}
            label={t`Email`}
            checked={k.email}
            disabled={busy}
            onChange={(e) => void toggle(k.kind, k.label, "email", e.target.checked)}
          />
          {data.smsAvailable && (
            <CheckboxOption
              id={`notify-${k.kind}-sms`}
              label={t`Text message`}
              description={canText ? undefined : t`Add your mobile number above first.`}
              checked={k.sms}
              disabled={busy || !canText}
              onChange={(e) => void toggle(k.kind, k.label, "sms", e.target.checked)}
            />
          )}
        </FieldSet>
      ))}
    </div>
  );
}
