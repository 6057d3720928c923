// The page's one websocket to /ws/events/ (ARCHITECTURE.md "Realtime").
//
// Islands subscribe to event types; the socket opens on the first subscription, reconnects
// with exponential backoff (1 s doubling to 30 s, with jitter) and stops for good when the
// server says the user is signed out (close code 4401). While it is down, islands keep
// their data fresh at the spec's intervals (section 9: 5 s on the messages page, 10 s for the
// dashboard's unread count) with lib/query's usePollWhileDisconnected (a query's refetchInterval).
//
//   const off = subscribe("unread.count", (u) => setCount(u.count));
//
// The events and their payloads are the server's (marketplace/realtime_events.py declares each
// one), generated into api-schema.ts as the API schema's webhooks: "booking.updated",
// "message.created" (a Message), "unread.count" (UnreadCount), "typing", "provider.updated".
import { useEffect, useLayoutEffect, useRef, useState } from "react";
import type { webhooks } from "./api-schema";

/** Each event the server pushes, and its payload. */
export type RealtimeEvents = {
  [K in keyof webhooks]: NonNullable<webhooks[K]["post"]["requestBody"]>["content"]["application/json"];
};
export type RealtimeEventType = keyof RealtimeEvents;

type Handler = (payload: unknown) => void;
type StatusListener = (connected: boolean) => void;

/** The server closes with this code when the socket has no signed-in user. */
export const CLOSE_UNAUTHENTICATED = 4401;
const FIRST_DELAY_MS = 1000;
const MAX_DELAY_MS = 30_000;

const handlers = new Map<string, Set<Handler>>();
const statusListeners = new Set<StatusListener>();
let socket: WebSocket | null = null;
let open = false;
let attempt = 0;
let retryTimer: number | undefined;
let signedOut = false;
let started = false;

function socketUrl(): string {
  const scheme = window.location.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${window.location.host}/ws/events/`;
}

function setOpen(value: boolean): void {
  if (open === value) return;
  open = value;
  for (const listener of [...statusListeners]) listener(value);
}

function dispatch(raw: unknown): void {
  if (typeof raw !== "string") return;
  let event: { type?: unknown; payload?: unknown };
  try {
    event = JSON.parse(raw) as { type?: unknown; payload?: unknown };
  } catch {
    return;
  }
  if (typeof event.type !== "string") return;
  for (const handler of [...(handlers.get(event.type) ?? [])]) {
    try {
      handler(event.payload);
    } catch (error) {
      console.error(`realtime handler for ${event.type} failed`, error);
    }
  }
}

function scheduleReconnect(): void {
  if (signedOut || retryTimer !== undefined) return;
  const ceiling = Math.min(MAX_DELAY_MS, FIRST_DELAY_MS * 2 ** attempt);
  const delay = ceiling / 2 + Math.random() * (ceiling / 2);
  attempt += 1;
  retryTimer = window.setTimeout(() => {
    retryTimer = undefined;
    connect();
  }, delay);
}

function connect(): void {
  if (socket || signedOut) return;
  let ws: WebSocket;
  try {
    ws = new WebSocket(socketUrl());
  } catch {
    scheduleReconnect();
    return;
  }
  socket = ws;
  ws.onopen = () => {
    attempt = 0;
    setOpen(true);
  };
  ws.onmessage = (event: MessageEvent) => dispatch(event.data);
  ws.onclose = (event: CloseEvent) => {
    socket = null;
    setOpen(false);
    if (event.code === CLOSE_UNAUTHENTICATED) {
      signedOut = true;
      return;
    }
    scheduleReconnect();
  };
  // An error is always followed by close, which does the bookkeeping.
  ws.onerror = () => undefined;
}

function reconnectNow(): void {
  if (open || signedOut) return;
  if (retryTimer !== undefined) {
    window.clearTimeout(retryTimer);
    retryTimer = undefined;
  }
  connect();
}

function start(): void {
  if (started) return;
  started = true;
  // Back online or back to the tab: do not wait for the backoff timer.
  window.addEventListener("online", reconnectNow);
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") reconnectNow();
  });
  connect();
}

/** Call `handler` with the payload of every `eventType` event. Returns the unsubscribe function. */
export function subscribe<K extends RealtimeEventType>(
  eventType: K,
  handler: (payload: RealtimeEvents[K]) => void,
): () => void {
  let set = handlers.get(eventType);
  if (!set) {
    set = new Set();
    handlers.set(eventType, set);
  }
  const h = handler as Handler;
  set.add(h);
  start();
  return () => {
    set.delete(h);
  };
}

/** Is the socket open right now? */
export function isConnected(): boolean {
  return open;
}

/** `listener(connected)` now and on every change. Returns the unsubscribe function. */
export function onConnectionChange(listener: StatusListener): () => void {
  statusListeners.add(listener);
  start();
  listener(open);
  return () => {
    statusListeners.delete(listener);
  };
}

/** Send a frame (e.g. {type: "typing", to}) when the socket is open; false when it is not. */
export function send(data: object): boolean {
  if (!socket || !open) return false;
  socket.send(JSON.stringify(data));
  return true;
}

/** React: subscribe for the component's lifetime; the latest `handler` is always the one called. */
export function useRealtimeEvent<K extends RealtimeEventType>(
  eventType: K,
  handler: (payload: RealtimeEvents[K]) => void,
): void {
  const latest = useLatest(handler);
  useEffect(() => subscribe(eventType, (payload) => latest.current(payload)), [eventType, latest]);
}

/** A ref that always holds the value of the last render (for callbacks that outlive a render). */
function useLatest<T>(value: T): { readonly current: T } {
  const ref = useRef(value);
  useLayoutEffect(() => {
    ref.current = value;
  });
  return ref;
}

/** React: whether the socket is open. */
export function useConnected(): boolean {
  const [value, setValue] = useState(open);
  useEffect(() => onConnectionChange(setValue), []);
  return value;
}
