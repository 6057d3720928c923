// Settings > "Emails and text messages": per kind, email and text on or off (saved at once), the
// mobile number texts go to (opt-in), and for providers how often to hear of new requests.
// GET/PUT /api/notification-preferences; the page passes the first answer in its props, which
// seeds the query (lib/query); a save puts the server's answer in its place.
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

const FREQUENCIES: { value: Frequency; label: string }[] = [
  { value: "instant", label: "As they come in" },
  { value: "daily", label: "One summary a day" },
  { value: "off", label: "Never" },
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
      toast({ title: "Saved", description: done });
      return true;
    } catch (err) {
      if (isUnauthorizedError(err)) return false; // lib/query's
      const message = (err instanceof ApiError && err.fieldErrors.phone?.[0]) || errorMessage(err);
      if (err instanceof ApiError && err.fieldErrors.phone) setPhoneError(message);
      toast({ title: "Could not save your choice", description: message, variant: "destructive" });
      return false;
    }
  }

  async function toggle(kind: string, label: string, channel: "email" | "sms", enabled: boolean) {
    const how = channel === "email" ? "Emails" : "Text messages";
    // Shown at once; put back if the save fails.
    const before = data;
    setData({ ...data, kinds: data.kinds.map((k) => (k.kind === kind ? { ...k, [channel]: enabled } : k)) });
    const saved = await save(
      { preferences: [{ kind, channel, enabled }] },
      `${how} about "${label}" are now ${enabled ? "on" : "off"}.`,
    );
    if (!saved) setData(before);
  }

  async function savePhone(event: FormEvent) {
    event.preventDefault();
    setPhoneError("");
    await save({ phone }, phone.trim() ? "Texts will go to this number." : "Your number was removed.");
  }

  const canText = data.smsAvailable && data.phone !== "" && !data.phoneOptedOut;

  return (
    <div data-testid="notification-settings">
      {data.smsAvailable ? (
        <form onSubmit={savePhone} noValidate className="notification-phone">
          <InputField
            id="notification-phone"
            label="Mobile number for text messages"
            hint="Leave it empty for no texts. Reply STOP to any text to stop them all."
            type="tel"
            autoComplete="tel"
            value={phone}
            onChange={(e) => setPhone(e.target.value)}
            error={phoneError}
          />
          {data.phoneOptedOut && (
            <p className="page-message" data-testid="phone-opted-out">
              This number answered STOP, so Kindly sends it no texts. Enter another number to get texts again.
            </p>
          )}
          <button type="submit" className="button button-secondary" disabled={busy}>
            Save number
          </button>
        </form>
      ) : (
        <p className="muted">Text messages are not available yet; Kindly tells you by email and in the app.</p>
      )}

      {data.newRequests !== null && (
        <FieldSet id="notification-new-requests" legend="New requests that match your services">
          {FREQUENCIES.map((f) => (
            <RadioOption
              key={f.value}
              id={`new-requests-${f.value}`}
              name="new-requests"
              label={f.label}
              checked={data.newRequests === f.value}
              disabled={busy}
              onChange={() => void save({ newRequests: f.value }, `New requests: ${f.label.toLowerCase()}.`)}
            />
          ))}
        </FieldSet>
      )}

      {data.kinds.map((k) => (
        <FieldSet key={k.kind} id={`notify-${k.kind}`} legend={k.label}>
          <CheckboxOption
            id={`notify-${k.kind}-email`}
            label="Email"
            checked={k.email}
            disabled={busy}
            onChange={(e) => void toggle(k.kind, k.label, "email", e.target.checked)}
          />
          {data.smsAvailable && (
            <CheckboxOption
              id={`notify-${k.kind}-sms`}
              label="Text message"
              description={canText ? undefined : "Add your mobile number above first."}
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
