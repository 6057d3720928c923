// How many messages wait unread: a small red count, read out as "2 unread". Nothing when none.
export function UnreadBadge({ count, testId = "unread-badge" }: { count: number; testId?: string }) {
  if (count <= 0) return null;
  return (
    <span className="unread-badge" data-testid={testId}>
      {count}
      <span className="visually-hidden"> unread</span>
    </span>
  );
}
