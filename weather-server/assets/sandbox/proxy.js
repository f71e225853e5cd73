"use strict";
// The sandbox proxy of MCP Apps (2026-01-26, web hosts): framed by the page from another origin, it
// takes the app's HTML from the page (`ui/notifications/sandbox-resource-ready`), renders it in an
// inner frame without `allow-same-origin` (the app gets an origin of its own), and relays every
// other message both ways, unchanged. The page builds the HTML (the app's own policy included).
//
// What the proxy decides itself, whatever its parent asks: only its own page (the same server
// under the other loopback name) is heard; the inner frame's sandbox is fixed; the app's frame
// may not be navigated away (the proxy's `frame-src` allows only the frame domains the app
// declared until its document has loaded, nothing after); a frame that navigates all the same
// is removed, and nothing is relayed to or from it again.
(function () {
  var SANDBOX = "allow-scripts allow-forms";
  var PERMISSION = /^(camera|microphone|geolocation|clipboard-write)$/;
  var SOURCE = /^https?:\/\/(\*\.)?[A-Za-z0-9.-]+(:(\d+|\*))?$/;
  var page = ownPage();
  var inner = null;
  var gone = false;

  // The page this proxy serves: the same port under the other loopback name.
  function ownPage() {
    var other = { "localhost": "127.0.0.1", "127.0.0.1": "localhost" }[location.hostname];
    if (location.protocol !== "http:" || !other) return null;
    return "http://" + other + (location.port ? ":" + location.port : "");
  }

  function toPage(message) { if (page) window.parent.postMessage(message, page); }

  // A policy of the proxy's own document: it governs where the inner frame may navigate.
  function restrict(policy) {
    var meta = document.createElement("meta");
    meta.httpEquiv = "Content-Security-Policy";
    meta.content = policy;
    document.head.appendChild(meta);
  }

  function leave(why) {
    if (gone) return;
    gone = true;
    if (inner) inner.remove();
    toPage({ jsonrpc: "2.0", method: "ui/notifications/sandbox-app-navigated", params: { reason: why } });
  }

  function render(params) {
    var declared = params.csp && Array.isArray(params.csp.frameDomains) ? params.csp.frameDomains : [];
    var frames = declared.filter(function (d) { return typeof d === "string" && SOURCE.test(d); });
    // The app's document inherits this (its nested frames may load only the declared domains).
    restrict("frame-src " + (frames.length ? frames.join(" ") : "'none'"));
    inner = document.createElement("iframe");
    inner.setAttribute("sandbox", SANDBOX);
    if (typeof params.allow === "string") {
      var asked = params.allow.split(";").map(function (p) { return p.trim(); }).filter(Boolean);
      if (asked.every(function (p) { return PERMISSION.test(p); })) inner.setAttribute("allow", asked.join("; "));
    }
    inner.setAttribute("title", "app");
    var loads = 0;
    inner.addEventListener("load", function () {
      loads += 1;
      // Loaded: from now on the frame may not be navigated anywhere.
      if (loads === 1) restrict("frame-src 'none'");
      else leave("the app's frame loaded another document");
    });
    // The proxy's document frames nothing else: a refused frame is the app leaving.
    document.addEventListener("securitypolicyviolation", function (event) {
      if (event.effectiveDirective === "frame-src") leave("the app tried to navigate its frame to " + event.blockedURI);
    });
    inner.srcdoc = typeof params.html === "string" ? params.html : "";
    document.body.appendChild(inner);
  }

  window.addEventListener("message", function (event) {
    var message = event.data;
    if (gone || !page || !message || typeof message !== "object" || message.jsonrpc !== "2.0") return;
    var method = typeof message.method === "string" ? message.method : "";
    if (event.source === window.parent) {
      if (event.origin !== page) return;
      if (method === "ui/notifications/sandbox-resource-ready") {
        if (!inner) render(message.params || {});
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

  if (page && window.parent !== window) {
    window.parent.postMessage({ jsonrpc: "2.0", method: "ui/notifications/sandbox-proxy-ready", params: {} }, page);
  }
})();
