// The product API client (spec section 7/8): JSON in and out, session cookie + CSRF header,
// and errors whose text is "<status>: <body or status text>".
import { toast } from "./toast";

export class ApiError extends Error {
  readonly status: number;
  readonly body: unknown;
  constructor(status: number, message: string, body: unknown) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.body = body;
  }

  /** The server's {"message"} when it sent one, else the raw error text. */
  get serverMessage(): string {
    const b = this.body as { message?: unknown } | null;
    return b && typeof b.message === "string" && b.message ? b.message : this.message;
  }

  /** Field errors of a 400 reply: {field: [messages]}. */
  get fieldErrors(): Record<string, string[]> {
    const b = this.body as { errors?: unknown } | null;
    return b && b.errors && typeof b.errors === "object" ? (b.errors as Record<string, string[]>) : {};
  }
}

function csrfToken(): string {
  const meta = document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]');
  if (meta?.content) return meta.content;
  const match = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
  return match?.[1] ? decodeURIComponent(match[1]) : "";
}

export async function apiRequest<T = unknown>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (method !== "GET" && method !== "HEAD") headers["X-CSRFToken"] = csrfToken();
  const res = await fetch(path, {
    method,
    headers,
    credentials: "same-origin",
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) {
    const text = await res.text();
    let parsed: unknown = null;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      parsed = null;
    }
    throw new ApiError(res.status, `${res.status}: ${text || res.statusText}`, parsed);
  }
  if (res.status === 204) return undefined as T;
  const text = await res.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

export const api = {
  get: <T = unknown>(path: string) => apiRequest<T>("GET", path),
  post: <T = unknown>(path: string, body?: unknown) => apiRequest<T>("POST", path, body ?? {}),
  put: <T = unknown>(path: string, body?: unknown) => apiRequest<T>("PUT", path, body ?? {}),
  patch: <T = unknown>(path: string, body?: unknown) => apiRequest<T>("PATCH", path, body ?? {}),
  delete: <T = unknown>(path: string) => apiRequest<T>("DELETE", path),
};

/** Spec section 8: a 401 whose text says Unauthorized means the session is gone. */
export function isUnauthorizedError(error: unknown): boolean {
  return error instanceof Error && /^401: .*Unauthorized/.test(error.message);
}

/** The message to show for a failed call. */
export function errorMessage(error: unknown): string {
  if (error instanceof ApiError) return error.serverMessage;
  return error instanceof Error ? error.message : String(error);
}

export function redirectAfter(path: string, ms: number): void {
  window.setTimeout(() => window.location.assign(path), ms);
}

/** The session was found lost: say so, then send the user to sign in again after 0.5 s. */
export function handleLoggedOut(target = "/login"): void {
  toast({ title: "Unauthorized", description: "You are logged out. Logging in again...", variant: "destructive" });
  redirectAfter(target, 500);
}
