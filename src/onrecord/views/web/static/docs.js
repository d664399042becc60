// Starts Swagger UI on /docs (a file, not an inline script: the CSP allows no inline script).
window.ui = SwaggerUIBundle({url: "/openapi.json", dom_id: "#swagger-ui", deepLinking: true});
