// /admin's Service Requests tab: the counts and every request.
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
