"""OpenID Connect sign-in (an option; docs/access.md, "Sign-in with OIDC").

The authorization-code flow with PKCE (S256), a `state` used once and bound to the
browser that started it, and a `nonce` the ID token must carry. authlib builds the
authorization request and exchanges the code; joserfc (authlib's JOSE library) checks the
ID token: its signature against the keys the issuer's discovery document names (asymmetric
algorithms only, never `none` or a shared secret), `iss` equal to the configured issuer,
`aud` holding our client id (and `azp` ours when there are several audiences), `exp`
not passed, `iat` present, `nonce` ours, `sub` present. The subject then maps to the one
account an admin linked to it (`onrecord user add ... --oidc-subject SUB`): nothing is
created on first sign-in and email claims are not trusted for it.

A refusal is an OidcRefused whose `reason` goes to the audit; the person is shown one
sentence whatever it was.
"""

from __future__ import annotations

import os
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from sqlalchemy import Engine

from onrecord.access.oidc_pending import Pending, PendingSignIns, sha
from onrecord.errors import UsageError

STATE_TTL_S = 600  # a sign-in started more than ten minutes ago is started again
PENDING_MAX = 10_000  # started, unfinished sign-ins kept at once (a flood forgets the oldest)
METADATA_TTL_S = 3600  # discovery document and keys are fetched again after an hour
KEYS_REFRESH_MIN_S = 60  # an unknown key id refetches the keys at most once a minute
LEEWAY_S = 60  # clock skew allowed on exp/iat between us and the provider
ALGORITHMS = ("RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA")
HTTP_TIMEOUT_S = 10


class OidcRefused(Exception):
    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason  # for the audit: unknown_state, state_reused, wrong_audience, expired ...


@dataclass(frozen=True)
class OidcSettings:
    issuer: str
    client_id: str
    client_secret: str = field(repr=False)
    label: str = "single sign-on"
    scope: str = "openid"


def load_settings(section: dict | None, *, issuer: str | None = None, client_id: str | None = None,
                  secret_env: str | None = None, secret_file: Path | None = None,
                  where: str = "onrecord.toml [oidc]") -> OidcSettings | None:
    """The OIDC settings from a case's `[oidc]` table, each overridden by a serve flag; None
    when neither names an issuer. The client secret comes from an environment variable or
    a file, never from the command line or onrecord.toml (both are read by others)."""
    from authlib.common.security import is_secure_transport

    section = dict(section or {})
    if "client_secret" in section:
        raise UsageError(f"{where}: client_secret: keep the secret out of onrecord.toml; name the environment "
                         "variable (client_secret_env) or file (client_secret_file) that holds it")
    issuer = issuer or section.get("issuer")
    if not issuer:
        if client_id or secret_env or secret_file:
            raise UsageError("--oidc-client-id/--oidc-secret-*: also give the provider's --oidc-issuer")
        return None
    issuer = str(issuer).rstrip("/")
    if not is_secure_transport(issuer):
        raise UsageError(f"OIDC issuer {issuer!r}: must be an https:// address (http only on loopback)")
    client_id = client_id or section.get("client_id")
    if not client_id:
        raise UsageError(f"{where}: client_id: the id this server is registered under at {issuer}")
    env = secret_env or section.get("client_secret_env")
    file = secret_file or section.get("client_secret_file")
    if env:
        secret = os.environ.get(str(env), "")
        if not secret:
            raise UsageError(f"OIDC client secret: the environment variable {env} is not set")
    elif file:
        try:
            secret = Path(file).read_text(encoding="utf-8").strip()
        except OSError as exc:
            raise UsageError(f"OIDC client secret file {file}: cannot be read ({exc.strerror})") from exc
        if not secret:
            raise UsageError(f"OIDC client secret file {file}: is empty")
    else:
        raise UsageError(f"{where}: name where the client secret is: client_secret_env (--oidc-secret-env) or "
                         "client_secret_file (--oidc-secret-file)")
    return OidcSettings(issuer, str(client_id), secret, str(section.get("label") or "single sign-on"))


