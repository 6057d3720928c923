/*
 * Test-only stand-in for https://apis.google.com/js/api.js (Google's gapi loader), which the
 * Firebase JS SDK and the Auth emulator's helper iframe load for the Google popup flow. The test
 * machines have no Internet access, so browser tests route that URL to this file
 * (marketplace.testing.firebase.serve_gapi_shim). It implements only what the two sides use:
 * gapi.load('gapi.iframes'), context.open() / getParentIframe(), and register/send/ping/restyle
 * over postMessage. The real Auth emulator does the sign-in itself.
 */
(function () {
  var MARK = "__kindlyGapiShim";
  var handlers = {}; // message name -> handler (one registry per window)
  var pending = {}; // request id -> callback
  var counter = 0;

  function newId() {
    counter += 1;
    return MARK + ":" + counter + ":" + Math.random().toString(36).slice(2);
  }

  function Channel(target) {
    this.target = target;
  }
  Channel.prototype.register = function (name, handler) {
    handlers[name] = handler;
  };
  Channel.prototype.send = function (name, data, callback) {
    var id = newId();
    if (callback) pending[id] = callback;
    this.target().postMessage({ mark: MARK, kind: "request", id: id, name: name, data: data }, "*");
  };
  Channel.prototype.restyle = function () {
    return Promise.resolve();
  };
  Channel.prototype.ping = function (callback) {
    var self = this;
    return new Promise(function (resolve) {
      var id = newId();
      var timer = setInterval(function () {
        var win = self.target();
        if (win) win.postMessage({ mark: MARK, kind: "ping", id: id }, "*");
      }, 100);
      pending[id] = function () {
        clearInterval(timer);
        if (callback) callback();
        resolve();
      };
    });
  };

  window.addEventListener("message", function (event) {
    var msg = event.data;
    if (!msg || msg.mark !== MARK) return;
    if (msg.kind === "ping") {
      event.source.postMessage({ mark: MARK, kind: "response", id: msg.id, result: [] }, "*");
    } else if (msg.kind === "request") {
      var handler = handlers[msg.name];
      var result = handler ? handler(msg.data) : undefined;
      event.source.postMessage({ mark: MARK, kind: "response", id: msg.id, result: [result] }, "*");
    } else if (msg.kind === "response") {
      var callback = pending[msg.id];
      delete pending[msg.id];
      if (callback) {
        try {
          callback(msg.result);
        } catch (e) {
          // The SDK's callbacks may throw after they are done; nothing waits on that.
        }
      }
    }
  });

  var context = {
    open: function (options, onOpen) {
      var frame = document.createElement("iframe");
      var attributes = options.attributes || {};
      Object.keys(attributes).forEach(function (key) {
        if (key === "style") {
          Object.keys(attributes.style).forEach(function (s) {
            frame.style[s] = attributes.style[s];
          });
        } else {
          frame.setAttribute(key, attributes[key]);
        }
      });
      frame.src = options.url;
      (options.where || document.body).appendChild(frame);
      var channel = new Channel(function () {
        return frame.contentWindow;
      });
      return onOpen ? onOpen(channel) : channel;
    },
    getParentIframe: function () {
      return new Channel(function () {
        return window.parent;
      });
    },
  };

  window.gapi = window.gapi || {};
  window.gapi.iframes = {
    CROSS_ORIGIN_IFRAMES_FILTER: function () {
      return true;
    },
    getContext: function () {
      return context;
    },
  };
  window.gapi.load = function (name, options) {
    var callback = typeof options === "function" ? options : options && options.callback;
    setTimeout(function () {
      if (callback) callback();
    }, 0);
  };

  var script = document.currentScript;
  var onload = script && script.src ? new URL(script.src).searchParams.get("onload") : null;
  setTimeout(function () {
    if (onload && typeof window[onload] === "function") window[onload]();
    if (typeof window.gapi_onload === "function") window.gapi_onload();
  }, 0);
})();
