"""A small OpenID Connect provider, run on loopback inside the tests (no network): discovery,
JWKS, authorize and token endpoints, signing ID tokens with an RSA key made for the test.
It is honest about the flow (client secret, redirect URI, one use of a code, PKCE S256
checked) and lets a test make it misbehave the ways a provider or an attacker could:
another audience, an expired token, a token signed with a key it does not publish."""

from __future__ import annotations

import base64
import hashlib
import json
import secrets
import threading
import time
from urllib.parse import urlencode

from joserfc import jwt
from joserfc.jwk import KeySet, RSAKey
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse
from starlette.routing import Route

from tests.browser import free_port


class Provider:
    def __init__(self):
        self.key = RSAKey.generate_key(2048, parameters={"kid": "test-1", "use": "sig", "alg": "RS256"})
        self.client_id, self.client_secret = "onrecord-test", secrets.token_urlsafe(16)
        self.port = free_port()
        self.issuer = f"http://127.0.0.1:{self.port}"
        self.reset()
        self._codes: dict[str, dict] = {}
        self.app = Starlette(routes=[
            Route("/.well-known/openid-configuration", self.discovery), Route("/jwks", self.jwks),
            Route("/authorize", self.authorize), Route("/token", self.token, methods=["POST"])])

    def reset(self) -> None:
        """How the next ID token is made (a test changes one of these)."""
        self.subject = "sub-ana-0001"
        self.audience: str | list | None = None  # None: our client id
        self.issued_ago_s, self.lifetime_s = 0, 300
        self.signing_key = None  # None: the published key
        self.nonce_override = None
        self.iss_claim = None  # None: its own issuer
        self.unsigned = False  # an ID token with "alg": "none"

    # ---- endpoints

    async def discovery(self, request: Request):
        i = self.issuer
        return JSONResponse({
            "issuer": i, "authorization_endpoint": f"{i}/authorize", "token_endpoint": f"{i}/token",
            "jwks_uri": f"{i}/jwks", "response_types_supported": ["code"], "subject_types_supported": ["public"],
            "id_token_signing_alg_values_supported": ["RS256"], "scopes_supported": ["openid", "email"],
            "token_endpoint_auth_methods_supported": ["client_secret_basic"],
            "code_challenge_methods_supported": ["S256"]})

    async def jwks(self, request: Request):
        return JSONResponse(KeySet([self.key]).as_dict(private=False))

    async def authorize(self, request: Request):
        q = request.query_params
        if q.get("client_id") != self.client_id or q.get("response_type") != "code" or "openid" not in q.get(
                "scope", "").split() or q.get("code_challenge_method") != "S256" or not q.get("code_challenge"):
            return JSONResponse({"error": "invalid_request"}, status_code=400)
        code = secrets.token_urlsafe(16)
        self._codes[code] = {"challenge": q["code_challenge"], "nonce": q.get("nonce"),
                             "redirect_uri": q["redirect_uri"], "used": False}
        # the person signs in at the provider (not modelled); it sends the browser back
        return RedirectResponse(q["redirect_uri"] + "?" + urlencode({"code": code, "state": q.get("state", "")}),
                                status_code=302)

    async def token(self, request: Request):
        form = await request.form()
        scheme, _, creds = request.headers.get("authorization", "").partition(" ")
        if scheme.lower() != "basic" or base64.b64decode(creds).decode() != f"{self.client_id}:{self.client_secret}":
            return JSONResponse({"error": "invalid_client"}, status_code=401)
        grant = self._codes.get(form.get("code", ""))
        if grant is None or grant["used"] or form.get("redirect_uri") != grant["redirect_uri"]:
            return JSONResponse({"error": "invalid_grant"}, status_code=400)
        grant["used"] = True
        verifier = form.get("code_verifier", "")
        digest = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()
        if digest != grant["challenge"]:
            return JSONResponse({"error": "invalid_grant", "error_description": "PKCE"}, status_code=400)
        now = int(time.time()) - self.issued_ago_s
        claims = {"iss": self.iss_claim or self.issuer, "sub": self.subject, "aud": self.audience or self.client_id,
                  "iat": now, "exp": now + self.lifetime_s, "nonce": self.nonce_override or grant["nonce"],
                  "email": "ana@example.test"}
        id_token = jwt.encode({"alg": "RS256", "kid": "test-1"}, claims, self.signing_key or self.key)
        if self.unsigned:
            part = lambda d: base64.urlsafe_b64encode(json.dumps(d).encode()).rstrip(b"=").decode()  # noqa: E731
            id_token = f"{part({'alg': 'none', 'typ': 'JWT'})}.{part(claims)}."
        return JSONResponse({"access_token": secrets.token_urlsafe(16), "token_type": "Bearer", "expires_in": 300,
                             "id_token": id_token})

    # ---- running

    def __enter__(self) -> Provider:
        import uvicorn

        self._server = uvicorn.Server(uvicorn.Config(self.app, host="127.0.0.1", port=self.port,
                                                     log_level="warning"))
        self._thread = threading.Thread(target=self._server.run, daemon=True)
        self._thread.start()
        for _ in range(200):
            if self._server.started:
                break
            time.sleep(0.05)
        return self

    def __exit__(self, *exc) -> None:
        self._server.should_exit = True
        self._thread.join(5)
