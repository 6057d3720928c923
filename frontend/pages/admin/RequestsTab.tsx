// /admin's Service Requests tab: the counts and every request.
import { plural, t } from "@lingui/core/macro";
import { StatusBadge } from "../../components/StatusBadge";
import { formatDateTime } from "../../lib/format";
import type { ServiceRequest } from "../../lib/types";
import { FilteredTable } from "./FilteredTable";
import { CountCards } from "./ListParts";
import { clientName, type Counts } from "./common";

const REQUEST_STATUSES = ["open", "booked", "completed", "cancelled", "deleted"];

function truncate(text: string, max = 60): string {
  return text.length > max ? `${text.slice(0, max - 1).trimEnd()}…` : text;
}

export function RequestsTab({ counts }: { counts: Counts["serviceRequests"] }) {
  return (
    <>
      <CountCards
        label={t`Service request counts`}
        cards={[
          { key: "Total Requests", label: t`Total Requests`, value: counts.total },
          { key: "Open Requests", label: t`Open Requests`, value: counts.open },
          { key: "Completed", label: t`Completed`, value: counts.completed },
        ]}
      />
      <FilteredTable<ServiceRequest>
        url="/api/admin/service-requests"
        title={t`All Service Requests`}
        noun={{ id: "request", many: "requests" }}
        words={{
          found: (count) => plural(count, { one: "# request found", other: "# requests found" }),
          noneFound: t`No service requests found`,
          noneYet: t`No service requests yet`,
        }}
        statuses={REQUEST_STATUSES}
        searchLabel={t`Search service requests`}
        searchPlaceholder={t`Request ID, client, service or description...`}
        columns={[t`Request ID`, t`Client`, t`Service`, t`Created`, t`Status`]}
        row={(r) => (
          <tr key={r.id} data-testid="admin-request">
            <td>#{r.id}</td>
            <td>{clientName(r.client)}</td>
            <td>
              <strong>{r.serviceCategory?.name ?? t`Service`}</strong>
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
