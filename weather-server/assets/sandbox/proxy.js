"use strict";
// The sandbox proxy of MCP Apps (2026-01-26, web hosts): framed by the page from another origin, it
// takes the app's HTML from the page (`ui/notifications/sandbox-resource-ready`), renders it in an
// inner frame without `allow-same-origin` (the app gets an origin of its own), and relays every
// other message both ways, unchanged. The page builds the HTML (the app's own policy included).
(function () {
  var LOOPBACK = /^http:\/\/(127\.0\.0\.1|localhost|\[::1\]):\d+$/;
  var page = null;
  var inner = null;

  function toPage(message) { if (page) window.parent.postMessage(message, page); }

  window.addEventListener("message", function (event) {
    var message = event.data;
    if (!message || typeof message !== "object" || message.jsonrpc !== "2.0") return;
    var method = typeof message.method === "string" ? message.method : "";
    if (event.source === window.parent) {
      if (!LOOPBACK.test(event.origin) || (page && event.origin !== page)) return;
      if (method === "ui/notifications/sandbox-resource-ready") {
        if (inner) return;
        page = event.origin;
        var params = message.params || {};
        inner = document.createElement("iframe");
        inner.setAttribute("sandbox", typeof params.sandbox === "string" ? params.sandbox : "allow-scripts allow-forms");
        if (typeof params.allow === "string") inner.setAttribute("allow", params.allow);
        inner.setAttribute("title", "app");
        inner.srcdoc = typeof params.html === "string" ? params.html : "";
        document.body.appendChild(inner);
        return;
      }
      if (method.indexOf("ui/notifications/sandbox-") === 0 || !inner) return;
      inner.contentWindow.postMessage(message, "*");
      return;
    }
    if (inner && event.source === inner.contentWindow) {
      if (method.indexOf("ui/notifications/sandbox-") === 0) return;
      toPage(message);
    }
  });

  window.parent.postMessage({ jsonrpc: "2.0", method: "ui/notifications/sandbox-proxy-ready", params: {} }, "*");
})();
