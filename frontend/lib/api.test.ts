import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { api, ApiError, errorMessage, genericFailure, isUnauthorizedError, networkFailure, stalePage } from "./api";

type Reply = { status: number; body?: string; type?: string };

/** Replace the network with canned replies; returns the recorded calls. */
function serve(...replies: Reply[]) {
  const fetchMock = vi.fn<(url: string, init: RequestInit) => Promise<Response>>(() => {
    const reply = replies.shift();
    if (!reply) throw new Error("no more replies");
    const headers = reply.type ? { "Content-Type": reply.type } : undefined;
    return Promise.resolve(
      new Response(reply.status === 204 ? null : (reply.body ?? ""), { status: reply.status, headers }),
    );
  });
  vi.stubGlobal("fetch", fetchMock);
  return fetchMock;
}

const JSON_TYPE = "application/json";

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

beforeEach(() => {
  vi.spyOn(console, "error").mockImplementation(() => undefined);
});

afterEach(() => {
  vi.useRealTimers();
});

describe("apiRequest", () => {
  it("sends JSON with the CSRF token of the page and parses the JSON answer", async () => {
    document.head.innerHTML = '<meta name="csrf-token" content="token-from-meta">';
    const fetchMock = serve({ status: 201, body: '{"id": 7}', type: JSON_TYPE });

    await expect(api.post("/api/things", { name: "Tea" })).resolves.toEqual({ id: 7 });

    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe("/api/things");
    expect(init.method).toBe("POST");
    expect(init.credentials).toBe("same-origin");
    expect(init.body).toBe('{"name":"Tea"}');
    expect(init.headers).toMatchObject({ "X-CSRFToken": "token-from-meta", "Content-Type": "application/json" });
  });

  it("falls back to the csrftoken cookie and sends no token or body on GET", async () => {
    document.cookie = "csrftoken=from%20cookie";
    const fetchMock = serve({ status: 200, body: "[]", type: JSON_TYPE }, { status: 200, body: "{}", type: JSON_TYPE });

    await api.get("/api/list");
    await api.delete("/api/list/1");

    const getInit = fetchMock.mock.calls[0]![1];
    expect(getInit.headers).not.toHaveProperty("X-CSRFToken");
    expect(getInit.body).toBeUndefined();
    expect(fetchMock.mock.calls[1]![1].headers).toMatchObject({ "X-CSRFToken": "from cookie" });
  });

  it("answers undefined for 204 No Content and for an empty body", async () => {
    serve({ status: 204 }, { status: 200, body: "" });
    await expect(api.delete("/api/x")).resolves.toBeUndefined();
    await expect(api.get("/api/y")).resolves.toBeUndefined();
  });

  it("turns our API's 400 into a message and field errors for people", async () => {
    serve({
      status: 400,
      type: JSON_TYPE,
      body: JSON.stringify({
        message: " Please check the form. ",
        errors: { title: ["Title is required.", 42], budget: "not a list", notes: ["x".repeat(301)] },
      }),
    });

    const error = await failure(api.post("/api/requests", {}));

    expect(error.status).toBe(400);
    expect(error.fromApi).toBe(true);
    expect(error.message).toMatch(/^400: /);
    expect(error.serverMessage).toBe("Please check the form.");
    expect(error.fieldErrors).toEqual({ title: ["Title is required."] });
    expect(errorMessage(error)).toBe("Please check the form.");
  });

  it("never shows a body that is not our API's JSON (an HTML error page)", async () => {
    serve({ status: 500, type: "text/html", body: '<html><body>{"message": "Traceback"}</body></html>' });

    const error = await failure(api.get("/api/boom"));

    expect(error.fromApi).toBe(false);
    expect(error.serverMessage).toBe("");
    expect(error.fieldErrors).toEqual({});
    expect(errorMessage(error)).toBe(genericFailure());
    expect(console.error).toHaveBeenCalled();
  });

  it("ignores JSON that is not an object, and messages too long to be meant for people", async () => {
    serve(
      { status: 502, type: JSON_TYPE, body: '["message"]' },
      { status: 409, type: "application/problem+json", body: JSON.stringify({ message: "m".repeat(301) }) },
    );

    expect((await failure(api.get("/a"))).fromApi).toBe(false);
    const long = await failure(api.get("/b"));
    expect(long.fromApi).toBe(true);
    expect(errorMessage(long)).toBe(genericFailure());
  });

  it("says the page is stale when Django's CSRF check failed", async () => {
    serve({ status: 403, type: JSON_TYPE, body: JSON.stringify({ message: "CSRF Failed: CSRF token missing." }) });
    expect(errorMessage(await failure(api.post("/api/x")))).toBe(stalePage());
  });

  it("recognises a lost session (401 Unauthorized) without logging it as a failure", async () => {
    serve({ status: 401, type: JSON_TYPE, body: JSON.stringify({ message: "Unauthorized" }) });

    const error = await failure(api.get("/api/auth/user"));

    expect(isUnauthorizedError(error)).toBe(true);
    expect(isUnauthorizedError(new ApiError(403, "403: Forbidden", null))).toBe(false);
    expect(console.error).not.toHaveBeenCalled();
  });
});

describe("errorMessage", () => {
  it("says the network is down when fetch itself failed", () => {
    expect(errorMessage(new TypeError("Failed to fetch"))).toBe(networkFailure());
  });

  it("keeps a script error's text from people", () => {
    expect(errorMessage(new Error("undefined is not a function"))).toBe(genericFailure());
  });
});