class OidcClient:
    """The relying party: starts sign-ins and checks their ends. The sign-ins under way are
    kept in the store `engine` holds (oidc_pending.py), so any process of a server finishes
    a sign-in any other began."""

    def __init__(self, settings: OidcSettings, engine: Engine, now: Callable[[], float] = time.time):
        self.settings, self.now = settings, now
        self.pending = PendingSignIns(engine, now, STATE_TTL_S, PENDING_MAX)
        self._meta: tuple[float, dict] | None = None
        self._keys: tuple[float, object] | None = None

    # ---- the provider's documents

    def _get(self, url: str) -> dict:
        import requests

        try:
            r = requests.get(url, timeout=HTTP_TIMEOUT_S, headers={"Accept": "application/json"})
            r.raise_for_status()
            return r.json()
        except (requests.RequestException, ValueError) as exc:
            raise OidcRefused(f"provider_unreachable: {url}: {exc}") from exc

    def metadata(self) -> dict:
        """The issuer's discovery document, checked (authlib's OpenIDProviderMetadata) and
        required to name this very issuer."""
        from authlib.oidc.discovery import OpenIDProviderMetadata

        now = time.monotonic()
        if self._meta and now - self._meta[0] < METADATA_TTL_S:
            return self._meta[1]
        doc = self._get(self.settings.issuer + "/.well-known/openid-configuration")
        meta = OpenIDProviderMetadata(doc)
        try:
            meta.validate()
        except ValueError as exc:
            raise OidcRefused(f"bad_discovery_document: {exc}") from exc
        if str(doc.get("issuer", "")).rstrip("/") != self.settings.issuer:
            raise OidcRefused(f"bad_discovery_document: it names issuer {doc.get('issuer')!r}")
        self._meta = (now, doc)
        return doc

    def key_set(self, refresh: bool = False):
        from joserfc.jwk import KeySet

        now = time.monotonic()
        if self._keys and now - self._keys[0] < METADATA_TTL_S and not (
                refresh and now - self._keys[0] > KEYS_REFRESH_MIN_S):
            return self._keys[1]
        try:
            keys = KeySet.import_key_set(self._get(self.metadata()["jwks_uri"]))
        except (ValueError, TypeError, KeyError) as exc:
            raise OidcRefused(f"bad_jwks: {exc}") from exc
        self._keys = (now, keys)
        return keys

    # ---- the flow

    def _session(self, redirect_uri: str):
        from authlib.integrations.requests_client import OAuth2Session

        methods = self.metadata().get("token_endpoint_auth_methods_supported") or ["client_secret_basic"]
        auth = "client_secret_basic" if "client_secret_basic" in methods else "client_secret_post"
        return OAuth2Session(self.settings.client_id, self.settings.client_secret, scope=self.settings.scope,
                             redirect_uri=redirect_uri, code_challenge_method="S256",
                             token_endpoint_auth_method=auth)

    def begin(self, redirect_uri: str, next_url: str) -> tuple[str, str]:
        """(the provider's authorization URL to send the browser to, the value the browser
        keeps in a cookie until it comes back)."""
        from authlib.common.security import generate_token

        state, nonce, verifier, browser = (secrets.token_urlsafe(24), secrets.token_urlsafe(24), generate_token(64),
                                           secrets.token_urlsafe(24))
        with self._session(redirect_uri) as session:
            url, _ = session.create_authorization_url(self.metadata()["authorization_endpoint"], state=state,
                                                      code_verifier=verifier, nonce=nonce)
        self.pending.add(state, Pending(nonce, verifier, redirect_uri, next_url, sha(browser)))
        return url, browser

    def finish(self, params: dict, browser: str | None) -> tuple[dict, str]:
        """The verified ID token's claims and the page to go on to; or OidcRefused."""
        state = params.get("state") or ""
        pending, reused = self.pending.take(state)
        if pending is None:
            raise OidcRefused("state_reused" if reused else "unknown_state")
        if not browser or not secrets.compare_digest(sha(browser), pending.browser_sha256):
            raise OidcRefused("state_from_another_browser")
        if params.get("error"):
            raise OidcRefused(f"provider_error: {str(params['error'])[:80]}")
        if not params.get("code"):
            raise OidcRefused("no_code")
        token = self._exchange(pending, str(params["code"]))
        return self.verify(token.get("id_token"), pending.nonce), pending.next_url

    def _exchange(self, pending: Pending, code: str) -> dict:
        from authlib.common.errors import AuthlibBaseError
        from requests import RequestException

        try:
            with self._session(pending.redirect_uri) as session:
                return session.fetch_token(self.metadata()["token_endpoint"], grant_type="authorization_code",
                                           code=code, code_verifier=pending.verifier, timeout=HTTP_TIMEOUT_S)
        except (AuthlibBaseError, RequestException, ValueError) as exc:
            raise OidcRefused(f"token_exchange_failed: {str(exc)[:120]}") from exc

    def verify(self, id_token: str | None, nonce: str) -> dict:
        """The claims of a valid ID token (module docstring: what is checked), or OidcRefused."""
        from joserfc import jwt
        from joserfc.errors import (
            BadSignatureError,
            ExpiredTokenError,
            InvalidClaimError,
            InvalidKeyIdError,
            JoseError,
            MissingClaimError,
        )

        if not id_token or not isinstance(id_token, str):
            raise OidcRefused("no_id_token")
        allowed = [a for a in self.metadata().get("id_token_signing_alg_values_supported", ["RS256"])
                   if a in ALGORITHMS] or ["RS256"]
        try:
            try:
                decoded = jwt.decode(id_token, self.key_set(), algorithms=allowed)
            except (BadSignatureError, InvalidKeyIdError):  # maybe the provider rolled its keys: fetch once more
                decoded = jwt.decode(id_token, self.key_set(refresh=True), algorithms=allowed)
        except (BadSignatureError, InvalidKeyIdError) as exc:
            raise OidcRefused("bad_signature") from exc
        except (JoseError, ValueError) as exc:
            raise OidcRefused(f"bad_token: {exc}") from exc
        claims = decoded.claims
        registry = jwt.JWTClaimsRegistry(
            now=int(self.now()), leeway=LEEWAY_S, iss={"essential": True, "value": self.settings.issuer},
            aud={"essential": True, "value": self.settings.client_id}, exp={"essential": True},
            iat={"essential": True}, sub={"essential": True}, nonce={"essential": True, "value": nonce})
        try:
            registry.validate(claims)
        except ExpiredTokenError as exc:
            raise OidcRefused("expired") from exc
        except (InvalidClaimError, MissingClaimError) as exc:
            claim = getattr(exc, "claim", "") or str(exc)
            raise OidcRefused({"iss": "wrong_issuer", "aud": "wrong_audience", "nonce": "wrong_nonce"}.get(
                claim, f"bad_claim: {claim}")) from exc
        except JoseError as exc:
            raise OidcRefused(f"bad_claim: {exc}") from exc
        aud = claims["aud"]
        if isinstance(aud, list) and len(aud) > 1 and claims.get("azp") != self.settings.client_id:
            raise OidcRefused("wrong_audience")  # OIDC Core 3.1.3.7: several audiences need azp = us
        if not isinstance(claims.get("sub"), str):
            raise OidcRefused("bad_claim: sub")
        return claims


