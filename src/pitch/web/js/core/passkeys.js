// Passkeys (WebAuthn; docs/server.md, "Passkeys"): the server's options in WebAuthn's
// JSON form become what navigator.credentials wants (bytes where it has base64url), and
// the credential it answers becomes JSON again. The conversions touch no DOM.

import * as api from "./api.js";

/** ArrayBuffer or view -> base64url without padding. */
export function toBase64url(data) {
  const bytes = data instanceof ArrayBuffer ? new Uint8Array(data) : new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  let text = "";
  for (const b of bytes) text += String.fromCharCode(b);
  return btoa(text).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** base64url (padded or not) -> Uint8Array; throws on anything else. */
export function fromBase64url(text) {
  if (typeof text !== "string" || !/^[A-Za-z0-9_-]*={0,2}$/.test(text)) throw new TypeError("not base64url");
  const plain = text.replace(/=+$/, "").replace(/-/g, "+").replace(/_/g, "/");
  const raw = atob(plain + "=".repeat((4 - (plain.length % 4)) % 4));
  return Uint8Array.from(raw, (c) => c.charCodeAt(0));
}

const descriptors = (list) => (Array.isArray(list) ? list.map((c) => ({ ...c, id: fromBase64url(c.id) })) : []);

/** PublicKeyCredentialCreationOptionsJSON -> navigator.credentials.create()'s publicKey. */
export function creationOptions(json) {
  return { ...json, challenge: fromBase64url(json.challenge), user: { ...json.user, id: fromBase64url(json.user.id) }, excludeCredentials: descriptors(json.excludeCredentials) };
}

/** PublicKeyCredentialRequestOptionsJSON -> navigator.credentials.get()'s publicKey. */
export function requestOptions(json) {
  return { ...json, challenge: fromBase64url(json.challenge), allowCredentials: descriptors(json.allowCredentials) };
}

/** A made credential as the server reads it (RegistrationResponseJSON). */
export function registrationJSON(cred) {
  const r = cred.response;
  return {
    id: cred.id,
    rawId: toBase64url(cred.rawId),
    type: cred.type,
    response: {
      clientDataJSON: toBase64url(r.clientDataJSON),
      attestationObject: toBase64url(r.attestationObject),
      transports: typeof r.getTransports === "function" ? r.getTransports() : [],
    },
  };
}

/** An assertion as the server reads it (AuthenticationResponseJSON). */
export function authenticationJSON(cred) {
  const r = cred.response;
  return {
    id: cred.id,
    rawId: toBase64url(cred.rawId),
    type: cred.type,
    response: {
      clientDataJSON: toBase64url(r.clientDataJSON),
      authenticatorData: toBase64url(r.authenticatorData),
      signature: toBase64url(r.signature),
      userHandle: r.userHandle ? toBase64url(r.userHandle) : null,
    },
  };
}

/** Whether passkeys work on this page: not in old browsers nor on plain-HTTP pages
 *  (no PublicKeyCredential), nor at an IP address (a browser takes only a host name as
 *  the site's id: http://localhost works, http://127.0.0.1 does not). */
export function supported() {
  const host = location.hostname;
  const address = /^[0-9.]+$/.test(host) || host.includes(":") || host.startsWith("[");
  return !address && typeof window.PublicKeyCredential === "function" && typeof navigator.credentials?.get === "function";
}

/** Whether an error is the person (or the browser) saying no: cancelled, timed out. */
export function declined(e) {
  return e?.name === "NotAllowedError" || e?.name === "AbortError";
}

/** Add a passkey to the signed-in account (the current password is asked for). */
export async function addPasskey(password, label) {
  const options = await api.passkeyCreationOptions(password);
  const cred = await navigator.credentials.create({ publicKey: creationOptions(options) });
  return api.addPasskey(registrationJSON(cred), label || null);
}

/** Sign in with a passkey: no name, the authenticator offers its passkeys for this site. */
export async function signInWithPasskey(seats) {
  const options = await api.passkeyRequestOptions();
  const cred = await navigator.credentials.get({ publicKey: requestOptions(options) });
  return api.signInWithPasskey(authenticationJSON(cred), seats);
}
