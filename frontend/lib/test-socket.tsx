// What the usePollWhileDisconnected tests share (query.*.test.tsx): the page's socket the test
// opens and closes, and a page whose one query polls while it is down. Not a suite itself (the
// name has no .test.).
import { QueryClientProvider, useQuery } from "@tanstack/react-query";
import { act, render } from "@testing-library/react";
import { vi } from "vitest";
import { apiQuery, createQueryClient, usePollWhileDisconnected } from "./query";

/** The page's socket (lib/realtime), opened and closed by the test. */
export class FakeSocket {
  static all: FakeSocket[] = [];
  onopen: (() => void) | null = null;
  onclose: ((event: { code: number }) => void) | null = null;
  onmessage: ((event: { data: unknown }) => void) | null = null;
  onerror: (() => void) | null = null;
  constructor(readonly url: string) {
    FakeSocket.all.push(this);
  }
  send(): void {}
  close(): void {}
}

function Count({ pollMs }: { pollMs: number }) {
  const query = useQuery({
    ...apiQuery<{ count: number }>("/api/count"),
    refetchInterval: usePollWhileDisconnected([["/api/count"]], pollMs),
  });
  return <p data-testid="count">{query.data?.count ?? "loading"}</p>;
}

/** Shows /api/count's count (data-testid "count"), asked again every pollMs while the socket is down. */
export function renderCount(pollMs: number) {
  return render(
    <QueryClientProvider client={createQueryClient(vi.fn())}>
      <Count pollMs={pollMs} />
    </QueryClientProvider>,
  );
}

export const pause = (ms: number) => act(() => new Promise((resolve) => window.setTimeout(resolve, ms)));
