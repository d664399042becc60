"""/docs, the interactive API page, from files on this machine: FastAPI's own page loads
Swagger UI from a CDN (nothing on an offline machine) and starts it with an inline script
(which the Content-Security-Policy forbids). The Swagger UI build comes from the
`fastapi-offline` wheel's static files; the page starts it from /static/docs.js."""

from __future__ import annotations

from importlib.resources import files

from fastapi import APIRouter, HTTPException
from fastapi.responses import FileResponse, HTMLResponse

router = APIRouter(include_in_schema=False)
ASSETS = {"swagger-ui-bundle.js": "application/javascript", "swagger-ui.css": "text/css"}

PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>onrecord API</title>
<link rel="icon" href="data:,"><link rel="stylesheet" href="/vendor/swagger/swagger-ui.css"></head>
<body><div id="swagger-ui"></div>
<script src="/vendor/swagger/swagger-ui-bundle.js"></script><script src="/static/docs.js"></script>
</body></html>"""


@router.get("/docs")
def docs_page() -> HTMLResponse:
    return HTMLResponse(PAGE)


@router.get("/vendor/swagger/{name}")
def swagger_asset(name: str) -> FileResponse:
    if name not in ASSETS:
        raise HTTPException(404, f"no file {name!r}")
    return FileResponse(str(files("fastapi_offline") / "static" / name), media_type=ASSETS[name],
                        headers={"Cache-Control": "max-age=86400"})
