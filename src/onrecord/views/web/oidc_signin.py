"""Sign-in through an OpenID Connect provider (access/oidc.py checks the flow and the ID
token): `GET /login/oidc` sends the browser to the provider, `GET /login/oidc/callback`
is where it comes back. Success starts the same server-side session as a password
sign-in; success and every refusal are audit entries, and the person is shown one
sentence whatever the refusal was."""

from __future__ import annotations

import html

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import HTMLResponse, RedirectResponse

from onrecord.access.accounts import SignInRefused
from onrecord.access.oidc import STATE_TTL_S, OidcRefused
from onrecord.views.web.signin import case_id, client_addr, login_page, safe_next, start_session

router = APIRouter(include_in_schema=False)
BROWSER_COOKIE = "onrecord_oidc"
CALLBACK = "/login/oidc/callback"
HOW = "OIDC sign-in"
REFUSED = ("Sign-in through the provider was refused: it did not vouch for an account of this server, the "
           "account is locked or disabled, or the sign-in took too long. Start again, or ask an admin.")


def _client(request: Request):
    client = getattr(request.app.state, "oidc", None)
    if client is None:
        raise HTTPException(404, "this server has no OIDC sign-in (onrecord.toml [oidc] or --oidc-issuer)")
    return client


def _callback_url(request: Request) -> str:
    # The address the provider sends the browser back to, registered there: this server's own
    # name (the Host guard let through), https behind TLS or the TLS proxy secure_cookies names.
    scheme = "https" if request.app.state.secure_cookies else request.url.scheme
    return f"{scheme}://{request.url.netloc}{CALLBACK}"


@router.get("/login/oidc")
def oidc_start(request: Request, next: str | None = None):
    client = _client(request)
    try:
        url, browser = client.begin(_callback_url(request), safe_next(request, next))
    except OidcRefused as refused:
        request.app.state.audit.sign_in("(oidc)", client_addr(request), refused.reason, case_id(request), HOW)
        return login_page(request, "The sign-in provider could not be reached: try again, or sign in with a "
                          "password.", safe_next(request, next), 502)
    response = RedirectResponse(url, status_code=303)
    # SameSite=Lax, not Strict: the provider's redirect back is a top-level navigation from its
    # site, on which a Strict cookie is not sent. It binds the state to this browser only.
    response.set_cookie(BROWSER_COOKIE, browser, httponly=True, samesite="lax", path="/login/oidc",
                        secure=request.app.state.secure_cookies, max_age=STATE_TTL_S)
    return response


@router.get(CALLBACK)
def oidc_callback(request: Request):
    client, audit, addr = _client(request), request.app.state.audit, client_addr(request)
    params = {k: v[:4000] for k, v in request.query_params.items()}
    subject = None
    try:
        claims, next_url = client.finish(params, request.cookies.get(BROWSER_COOKIE))
        subject = claims["sub"]
        account = request.app.state.access.accounts.sign_in_oidc(subject)
    except (OidcRefused, SignInRefused) as refused:
        who = f"oidc:{subject[:100]}" if subject else "(oidc)"
        audit.sign_in(who, addr, refused.reason, case_id(request), HOW)
        response = login_page(request, REFUSED, safe_next(request, None), 401)
        response.delete_cookie(BROWSER_COOKIE, path="/login/oidc")
        return response
    audit.sign_in(account.name, addr, None, case_id(request), HOW)
    # A page of ours that moves on, not a redirect: a browser withholds a SameSite=Strict cookie
    # all along a redirect chain that began on the provider's site, so the first page would
    # meet sign-in again. From this page on, the navigation is this site's own.
    target = html.escape(next_url, quote=True)
    response = HTMLResponse(f'<!doctype html><meta charset="utf-8"><meta http-equiv="refresh" content="0;url={target}">'
                            f'<title>Signed in</title><p>Signed in. <a href="{target}">Continue</a></p>')
    start_session(request, account, response)
    response.delete_cookie(BROWSER_COOKIE, path="/login/oidc")
    return response
