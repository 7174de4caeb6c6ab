// The REST side of the server (docs/protocol.md).

/** One REST call (`headers`: extra ones); a refusal throws an Error with the answer's `status`,
 * its `detail` and, where the body names one, its machine-readable `reason`. */
export async function request(method, path, body, headers = {}) {
  const response = await fetch(path, {
    method,
    headers: { ...(body ? { "Content-Type": "application/json" } : {}), ...headers },
    body: body ? JSON.stringify(body) : undefined,
  });
  const data = await response.json().catch(() => null);
  if (!response.ok) {
    const error = new Error(describe(data) || `${response.status} ${response.statusText}`);
    error.status = response.status;
    error.reason = data?.detail?.reason ?? null;
    error.detail = data?.detail;
    error.retryAfter = Number(response.headers.get("Retry-After")) || null;
    throw error;
  }
  return data;
}

/** The message of a FastAPI error body (422 lists each bad field). */
function describe(data) {
  if (!data || data.detail === undefined) return "";
  if (typeof data.detail === "string") return data.detail;
  if (data.detail.message) return data.detail.message;
  return data.detail.map((item) => `${item.loc.filter((p) => p !== "body").join(".")}: ${item.msg}`).join("; ");
}

export const api = {
  defaults: () => request("GET", "/api/defaults"),
  schema: () => request("GET", "/api/protocol"),
  order: (variant, trump) => request("GET", `/api/order/${variant}${trump ? `?trump=${trump}` : ""}`),
  tables: () => request("GET", "/api/tables"),
  table: (code) => request("GET", `/api/tables/${encodeURIComponent(code)}`),
  create: (body) => request("POST", "/api/tables", body),
  quickplay: (body) => request("POST", "/api/quickplay", body),
  match: (body) => request("POST", "/api/match", body),
  matchNews: (ticket) => request("GET", `/api/match/${encodeURIComponent(ticket)}`),
  cancelMatch: (ticket) => request("DELETE", `/api/match/${encodeURIComponent(ticket)}`),
  hands: (code) => request("GET", `/api/tables/${encodeURIComponent(code)}/hands`),
  me: () => request("GET", "/api/me"),
  signUp: (body) => request("POST", "/api/accounts", body),
  signIn: (body) => request("POST", "/api/login", body),
  signOut: () => request("POST", "/api/logout"),
  changePassword: (body) => request("POST", "/api/me/password", body),
  setPuzzleConsent: (body) => request("PUT", "/api/me/puzzle-consent", body),
  deleteAccount: (body) => request("DELETE", "/api/me", body),
  player: (name) => request("GET", `/api/players/${encodeURIComponent(name)}`),
  leaderboard: (variant, limit = 50) => request("GET", `/api/leaderboard?variant=${encodeURIComponent(variant)}&limit=${limit}`),
  replay: (code, n) => request("GET", `/api/tables/${encodeURIComponent(code)}/hands/${n}/replay`),
  analysis: (code, n) => request("GET", `/api/tables/${encodeURIComponent(code)}/hands/${n}/analysis`),
};
