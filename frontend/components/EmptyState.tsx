// What a list shows when it has nothing: a short title, optional text and one action.
import type { ReactNode } from "react";

export function EmptyState({
  title,
  children,
  action,
  headingLevel = 3,
  testId = "empty-state",
}: {
  title: string;
  children?: ReactNode;
  action?: ReactNode;
  headingLevel?: 2 | 3 | 4;
  testId?: string;
}) {
  const Heading = `h${headingLevel}` as const;
  return (
    <div className="empty-state" data-testid={testId}>
      <Heading className="empty-state-title">{title}</Heading>
      {children && <div className="empty-state-text">{children}</div>}
      {action && <div className="actions empty-state-action">{action}</div>}
    </div>
  );
}
