// /admin's Providers tab: the counts, a search, the three groups and the approval dialog.
import { t } from "@lingui/core/macro";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { lazy, Suspense, useState } from "react";
import { api, ApiError } from "../../lib/api";
import { toast } from "../../lib/toast";
import type { Provider } from "../../lib/types";
import { CountCards, SearchBox, useListFilters } from "./ListParts";
import { ProviderGroup } from "./ProviderGroup";
import type { PendingVerdict } from "./VerdictDialog";
import { ADMIN_ACTION, type Counts, failed, PROVIDERS, type Verdict } from "./common";

// The approval dialog and its form library load with the first Approve or Reject: /admin opens
// without them (and its Market tab's chart stays inside the page's JavaScript budget).
const VerdictDialog = lazy(() => import("./VerdictDialog").then((m) => ({ default: m.VerdictDialog })));

export function ProvidersTab({
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
  const filters = useListFilters();
  const { search } = filters;
  const [verdict, setVerdict] = useState<PendingVerdict | null>(null);
  const client = useQueryClient();
  const update = useMutation({
    mutationFn: ({ provider, status, reason }: PendingVerdict & { reason: string }) =>
      api.put(`/api/admin/providers/${provider.id}/status`, reason ? { status, reason } : { status }),
    meta: ADMIN_ACTION,
    onSuccess: async () => {
      toast({ title: t`Success`, description: t`Provider status updated successfully` });
      setVerdict(null);
      await Promise.all([client.invalidateQueries({ queryKey: [PROVIDERS] }), onChanged()]);
    },
    // A refusal the server explains (409: no verified ID or clear check yet) is shown in its words.
    onError: (error) =>
      error instanceof ApiError && error.status === 409 && error.serverMessage
        ? toast({ title: t`Not approved`, description: error.serverMessage, variant: "destructive" })
        : failed(error, t`Failed to update provider status`),
  });
  const busyId = update.isPending ? update.variables.provider.id : null;
  const ask = (provider: Provider, status: Verdict) => setVerdict({ provider, status });
  const group = { search, onStatus: ask, busyId };

  return (
    <>
      <CountCards
        label={t`Provider counts`}
        cards={[
          { key: "Pending", label: t`Pending`, value: counts.pending },
          { key: "Verified", label: t`Verified`, value: counts.verified },
          { key: "Rejected", label: t`Rejected`, value: counts.rejected },
          { key: "Total", label: t`Total`, value: counts.total },
        ]}
      />
      <SearchBox
        id="provider-search"
        label={t`Search providers`}
        placeholder={t`Search providers by name, email, or specialty...`}
        value={filters.values.search}
        onChange={(value) => filters.set("search", value)}
      />
      <ProviderGroup
        title={t`Pending Approval`}
        status="pending"
        {...group}
        focus={focusPending}
        onFocused={onPendingFocused}
      />
      <ProviderGroup title={t`Verified Providers`} status="verified" {...group} />
      <ProviderGroup title={t`Rejected Providers`} status="rejected" {...group} />
      {verdict !== null && (
        <Suspense fallback={null}>
          <VerdictDialog
            verdict={verdict}
            busy={busyId === verdict.provider.id}
            onClose={() => setVerdict(null)}
            onConfirm={(reason) => update.mutate({ ...verdict, reason })}
          />
        </Suspense>
      )}
    </>
  );
}
