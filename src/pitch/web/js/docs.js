// The API page (/docs): Swagger UI from this server's own files, started here rather
// than by an inline script, so the page keeps the strict Content-Security-Policy.
/* global SwaggerUIBundle */
SwaggerUIBundle({
  url: "/openapi.json",
  dom_id: "#swagger-ui",
  deepLinking: true,
  presets: [SwaggerUIBundle.presets.apis],
  layout: "BaseLayout",
});
