// Swagger UI for /docs, started from this file: the Content-Security-Policy allows no inline
// script. The bundle itself is the copy inside the fastapi-offline package (served at swagger/).
window.ui = SwaggerUIBundle({
  url: "openapi.json",
  dom_id: "#swagger-ui",
  layout: "BaseLayout",
  deepLinking: true,
  showExtensions: true,
  showCommonExtensions: true,
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIBundle.SwaggerUIStandalonePreset],
});
