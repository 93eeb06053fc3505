"""A passkey authenticator in software (an EC P-256 key, attestation ``none``): it
answers the server's WebAuthn options as a browser would pass an authenticator's
answer on, and can be told to lie (another origin, another relying party, no user
verification) for the hostile-input tests."""

from __future__ import annotations

import base64
import hashlib
import json
import secrets
import struct
from typing import Any

import cbor2
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


UP, UV, AT = 0x01, 0x04, 0x40


class SoftKey:
    def __init__(self) -> None:
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.credential_id = secrets.token_bytes(32)
        self.count = 0
        self.user_handle: str | None = None

    def _cose(self) -> bytes:
        n = self.key.public_key().public_numbers()
        x, y = n.x.to_bytes(32, "big"), n.y.to_bytes(32, "big")
        return cbor2.dumps({1: 2, 3: -7, -1: 1, -2: x, -3: y})

    @staticmethod
    def _client_data(kind: str, challenge: str, origin: str) -> bytes:
        return json.dumps(
            {"type": kind, "challenge": challenge, "origin": origin, "crossOrigin": False}
        ).encode()

    def create(
        self,
        options: dict[str, Any],
        origin: str,
        *,
        rp_id: str | None = None,
        flags: int = UP | UV | AT,
    ) -> dict[str, Any]:
        """``navigator.credentials.create()``'s answer, in WebAuthn's JSON form."""
        rp = rp_id if rp_id is not None else options["rp"]["id"]
        self.user_handle = options["user"]["id"]
        attested = (
            bytes(16) + struct.pack(">H", len(self.credential_id)) + self.credential_id
        ) + self._cose()
        auth = hashlib.sha256(rp.encode()).digest() + bytes([flags]) + struct.pack(">I", 0)
        obj = cbor2.dumps({"fmt": "none", "attStmt": {}, "authData": auth + attested})
        cid = b64(self.credential_id)
        return {
            "id": cid,
            "rawId": cid,
            "type": "public-key",
            "response": {
                "clientDataJSON": b64(
                    self._client_data("webauthn.create", options["challenge"], origin)
                ),
                "attestationObject": b64(obj),
                "transports": ["internal"],
            },
            "clientExtensionResults": {},
        }

    def get(
        self,
        options: dict[str, Any],
        origin: str,
        *,
        rp_id: str | None = None,
        flags: int = UP | UV,
        count: int | None = None,
    ) -> dict[str, Any]:
        """``navigator.credentials.get()``'s answer (the counter moves on by one)."""
        rp = rp_id if rp_id is not None else options["rpId"]
        self.count = self.count + 1 if count is None else count
        auth = hashlib.sha256(rp.encode()).digest() + bytes([flags]) + struct.pack(">I", self.count)
        data = self._client_data("webauthn.get", options["challenge"], origin)
        sig = self.key.sign(auth + hashlib.sha256(data).digest(), ec.ECDSA(hashes.SHA256()))
        cid = b64(self.credential_id)
        return {
            "id": cid,
            "rawId": cid,
            "type": "public-key",
            "response": {
                "clientDataJSON": b64(data),
                "authenticatorData": b64(auth),
                "signature": b64(sig),
                "userHandle": self.user_handle,
            },
            "clientExtensionResults": {},
        }
