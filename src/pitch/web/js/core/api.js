// HTTP API of `pitch serve` (docs/server.md). Errors carry the server's `detail`.

export class ApiError extends Error {
  /** `body` is the error answer: `detail` (English), `code` (docs/server.md, "HTTP
   *  error codes": messages.apiError says it in the reader's language), `seat`... */
  constructor(status, body) {
    const detail = body?.detail ?? "";
    super(typeof detail === "string" ? detail : JSON.stringify(detail));
    this.status = status;
    this.detail = detail;
    this.code = typeof body?.code === "string" ? body.code : null;
    this.body = body && typeof body === "object" ? body : {};
  }
}

async function call(method, path, body) {
  const res = await fetch(path, {
    method,
    // Every change is sent as JSON, with or without a body (the server refuses others).
    headers: body || method !== "GET" ? { "Content-Type": "application/json" } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  let data = null;
  try {
    data = await res.json();
  } catch {
    data = null;
  }
  if (!res.ok) throw new ApiError(res.status, data ?? { detail: res.statusText });
  return data;
}

export const bots = () => call("GET", "/api/bots");
export const createTable = (body) => call("POST", "/api/tables", body);
export const table = (id) => call("GET", `/api/tables/${id}`);
export const claim = (id, seat, name) => call("POST", `/api/tables/${id}/seats/${seat}`, { name });
export const hands = (id, start = 0) => call("GET", `/api/tables/${id}/hands?start=${start}`);
export const record = (id) => call("GET", `/api/tables/${id}/record`);
export const recordUrl = (id) => `/api/tables/${id}/record`;
/** The tables these seat tokens hold seats at ([{table, token}], at most 50). */
export const myTables = (seats) => call("POST", "/api/my/tables", { seats });
/** Leave the seat `token` holds: open it again (waiting) or resign to a bot (in play). */
export const leave = (id, token) => call("POST", `/api/tables/${id}/leave`, { token });
export const chat = () => call("GET", "/api/chat");
export const ruleOptions = () => call("GET", "/api/rules/options");
/** Quick play: a table with these rules and bot level that has a seat (or a new one)... */
export const quickPlay = (body) => call("POST", "/api/quickplay", body);
/** ...and the seat there (409: taken meanwhile). */
export const quickSeat = (id, name) => call("POST", `/api/tables/${id}/quickseat`, { name });
/** A rated game's rating changes by seat (`rated` false until written). */
export const tableRatings = (id) => call("GET", `/api/tables/${id}/ratings`);
export const rematch = (id, token) => call("POST", `/api/tables/${id}/rematch`, { token });

/** The table socket's address for this page. */
export function socketUrl(id) {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  return `${proto}//${location.host}/ws/tables/${id}`;
}
/** Ask for a finished game's analysis ({records: [record]}): its result if the server
 *  analysed it before, else the job to poll (docs/server.md, "Analyses"). */
export const analyse = (body) => call("POST", "/api/analysis", body);
export const analysisJob = (job) => call("GET", `/api/analysis/${encodeURIComponent(job)}`);

// Accounts (optional; docs/server.md, "Accounts"). `seats`: this browser's seat tokens,
// which become the account's.
export const signUp = (name, password, seats) => call("POST", "/api/accounts", { name, password, seats });
export const signIn = (name, password, seats) => call("POST", "/api/session", { name, password, seats });
export const signOut = () => call("DELETE", "/api/session");
export const signOutEverywhere = () => call("DELETE", "/api/sessions");
export const account = () => call("GET", "/api/account");
export const changePassword = (password, newPassword) =>
  call("POST", "/api/account/password", { password, new_password: newPassword });
export const deleteAccount = (password) => call("DELETE", "/api/account", { password });
export const exportUrl = "/api/account/export";

// Friends and safety (signed in only; docs/server.md, "Friends and safety").
export const social = () => call("GET", "/api/social");
/** Ask `name` to be friends, or accept their request: {state: "requested" | "friends"}. */
export const addFriend = (name) => call("POST", "/api/friends", { name });
/** Unfriend, decline a request or cancel one's own. */
export const removeFriend = (name) => call("DELETE", `/api/friends/${encodeURIComponent(name)}`);
export const block = (name) => call("POST", "/api/blocks", { name });
export const unblock = (name) => call("DELETE", `/api/blocks/${encodeURIComponent(name)}`);
export const invite = (name, table) => call("POST", "/api/invites", { name, table });
export const dismissInvite = (id) => call("DELETE", `/api/invites/${encodeURIComponent(id)}`);
/** Report a player (and a chat line): {name, table, chat, reason, text}. */
export const report = (body) => call("POST", "/api/reports", body);
// Passkeys (docs/server.md, "Passkeys"): the options are WebAuthn's JSON forms.
export const passkeyCreationOptions = (password) => call("POST", "/api/account/passkeys/options", { password });
export const addPasskey = (credential, label) => call("POST", "/api/account/passkeys", { credential, label });
export const passkeys = () => call("GET", "/api/account/passkeys");
export const removePasskey = (id) => call("DELETE", `/api/account/passkeys/${encodeURIComponent(id)}`);
export const passkeyRequestOptions = () => call("POST", "/api/session/passkey/options", {});
export const signInWithPasskey = (credential, seats) => call("POST", "/api/session/passkey", { credential, seats });
