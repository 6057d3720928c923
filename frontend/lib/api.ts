// The product API client (spec section 7/8): JSON in and out, session cookie + CSRF header,
// and errors whose text is "<status>: <body or status text>" (spec section 8), carrying the status
// (what the 401 check reads). That text is for the console only: people see errorMessage()'s text, never a raw
// body (an HTML error page, a traceback, a field dump).
import { t } from "@lingui/core/macro";
import { toast } from "./toast";

/** What a person sees when a call failed and the server said nothing meant for them. */
export const genericFailure = () => t`Something went wrong on our side. Please try again.`;
/** The request never got an answer (offline, server down). */
export const networkFailure = () => t`We couldn't reach Kindly. Please check your internet connection and try again.`;
/** Django's CSRF check failed: the page is older than the session (e.g. signed in on another tab). */
export const stalePage = () => t`This page is out of date. Please reload it and try again.`;

// Longer than any message our API writes: a longer "message" is not one meant for people.
const MAX_MESSAGE_LENGTH = 300;

export class ApiError extends Error {
  readonly status: number;
  readonly body: unknown;
  /** The body is our API's JSON error shape ({"message", "errors"}), not a proxy's or framework's page. */
  readonly fromApi: boolean;
  constructor(status: number, message: string, body: unknown, fromApi = false) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.body = body;
    this.fromApi = fromApi;
  }

  /** Our API's {"message"}, meant for people; "" when the answer had none (then show the
   * page's own text, or errorMessage()'s calm one). Never the raw body. */
  get serverMessage(): string {
    const b = this.body as { message?: unknown } | null;
    const message = this.fromApi && b && typeof b.message === "string" ? b.message.trim() : "";
    if (message.length > MAX_MESSAGE_LENGTH) return "";
    if (this.status === 403 && message.startsWith("CSRF Failed")) return stalePage();
    return message;
  }

  /** Field errors of a 400 reply: {field: [messages]} (only string messages of our API's shape). */
  get fieldErrors(): Record<string, string[]> {
    const b = this.body as { errors?: unknown } | null;
    if (!this.fromApi || !b || !b.errors || typeof b.errors !== "object" || Array.isArray(b.errors)) return {};
    const out: Record<string, string[]> = {};
    for (const [field, messages] of Object.entries(b.errors as Record<string, unknown>)) {
      if (Array.isArray(messages)) {
        const texts = messages.filter((m): m is string => typeof m === "string" && m.length <= MAX_MESSAGE_LENGTH);
        if (texts.length > 0) out[field] = texts;
      }
    }
    return out;
  }
}

function csrfToken(): string {
  const meta = document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]');
  if (meta?.content) return meta.content;
  const match = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
  return match?.[1] ? decodeURIComponent(match[1]) : "";
}

export async function apiRequest<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
  return (await send<T>(method, path, body)).data;
}

async function send<T>(method: string, path: string, body?: unknown): Promise<{ data: T; headers: Headers }> {
  const headers: Record<string, string> = { Accept: "application/json" };
  // A form (a file upload) goes as multipart: the browser writes its Content-Type and boundary.
  const form = typeof FormData !== "undefined" && body instanceof FormData;
  if (body !== undefined && !form) headers["Content-Type"] = "application/json";
  if (method !== "GET" && method !== "HEAD") headers["X-CSRFToken"] = csrfToken();
  const res = await fetch(path, {
    method,
    headers,
    credentials: "same-origin",
    body: body === undefined ? undefined : form ? body : JSON.stringify(body),
  });
  if (!res.ok) {
    const text = await res.text();
    let parsed: unknown = null;
    const json = /^application\/(?:[\w.+-]+\+)?json\b/i.test(res.headers.get("Content-Type") ?? "");
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      parsed = null;
    }
    const fromApi = json && parsed !== null && typeof parsed === "object" && !Array.isArray(parsed);
    // The whole answer goes to the console for whoever investigates; the server logs it too.
    if (!(res.status === 401 && fromApi))
      console.error(`${method} ${path} failed: ${res.status}`, text || res.statusText);
    throw new ApiError(res.status, `${res.status}: ${text || res.statusText}`, parsed, fromApi);
  }
  if (res.status === 204) return { data: undefined as T, headers: res.headers };
  const text = await res.text();
  return { data: (text ? JSON.parse(text) : undefined) as T, headers: res.headers };
}

/** One page of a list endpoint (a bare array paged by ?limit=&offset=) and the list's total,
 * which the server sends in the X-Total-Count header. */
export interface Page<T> {
  items: T[];
  total: number;
}

export async function getPage<T>(path: string): Promise<Page<T>> {
  const { data, headers } = await send<T[]>("GET", path);
  const total = Number(headers.get("X-Total-Count"));
  return { items: data, total: Number.isFinite(total) && headers.has("X-Total-Count") ? total : data.length };
}

export const api = {
  get: <T = unknown>(path: string) => apiRequest<T>("GET", path),
  post: <T = unknown>(path: string, body?: unknown) => apiRequest<T>("POST", path, body ?? {}),
  put: <T = unknown>(path: string, body?: unknown) => apiRequest<T>("PUT", path, body ?? {}),
  patch: <T = unknown>(path: string, body?: unknown) => apiRequest<T>("PATCH", path, body ?? {}),
  delete: <T = unknown>(path: string) => apiRequest<T>("DELETE", path),
};

/** Spec section 8: a 401 means the session is gone (read from the status, not the text). */
export function isUnauthorizedError(error: unknown): error is ApiError {
  return error instanceof ApiError && error.status === 401;
}

/**
 * The message to show a person for a failed call: our API's {"message"}, or a calm text.
 * Anything else (a body that is not ours, a script error) goes to the console only.
 */
export function errorMessage(error: unknown): string {
  if (error instanceof ApiError) return error.serverMessage || genericFailure();
  console.error(error);
  // fetch() rejects with a TypeError when no answer came back at all.
  if (error instanceof TypeError && /fetch|network|load failed/i.test(error.message)) return networkFailure();
  return genericFailure();
}

export function redirectAfter(path: string, ms: number): void {
  window.setTimeout(() => window.location.assign(path), ms);
}

// Several calls can find the session lost at once (a page's queries, a poll): one toast, one redirect.
let sessionLost = false;

/** The session was found lost: say so, then send the user to sign in again after 0.5 s (once a page).
 * lib/query calls it for every query and mutation; islands not yet on TanStack Query call it themselves. */
export function handleLoggedOut(target = "/login"): void {
  if (sessionLost) return;
  sessionLost = true;
  toast({ title: t`Unauthorized`, description: t`You are logged out. Logging in again...`, variant: "destructive" });
  redirectAfter(target, 500);
}
