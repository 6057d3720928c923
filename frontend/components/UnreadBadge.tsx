// How many messages wait unread: a small red count, read out as "2 unread". Nothing when none.
import { t } from "@lingui/core/macro";

export function UnreadBadge({ count, testId = "unread-badge" }: { count: number; testId?: string }) {
  if (count <= 0) return null;
  return (
    <span className="unread-badge" data-testid={testId}>
      {count}
      <span className="visually-hidden"> {t`unread`}</span>
    </span>
  );
}
