/* The page's side of search (the worker is workers/kb-search.js):
   - the worker fetches the language's index only once the reader opens search: this tells it;
   - Material searches on keyup: text pasted from a menu or dictated searches too;
   - a result's link carries ?h= with the page's words that matched (folded, as the index
     folds them): every occurrence of each, in any case and accent, is marked. */
(function () {
  "use strict";

  function fold(text) {
    return text.normalize("NFD").replace(/[\u0300-\u036f]/g, "").normalize("NFC").toLowerCase();
  }

  var input = document.querySelector("input.md-search__input");
  var toggle = document.getElementById("__search");
  if (input && typeof BroadcastChannel !== "undefined") {
    var channel = new BroadcastChannel("kb-search");
    var isOpen = function () {
      return document.activeElement === input || (toggle && toggle.checked);
    };
    var open = function () { channel.postMessage("open"); };
    channel.onmessage = function (event) {
      if (event.data === "asking" && isOpen()) open();
    };
    input.addEventListener("focus", open);
    if (toggle) toggle.addEventListener("change", function () { if (toggle.checked) open(); });
    if (isOpen()) open();
  }

  if (input) {
    input.addEventListener("input", function (event) {
      // Material's keyup handler reads the value; a keyboard's own keyup comes too, and
      // Material drops a value it has already searched.
      if (!event.isComposing) input.dispatchEvent(new KeyboardEvent("keyup"));
    });
  }

  var words = new URLSearchParams(location.search).get("h");
  var article = document.querySelector(".md-content article");
  if (!words || !article) return;
  var wanted = {};
  words.split(/\s+/).filter(Boolean).forEach(function (word) { wanted[fold(word)] = true; });
  var word = /[\p{L}\p{N}\p{M}_]+/gu;
  var walker = document.createTreeWalker(article, NodeFilter.SHOW_TEXT, {
    acceptNode: function (node) {
      return node.parentElement.closest("script, style, mark, .md-clipboard, .headerlink")
        ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT;
    }
  });
  var nodes = [];
  for (var node = walker.nextNode(); node; node = walker.nextNode()) nodes.push(node);
  nodes.forEach(function (text) {
    var value = text.nodeValue;
    var parts = [];
    var last = 0;
    value.replace(word, function (match, offset) {
      if (wanted[fold(match)]) {
        parts.push(document.createTextNode(value.slice(last, offset)));
        var mark = document.createElement("mark");
        mark.setAttribute("data-md-highlight", "");
        mark.textContent = match;
        parts.push(mark);
        last = offset + match.length;
      }
      return match;
    });
    if (!parts.length) return;
    parts.push(document.createTextNode(value.slice(last)));
    text.replaceWith.apply(text, parts);
  });
})();
