// Starts Swagger UI on /docs (a file, not an inline script: the CSP allows no inline script).
// The schema beside this page: /openapi.json, or a case's own on a server of many cases
// (/cases/<uid>/docs -> /cases/<uid>/openapi.json).
window.ui = SwaggerUIBundle({url: location.pathname.replace(/\/docs\/?$/, "") + "/openapi.json",
                             dom_id: "#swagger-ui", deepLinking: true});
